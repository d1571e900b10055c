import Foundation
import NIOCore
import NIOWebSocket
import Synchronization
import WebSocketDeflate

/// Reads a server's WebSocket frames straight from the socket's bytes and hands each message's
/// payload, as a slice, to the callback: no frame objects and no second handler per message.
/// At 300,000 messages per second on one core, NIO's frame decoder and a message handler behind
/// it were what bounded the load generator, not the servers it measures.
///
/// Servers send unmasked frames, and every server measured here sends whole (unfragmented)
/// messages. Answers pings; closes on a close frame.
final class ServerFrameReader: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = WebSocketFrame

    private let wireBytes: WireByteCounter
    private let ending: ConnectionEnding
    private let onMessage: @Sendable (ByteBuffer, UInt64) -> Void
    /// Bytes of a frame that has not fully arrived yet.
    private var partial: ByteBuffer?

    init(wireBytes: WireByteCounter, ending: ConnectionEnding, onMessage: @escaping @Sendable (ByteBuffer, UInt64) -> Void) {
        self.wireBytes = wireBytes
        self.ending = ending
        self.onMessage = onMessage
    }

    func channelInactive(context: ChannelHandlerContext) {
        ending.closedByServer(code: 1006)  // no close frame came first (RFC 6455's "abnormal closure")
        context.fireChannelInactive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        var bytes = unwrapInboundIn(data)
        if var partial = self.partial {
            self.partial = nil
            partial.writeBuffer(&bytes)
            bytes = partial
        }
        // Everything in one read arrived at the same moment.
        let arrivedAt = DispatchTime.now().uptimeNanoseconds
        while let frame = Self.nextFrame(in: &bytes) {
            handle(frame, arrivedAt: arrivedAt, context: context)
        }
        if bytes.readableBytes > 0 { partial = bytes }
    }

    private struct Frame {
        let opcode: UInt8
        let compressed: Bool
        let payload: ByteBuffer
    }

    /// The next whole frame in `bytes` (RFC 6455 §5.2), consuming it; nil until one is complete.
    private static func nextFrame(in bytes: inout ByteBuffer) -> Frame? {
        let start = bytes.readerIndex
        guard let first = bytes.getInteger(at: start, as: UInt8.self),
            let second = bytes.getInteger(at: start + 1, as: UInt8.self)
        else { return nil }
        var headerLength = 2
        var length = Int(second & 0x7F)
        if length == 126 {
            guard let extended = bytes.getInteger(at: start + 2, as: UInt16.self) else { return nil }
            length = Int(extended)
            headerLength = 4
        } else if length == 127 {
            guard let extended = bytes.getInteger(at: start + 2, as: UInt64.self) else { return nil }
            length = Int(extended)
            headerLength = 10
        }
        guard let payload = bytes.getSlice(at: start + headerLength, length: length) else { return nil }
        bytes.moveReaderIndex(forwardBy: headerLength + length)
        return Frame(opcode: first & 0x0F, compressed: first & 0x40 != 0, payload: payload)
    }

    private func handle(_ frame: Frame, arrivedAt: UInt64, context: ChannelHandlerContext) {
        switch frame.opcode {
        case 0x1, 0x2:  // text, binary
            wireBytes.count.add(frame.payload.readableBytes, ordering: .relaxed)
            guard frame.compressed else { return onMessage(frame.payload, arrivedAt) }
            // permessage-deflate: the server compresses whole messages with no context.
            let inflater = MessageInflater(limit: 1 << 26)
            guard let message = try? inflater.inflate(Array(frame.payload.readableBytesView), isLast: true) else {
                return context.close(promise: nil)
            }
            onMessage(ByteBuffer(bytes: message), arrivedAt)
        case 0x9:  // ping
            let pong = WebSocketFrame(fin: true, opcode: .pong, maskKey: .random(), data: frame.payload)
            context.writeAndFlush(wrapOutboundOut(pong), promise: nil)
        case 0x8:  // close: its first two bytes are the code, if any (1005: none)
            ending.closedByServer(code: frame.payload.getInteger(at: frame.payload.readerIndex, as: UInt16.self).map(Int.init) ?? 1005)
            context.close(promise: nil)
        default:
            break
        }
    }
}
