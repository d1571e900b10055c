import Foundation
import NIOCore
import NIOWebSocket
import WebSocketDeflate

/// One message read from a connection: its bytes, or why they were not kept.
package enum InboundMessage: Sendable, Equatable {
    case text(Data)
    /// A binary message: the protocol is JSON text only.
    case binary
    /// Longer than the server reads at all; its bytes were discarded, the connection stays.
    case oversized(byteCount: Int)
}

/// Assembles a connection's data frames into messages (RFC 6455 5.4), inflating compressed ones
/// (RFC 7692), keeping at most `maxBytes` of one message: an oversized message is answered, not
/// a reason to drop the connection, unless its frames bring more than a frame may (a message
/// fragmented without end was read for ever, 8.5 GiB a minute). A plain value, fed one frame at
/// a time on the event loop.
package struct MessageAssembler {
    /// What one frame did.
    package enum Step: Equatable {
        /// The message goes on in later frames.
        case incomplete
        case message(InboundMessage)
        /// The frames broke a rule: fail the connection with this close code.
        case fail(WebSocketErrorCode, String)
    }

    package let maxBytes: Int
    /// The connection negotiated permessage-deflate: a message's first frame may set RSV1.
    package let acceptsCompression: Bool

    private var isInMessage = false
    private var isText = true
    /// Payload bytes of the message so far (inflated bytes for a compressed one).
    private var byteCount = 0
    /// The message's bytes, up to `maxBytes`; emptied after each message, so an idle
    /// connection keeps no buffer.
    private var bytes = ByteBuffer()
    /// Inflates the current message if its first frame set RSV1.
    private var inflater: MessageInflater?

    package init(maxBytes: Int, acceptsCompression: Bool) {
        self.maxBytes = maxBytes
        self.acceptsCompression = acceptsCompression
    }

    /// Takes the next text, binary or continuation frame; control frames are not for it. Past
    /// `maxWireBytes` of the message's frames together, the connection fails (1009), as it does
    /// for one frame that large.
    package mutating func add(_ frame: WebSocketFrame, maxWireBytes: Int = .max) -> Step {
        if frame.opcode == .continuation {
            guard isInMessage else { return .fail(.protocolError, "a continuation frame with no message started") }
            guard !frame.rsv1 else { return .fail(.protocolError, "RSV1 on a continuation frame") }
        } else {
            guard !isInMessage else { return .fail(.protocolError, "a new message inside a fragmented one") }
            if frame.rsv1 {
                guard acceptsCompression else { return .fail(.protocolError, "RSV1 without permessage-deflate") }
                inflater = MessageInflater(limit: maxBytes)
            }
            isInMessage = true
            isText = frame.opcode == .text
        }
        if let inflater {
            do {
                let inflated = try inflater.inflate(Array(frame.unmaskedData.readableBytesView), isLast: frame.fin)
                byteCount = inflater.inflatedByteCount
                if !inflater.isOverLimit { bytes.writeBytes(inflated) }
            } catch {
                // Only a broken compressor sends this; as hummingbird did, 1011.
                return .fail(.unexpectedServerError, "the compressed message is not DEFLATE data")
            }
        } else {
            let payload = frame.unmaskedData
            byteCount += payload.readableBytes
            if byteCount <= maxBytes { bytes.writeImmutableBuffer(payload) }
        }
        guard (inflater?.consumedByteCount ?? byteCount) <= maxWireBytes else {
            return .fail(.messageTooLarge, "a message over the size limit")
        }
        guard frame.fin else { return .incomplete }
        let message: InboundMessage =
            if !isText { .binary } else if byteCount > maxBytes { .oversized(byteCount: byteCount) } else { .text(Data(bytes.readableBytesView)) }
        isInMessage = false
        byteCount = 0
        bytes = ByteBuffer()
        inflater = nil
        return .message(message)
    }
}
