import NIOCore
import NIOWebSocket

/// Fails the connection (close 1002) on client frames RFC 6455 forbids a server to accept: a
/// frame that is not masked (5.1), a continuation frame with no message started, and a new
/// text or binary frame inside a fragmented message (5.4). Control frames may come between
/// fragments. It sits right after NIO's frame decoder, the last place that still knows whether a
/// frame was masked (hummingbird hands the session unmasked payloads only), and it answers on
/// the event loop, so the session's task never waits on a close.
///
/// It is added with the connection's writer (`Outbound.attach`) when the session starts, so
/// frames decoded between the upgrade and that moment are not checked here; `InboundMessages`
/// still refuses a fragmentation error among those.
final class FrameRulesGuard: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = WebSocketFrame
    typealias InboundOut = WebSocketFrame
    typealias OutboundOut = WebSocketFrame

    private var isInMessage = false
    private var hasFailed = false

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !hasFailed else { return }
        let frame = unwrapInboundIn(data)
        guard frame.maskKey != nil else { return fail(context) }
        switch frame.opcode {
        case .continuation:
            guard isInMessage else { return fail(context) }
            isInMessage = !frame.fin
        case .text, .binary:
            guard !isInMessage else { return fail(context) }
            isInMessage = !frame.fin
        default:
            break
        }
        context.fireChannelRead(data)
    }

    private func fail(_ context: ChannelHandlerContext) {
        hasFailed = true
        var payload = context.channel.allocator.buffer(capacity: 2)
        payload.write(webSocketErrorCode: .protocolError)
        let close = WebSocketFrame(fin: true, opcode: .connectionClose, data: payload)
        let context = context.loopBound
        context.value.writeAndFlush(wrapOutboundOut(close)).whenComplete { _ in
            context.value.close(promise: nil)
        }
    }

    /// Adds the guard right after the frame decoder of a WebSocket pipeline; on its event loop.
    static func add(to pipeline: ChannelPipeline.SynchronousOperations) throws {
        let decoder = try pipeline.handler(type: ByteToMessageHandler<WebSocketFrameDecoder>.self)
        try pipeline.addHandler(FrameRulesGuard(), position: .after(decoder))
    }
}
