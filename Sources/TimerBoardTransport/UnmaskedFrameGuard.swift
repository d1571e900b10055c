import NIOCore
import NIOWebSocket

/// Fails the connection (close 1002) on a client frame that is not masked, as RFC 6455 5.1
/// requires of a server. It sits right after NIO's frame decoder, the last place that still
/// knows whether a frame was masked: hummingbird hands the session unmasked payloads only.
///
/// It is added when the session starts, so frames decoded between the upgrade and that moment
/// are not checked; every later one is.
package final class UnmaskedFrameGuard: ChannelInboundHandler, RemovableChannelHandler {
    package typealias InboundIn = WebSocketFrame
    package typealias InboundOut = WebSocketFrame
    package typealias OutboundOut = WebSocketFrame

    private var hasFailed = false

    package func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !hasFailed else { return }
        let frame = unwrapInboundIn(data)
        guard frame.maskKey == nil else {
            context.fireChannelRead(data)
            return
        }
        hasFailed = true
        var payload = context.channel.allocator.buffer(capacity: 2)
        payload.write(webSocketErrorCode: .protocolError)
        let close = WebSocketFrame(fin: true, opcode: .connectionClose, data: payload)
        let context = context.loopBound
        context.value.writeAndFlush(wrapOutboundOut(close)).whenComplete { _ in
            context.value.close(promise: nil)
        }
    }

    /// Adds the guard right after the frame decoder of `channel`'s pipeline.
    package static func install(on channel: any Channel) async throws {
        try await channel.eventLoop.submit {
            let decoder = try channel.pipeline.syncOperations.handler(type: ByteToMessageHandler<WebSocketFrameDecoder>.self)
            try channel.pipeline.syncOperations.addHandler(UnmaskedFrameGuard(), position: .after(decoder))
        }.get()
    }
}
