import BoardProtocol
import NIOCore
import NIOWebSocket
import WebSocketDeflate

/// A whole WebSocket frame, header and payload, ready for the socket: a text frame of JSON, or
/// a control frame (the heartbeat's ping, a pong, a close).
///
/// The server's frames are unmasked, so the bytes are the same for every receiver: a changeset
/// is encoded and framed once and the same buffer goes to every subscriber.
package struct OutboundFrame: Sendable {
    package let bytes: ByteBuffer

    package init(_ message: ServerMessage) {
        self.init(payload: message.encoded())
    }

    /// `frame`'s message compressed, for connections that negotiated permessage-deflate: RSV1
    /// set, payload deflated with no context, so any such connection can take the same frame.
    package init(deflating frame: OutboundFrame) {
        self.init(payload: MessageDeflate.compress(Array(frame.payload)), isCompressed: true)
    }

    package init(payload: [UInt8], isCompressed: Bool = false) {
        self.init(firstByte: isCompressed ? 0xC1 : 0x81, payload: payload)  // FIN (+ RSV1) + text
    }

    /// A pong answering a ping with `payload` (at most 125 bytes, as the ping's was).
    static func pong(_ payload: ByteBufferView) -> OutboundFrame {
        OutboundFrame(firstByte: 0x8A, payload: payload)  // FIN + opcode 10
    }

    /// A close frame with a status code and, if given, a reason (RFC 6455 5.5.1).
    static func close(_ code: WebSocketErrorCode, reason: String?) -> OutboundFrame {
        var payload = ByteBuffer()
        payload.write(webSocketErrorCode: code)
        // A control frame's payload is at most 125 bytes (5.5); the server's reasons are short.
        if let reason { payload.writeBytes(reason.utf8.prefix(123)) }
        return OutboundFrame(firstByte: 0x88, payload: payload.readableBytesView)  // FIN + opcode 8
    }

    private init(firstByte: UInt8, payload: some Collection<UInt8>) {
        var bytes = ByteBuffer()
        bytes.reserveCapacity(payload.count + 10)
        bytes.writeInteger(firstByte)
        // RFC 6455 §5.2: 7-bit length, or 126 + 16-bit, or 127 + 64-bit; no mask from a server.
        switch payload.count {
        case ..<126:
            bytes.writeInteger(UInt8(payload.count))
        case ..<65_536:
            bytes.writeInteger(UInt8(126))
            bytes.writeInteger(UInt16(payload.count))
        default:
            bytes.writeInteger(UInt8(127))
            bytes.writeInteger(UInt64(payload.count))
        }
        bytes.writeBytes(payload)
        self.bytes = bytes
    }

    /// An empty ping (FIN + opcode 9, no payload).
    package static let ping = OutboundFrame(bytes: ByteBuffer(bytes: [0x89, 0x00]))

    private init(bytes: ByteBuffer) {
        self.bytes = bytes
    }

    /// The frame's payload as a buffer that shares the frame's storage (no copy).
    package var payloadBuffer: ByteBuffer {
        let header = bytes.readableBytes - payload.count
        return bytes.getSlice(at: bytes.readerIndex + header, length: bytes.readableBytes - header)!
    }

    /// The frame's payload: its bytes after the header.
    package var payload: ByteBufferView {
        let headerLength =
            switch bytes.getInteger(at: bytes.readerIndex + 1, as: UInt8.self) {
            case 126: 4
            case 127: 10
            default: 2
            }
        return bytes.readableBytesView.dropFirst(headerLength)
    }
}
