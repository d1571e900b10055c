import NIOCore
import NIOWebSocket

/// Cuts a client's bytes into WebSocket frames (RFC 6455 5.2), as they come from the socket.
///
/// The server reads frames itself instead of through NIO's decoder, whose handler, two buffers
/// and two pipeline slots an idle connection would hold for ever (docs/performance.md). It
/// keeps the bytes of an unfinished frame only, and none once every frame is out. What a frame
/// means (masking, RSV bits, opcodes, fragments) is the connection's to judge; this checks only
/// what decides where a frame ends and whether to wait for it: its length, and the whole and
/// short control frames of 5.5 (a peer could otherwise make the server wait for a long one).
struct ClientFrameReader {
    /// What `next` found.
    enum Next {
        case frame(WebSocketFrame)
        /// The bytes end inside a frame (or there are none): wait for more.
        case needsMoreBytes
        /// The frame declares a payload over `maxFrameSize` (RFC 6455 7.4.1: 1009).
        case tooLarge
        /// A fragmented control frame, or one over 125 bytes (5.5: 1002).
        case malformedControlFrame
    }

    /// The largest payload one frame may declare.
    let maxFrameSize: Int
    /// The bytes read and not yet cut into frames; nil when there are none.
    private var pending: ByteBuffer?

    init(maxFrameSize: Int) {
        self.maxFrameSize = maxFrameSize
    }

    /// How many bytes wait for the rest of their frame.
    var pendingByteCount: Int { pending?.readableBytes ?? 0 }

    /// Takes the next bytes read from the socket.
    mutating func append(_ bytes: ByteBuffer) {
        guard bytes.readableBytes > 0 else { return }
        if pending == nil {
            pending = bytes
        } else {
            pending!.writeImmutableBuffer(bytes)
        }
    }

    /// Forgets every byte not yet cut into frames (the connection stopped reading frames).
    mutating func discardPending() {
        pending = nil
    }

    /// The next whole frame, if the bytes hold one.
    mutating func next() -> Next {
        guard var bytes = pending else { return .needsMoreBytes }
        guard let first = bytes.readInteger(as: UInt8.self), let second = bytes.readInteger(as: UInt8.self) else {
            return .needsMoreBytes
        }
        let fin = first & 0x80 != 0
        let opcode = WebSocketOpcode(encodedWebSocketOpcode: first & 0x0F)!  // four bits: always one
        let isMasked = second & 0x80 != 0
        let length: UInt64
        switch second & 0x7F {
        case 126:
            guard let extended = bytes.readInteger(as: UInt16.self) else { return .needsMoreBytes }
            length = UInt64(extended)
        case 127:
            guard let extended = bytes.readInteger(as: UInt64.self) else { return .needsMoreBytes }
            length = extended
        case let short:
            length = UInt64(short)
        }
        if opcode.isControlOpcode, !fin || length > 125 { return .malformedControlFrame }
        guard length <= UInt64(maxFrameSize) else { return .tooLarge }
        var maskKey: WebSocketMaskingKey?
        if isMasked {
            guard bytes.readableBytes >= 4 else { return .needsMoreBytes }
            maskKey = WebSocketMaskingKey(bytes.readableBytesView.prefix(4))
            bytes.moveReaderIndex(forwardBy: 4)
        }
        // (`bytes` is a copy: while a frame is unfinished, `pending` keeps its header.)
        guard let payload = bytes.readSlice(length: Int(length)) else { return .needsMoreBytes }
        pending = bytes.readableBytes > 0 ? bytes : nil
        return .frame(
            WebSocketFrame(
                fin: fin,
                rsv1: first & 0x40 != 0,
                rsv2: first & 0x20 != 0,
                rsv3: first & 0x10 != 0,
                opcode: opcode,
                maskKey: maskKey,
                data: payload
            )
        )
    }
}
