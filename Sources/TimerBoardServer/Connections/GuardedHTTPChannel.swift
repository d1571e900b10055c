import BoardProtocol
import HTTPTypes
import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import NIOHTTP1
import TimerBoardTransport

/// An HTTP/1 channel with WebSocket upgrade, with a `ConnectionGuard` on every
/// connection right after the request decoder, and an `ExpectContinueHandler` after it.
struct GuardedHTTPChannel<Base: ServerChildChannel>: ServerChildChannel {
    typealias Value = Base.Value

    let base: Base
    let settings: ConnectionGuard.Settings

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        base.setup(channel: channel, logger: logger).flatMapThrowing { [settings] value in
            let pipeline = channel.pipeline.syncOperations
            let decoder = try pipeline.handler(type: ByteToMessageHandler<HTTPRequestDecoder>.self)
            let connectionGuard = ConnectionGuard(settings: settings)
            try pipeline.addHandler(connectionGuard, position: .after(decoder))
            let expectContinue = ExpectContinueHandler(largestBody: settings.largestRequestBody) {
                settings.refused(.bodyTooLarge, "refusing a request whose body is too large", level: .debug)
            }
            try pipeline.addHandler(expectContinue, position: .after(connectionGuard))
            return value
        }
    }

    func handle(value: Value, logger: Logger) async {
        await base.handle(value: value, logger: logger)
    }
}

extension HTTPServerBuilder {
    /// The answer to a request for a WebSocket the server does not upgrade, with the error
    /// shape as every HTTP error: another site's page or another path `403` (docs/protocol.md,
    /// "Origins"), a handshake that breaks RFC 6455 `426` (a version other than 13, named in
    /// `Sec-WebSocket-Version`) or `400` (its key).
    static func refusedUpgrade(_ reason: WebSocketUpgradeChannel.RefusalReason) -> WebSocketUpgradeChannel.Refusal {
        switch reason {
        case .notAccepted:
            refusal(.forbidden, .forbidden, "only GET /ws, from no page or a page of an allowed origin, opens the board socket")
        case .unsupportedVersion:
            refusal(
                .upgradeRequired, .badMessage, "this server speaks WebSocket version 13 (RFC 6455): send Sec-WebSocket-Version: 13",
                headers: [.secWebSocketVersion: "13", .upgrade: "websocket", .connection: "upgrade"]
            )
        case .badKey:
            refusal(.badRequest, .badMessage, "a WebSocket upgrade needs one Sec-WebSocket-Key: 16 random bytes in base64")
        }
    }

    private static func refusal(
        _ status: HTTPResponse.Status,
        _ code: ErrorCode,
        _ message: String,
        headers: HTTPFields = [:]
    ) -> WebSocketUpgradeChannel.Refusal {
        .init(status: status, headers: headers, body: ServerMessage.error(code: code, message: message).encoded())
    }

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
