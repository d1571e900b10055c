import BoardProtocol
import Logging
import NIOCore
import NIOHTTP1

extension ConnectionGuard {
    /// Answers a request over a cap `503` with `Retry-After`, and closes.
    func refuseOverCap(_ context: ChannelHandlerContext, _ reason: HTTPRefusal, address: String?) {
        if reason == .serverFull {
            settings.refused(.serverFull, "refusing a connection: the server has its most connections", level: .notice, address: address)
            refuse(context, status: .serviceUnavailable, code: .tooManyConnections, message: "the server has too many connections; try again later")
        } else {
            settings.refused(.addressFull, "refusing a connection: its address has its most connections", level: .notice, address: address)
            refuse(context, status: .serviceUnavailable, code: .tooManyConnections, message: "too many connections from this address; try again later")
        }
    }

    /// Answers with the protocol's error shape and closes the connection once it is written.
    func refuse(_ context: ChannelHandlerContext, status: HTTPResponseStatus, code: ErrorCode, message: String) {
        let beforeAnyRequest: Bool
        switch phase {
        case .awaitingHeader, .refusingAtHeader: beforeAnyRequest = true
        default: beforeAnyRequest = false
        }
        phase = .refusing
        let body = ServerMessage.error(code: code, message: message).encoded()
        var headers = HTTPHeaders([
            ("Content-Type", "application/json; charset=utf-8"),
            ("Content-Length", "\(body.count)"),
            ("Connection", "close"),
            ("X-Content-Type-Options", "nosniff"),
        ])
        if status == .serviceUnavailable { headers.add(name: "Retry-After", value: "\(Self.retryAfterSeconds)") }
        context.write(wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: status, headers: headers))), promise: nil)
        context.write(wrapOutboundOut(.body(.byteBuffer(context.channel.allocator.buffer(bytes: body)))), promise: nil)
        context.writeAndFlush(wrapOutboundOut(.end(nil))).assumeIsolated().whenComplete { _ in
            if beforeAnyRequest {
                self.closeBeforeAnyRequest(context)
            } else {
                context.close(promise: nil)
            }
        }
    }

    /// Closes a connection whose first request never reached hummingbird's upgrade handler. It
    /// is told the input ended first: it then closes and ends the connection's wait quietly,
    /// where a plain close would be logged as an error.
    func closeBeforeAnyRequest(_ context: ChannelHandlerContext) {
        context.fireUserInboundEventTriggered(ChannelEvent.inputClosed)
        context.close(promise: nil)
    }

    /// Whether a request asks for a WebSocket (`Upgrade: websocket`, in any case).
    static func isWebSocketUpgrade(_ head: HTTPRequestHead) -> Bool {
        head.headers[canonicalForm: "upgrade"].contains { $0.lowercased() == "websocket" }
    }
}
