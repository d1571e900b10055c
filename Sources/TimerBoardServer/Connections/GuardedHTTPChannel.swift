import BoardProtocol
import HTTPTypes
import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import NIOHTTP1
import TimerBoardTransport

/// An HTTP/1 channel with WebSocket upgrade, with a `ConnectionGuard` on every
/// connection right after the request decoder.
struct GuardedHTTPChannel<Base: ServerChildChannel>: ServerChildChannel {
    typealias Value = Base.Value

    let base: Base
    let settings: ConnectionGuard.Settings

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        base.setup(channel: channel, logger: logger).flatMapThrowing { [settings] value in
            let pipeline = channel.pipeline.syncOperations
            let decoder = try pipeline.handler(type: ByteToMessageHandler<HTTPRequestDecoder>.self)
            try pipeline.addHandler(ConnectionGuard(settings: settings), position: .after(decoder))
            return value
        }
    }

    func handle(value: Value, logger: Logger) async {
        await base.handle(value: value, logger: logger)
    }
}

extension HTTPServerBuilder {
    /// A request for a WebSocket the server does not upgrade (another site's page, another
    /// path): `403` with the error shape, as every HTTP error (docs/protocol.md, "Origins").
    static let refusedUpgrade = WebSocketUpgradeChannel.Refusal(
        status: .forbidden,
        body: ServerMessage.error(
            code: .forbidden,
            message: "only GET /ws, from no page or a page of an allowed origin, opens the board socket"
        ).encoded()
    )

    /// Hummingbird's HTTP/1 with our WebSocket connections after an upgrade
    /// (`WebSocketUpgradeChannel`), and a `ConnectionGuard` on every connection.
    static func guardedHTTP1WebSocketUpgrade(
        http1: HTTP1Channel.Configuration,
        guardSettings: ConnectionGuard.Settings,
        accept: @escaping @Sendable (HTTPRequest, any Channel) -> WebSocketUpgradeChannel.Acceptance?
    ) -> HTTPServerBuilder {
        .init { responder in
            GuardedHTTPChannel(
                base: WebSocketUpgradeChannel(
                    responder: responder,
                    http1: http1,
                    refusal: refusedUpgrade,
                    accept: accept
                ),
                settings: guardSettings
            )
        }
    }
}
