import HummingbirdWebSocket
import NIOCore
import NIOWebSocket
import Synchronization
import WebSocketDeflate

/// Hummingbird's side of permessage-deflate: answers the offer (`DeflateNegotiation`) and
/// inflates compressed client messages. It never compresses: the server's frames bypass
/// hummingbird's writer, and only the shared snapshot frame is sent compressed.
package struct DeflateExtensionBuilder: WebSocketExtensionBuilder {
    package static let name = DeflateNegotiation.extensionName
    /// Most bytes a message may inflate to; one more tells the session it is too large.
    package let maxInflatedBytes: Int

    package func clientRequestHeader() -> String { DeflateNegotiation.extensionName }

    package func serverReponseHeader(to offer: WebSocketExtensionHTTPParameters) -> String? {
        DeflateNegotiation.accepts(offer) ? DeflateNegotiation.response : nil
    }

    package func serverExtension(from offer: WebSocketExtensionHTTPParameters) throws -> (any WebSocketExtension)? {
        DeflateNegotiation.accepts(offer) ? DeflateExtension(maxInflatedBytes: maxInflatedBytes) : nil
    }

    package func clientExtension(from response: WebSocketExtensionHTTPParameters) throws -> (any WebSocketExtension)? { nil }
}

extension WebSocketExtensionFactory {
    /// permessage-deflate as TimerBoard negotiates it (see `DeflateNegotiation`).
    package static func timerBoardDeflate(maxInflatedBytes: Int) -> Self {
        .init { DeflateExtensionBuilder(maxInflatedBytes: maxInflatedBytes) }
    }
}

/// One connection's inflation of compressed messages. A message's frames arrive in order on
/// the connection's one reading task; the lock only satisfies Sendable.
package final class DeflateExtension: WebSocketExtension {
    package let name = DeflateNegotiation.extensionName
    package let maxInflatedBytes: Int
    /// The message being inflated, from its first frame (RSV1 set) to its last.
    private let current = Mutex<MessageInflater?>(nil)

    package init(maxInflatedBytes: Int) {
        self.maxInflatedBytes = maxInflatedBytes
    }

    package var reservedBits: WebSocketFrame.ReservedBits { .rsv1 }

    package func processReceivedFrame(_ frame: WebSocketFrame, context: WebSocketExtensionContext) async throws -> WebSocketFrame {
        try current.withLock { current in
            if frame.opcode != .continuation {
                // A new message: compressed if and only if its first frame says so.
                current = frame.rsv1 ? MessageInflater(limit: maxInflatedBytes) : nil
            }
            guard let inflater = current else { return frame }
            var frame = frame
            let inflated = try inflater.inflate(Array(frame.unmaskedData.readableBytesView), isLast: frame.fin)
            frame.data = ByteBuffer(bytes: inflated)
            frame.maskKey = nil
            frame.rsv1 = false
            if frame.fin { current = nil }
            return frame
        }
    }

    package func processFrameToSend(_ frame: WebSocketFrame, context: WebSocketExtensionContext) async throws -> WebSocketFrame {
        frame  // hummingbird sends only control frames here; they are never compressed
    }

    package func shutdown() async {}
}
