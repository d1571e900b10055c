import Foundation
import HummingbirdWebSocket
import NIOCore

/// One message read from a connection: its bytes, or why it cannot be read.
package enum InboundMessage {
    case text(Data)
    /// A binary message: the protocol is JSON text only.
    case binary
    /// Longer than the server reads at all; its bytes were discarded.
    case oversized(byteCount: Int)
    /// Frames in an order RFC 6455 5.4 forbids: the connection must be failed with 1002. Only
    /// frames read before `FrameRulesGuard` was in place get here; it answers the rest itself.
    case fragmentationError(String)
}

/// Assembles WebSocket frames into messages, keeping at most `maxBytes` of one message.
///
/// `WebSocketInboundStream.messages(maxSize:)` closes the connection on an oversized message;
/// reading frames here instead lets the server answer `too_large` and keep the connection.
package struct InboundMessages: AsyncSequence {
    package let frames: WebSocketInboundStream
    package let maxBytes: Int

    package init(frames: WebSocketInboundStream, maxBytes: Int) {
        self.frames = frames
        self.maxBytes = maxBytes
    }

    package struct AsyncIterator: AsyncIteratorProtocol {
        var frames: WebSocketInboundStream.AsyncIterator
        let maxBytes: Int

        package mutating func next() async throws -> InboundMessage? {
            var buffer = ByteBuffer()
            var byteCount = 0
            var isText = true
            var isInMessage = false
            while let frame = try await frames.next() {
                if frame.opcode == .continuation {
                    guard isInMessage else { return .fragmentationError("a continuation frame with no message started") }
                } else {
                    guard !isInMessage else { return .fragmentationError("a new message inside a fragmented one") }
                    isInMessage = true
                    isText = frame.opcode == .text
                }
                byteCount += frame.data.readableBytes
                if byteCount <= maxBytes {
                    var data = frame.data
                    buffer.writeBuffer(&data)
                }
                guard frame.fin else { continue }
                if !isText { return .binary }
                if byteCount > maxBytes { return .oversized(byteCount: byteCount) }
                return .text(Data(buffer.readableBytesView))
            }
            return nil
        }
    }

    package func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(frames: frames.makeAsyncIterator(), maxBytes: maxBytes)
    }
}
