import Crypto
import Foundation
import NIOCore
import NIOHTTP1
import NIOWebSocket

/// The server's side of the WebSocket opening handshake (RFC 6455 4.2), for NIO's HTTP upgrade
/// handler. Unlike NIO's own upgrader it adds no frame encoder or decoder to the channel: the
/// connection reads and writes frames itself (`WebSocketConnection`), so an idle connection
/// holds one handler instead of three.
struct WebSocketServerUpgrader<UpgradeResult: Sendable>: NIOTypedHTTPServerProtocolUpgrader {
    /// The handshake's fixed GUID (4.2.2).
    private static var acceptGUID: String { "258EAFA5-E914-47DA-95CA-C5AB0DC85B11" }

    let supportedProtocol = "websocket"
    /// None that NIO should check: the key and version are checked here, as headers of the
    /// request rather than names in its `Connection` header.
    let requiredUpgradeHeaders: [String] = []

    /// Told why a handshake that breaks RFC 6455 is refused, before NIO hears of the failure
    /// (which it takes as no upgrade at all).
    let refuseHandshake: @Sendable (WebSocketUpgradeChannel.RefusalReason) -> Void
    /// Whether the request gets a WebSocket: the headers to add to the 101, or nil to refuse.
    let shouldUpgrade: @Sendable (any Channel, HTTPRequestHead) -> EventLoopFuture<HTTPHeaders?>
    /// Installs the connection's handlers once the 101 is written.
    let upgradePipelineHandler: @Sendable (any Channel, HTTPRequestHead) -> EventLoopFuture<UpgradeResult>

    func buildUpgradeResponse(
        channel: any Channel,
        upgradeRequest: HTTPRequestHead,
        initialResponseHeaders: HTTPHeaders
    ) -> EventLoopFuture<HTTPHeaders> {
        // Version 13 and one key of 16 bytes (4.2.1); a failed future makes NIO treat it as no upgrade.
        guard upgradeRequest.headers["Sec-WebSocket-Version"] == ["13"] else {
            refuseHandshake(.unsupportedVersion)
            return channel.eventLoop.makeFailedFuture(NIOWebSocketUpgradeError.invalidUpgradeHeader)
        }
        let keys = upgradeRequest.headers["Sec-WebSocket-Key"]
        guard keys.count == 1, let key = keys.first, Self.isValidKey(key) else {
            refuseHandshake(.badKey)
            return channel.eventLoop.makeFailedFuture(NIOWebSocketUpgradeError.invalidUpgradeHeader)
        }
        return shouldUpgrade(channel, upgradeRequest).flatMapThrowing { extraHeaders in
            guard var headers = extraHeaders else { throw NIOWebSocketUpgradeError.unsupportedWebSocketTarget }
            headers.replaceOrAdd(name: "Upgrade", value: "websocket")
            headers.add(name: "Sec-WebSocket-Accept", value: Self.accept(key: key))
            headers.replaceOrAdd(name: "Connection", value: "upgrade")
            return headers
        }
    }

    func upgrade(channel: any Channel, upgradeRequest: HTTPRequestHead) -> EventLoopFuture<UpgradeResult> {
        upgradePipelineHandler(channel, upgradeRequest)
    }

    /// A key is 16 random bytes in base64 (4.1): 24 characters, the last two `==`.
    static func isValidKey(_ key: String) -> Bool {
        key.utf8.count == 24 && Data(base64Encoded: key)?.count == 16
    }

    /// `Sec-WebSocket-Accept` for a request's key: base64 of the SHA-1 of the key and the GUID.
    static func accept(key: String) -> String {
        Data(Insecure.SHA1.hash(data: Data((key + acceptGUID).utf8))).base64EncodedString()
    }
}
