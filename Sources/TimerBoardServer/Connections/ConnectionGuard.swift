import BoardProtocol
import Logging
import NIOCore
import NIOHTTP1

/// Guards one TCP connection from accept to close, on its event loop only. It sits right after
/// NIO's HTTP request decoder, before hummingbird's upgrade handler, so it sees the first
/// request's header before anything acts on it:
///
/// - a connection that has not sent a whole request header `headerTimeout` after it was
///   accepted is closed without an answer;
/// - a header over the decoder's size bound is answered `431` and the connection closed;
/// - a WebSocket upgrade takes a slot from the `ConnectionLimiter` (in all and per
///   `ClientAddress`), or is answered `503` with `Retry-After` when there is none; the slot is
///   given back when the connection closes, however it closes (its close future);
/// - when the server stops (`ChannelShouldQuiesceEvent`), a connection that never sent a header
///   is closed at once, and an HTTP one is closed `shutdownGrace` later if still open.
///
/// It leaves the pipeline once a WebSocket upgrade is admitted: from there the connection
/// (`WebSocketConnection`) bounds its own close, and the heartbeat the shutdown. Kept-alive
/// HTTP connections are bounded by hummingbird's idle timeout.
final class ConnectionGuard: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart
    typealias OutboundIn = HTTPServerResponsePart
    typealias OutboundOut = HTTPServerResponsePart

    /// What every connection's guard shares: one object, so a guard holds one reference.
    final class Settings: Sendable {
        let limiter: ConnectionLimiter
        let headerTimeout: TimeAmount
        let shutdownGrace: TimeAmount
        let trustedProxies: TrustedProxies
        let metrics: ServerMetrics
        let logger: Logger

        init(configuration: ServerConfiguration, metrics: ServerMetrics = .detached, logger: Logger) {
            limiter = ConnectionLimiter(maxTotal: configuration.maxConnections, maxPerAddress: configuration.maxConnectionsPerAddress)
            headerTimeout = TimeAmount(configuration.headerTimeout)
            shutdownGrace = TimeAmount(configuration.shutdownGrace)
            trustedProxies = configuration.trustedProxies
            self.metrics = metrics
            self.logger = logger
        }

        /// Counts a refusal and logs it (`connection.refused`, docs/architecture.md, "Logs").
        func refused(_ reason: HTTPRefusal, _ message: Logger.Message, level: Logger.Level, address: String? = nil) {
            metrics.refused(reason)
            var metadata: Logger.Metadata = ["tb.event": "connection.refused", "tb.refusal": "\(reason.rawValue)"]
            if let address { metadata["tb.address"] = "\(address)" }
            logger.log(level: level, message, metadata: metadata)
        }
    }

    /// Seconds a refused upgrade is told to wait (`Retry-After`).
    static let retryAfterSeconds = 5

    private enum Phase {
        /// No request header yet; hummingbird's upgrade handler waits for one.
        case awaitingHeader
        /// Plain HTTP: requests whose response has not ended yet.
        case http(requestsInProgress: Int)
        /// Answering a refusal, then closing; the rest of the request is dropped.
        case refusing
        /// Upgrading to a WebSocket: the guard is on its way out of the pipeline.
        case webSocket
    }

    private let settings: Settings
    private var phase = Phase.awaitingHeader
    private var headerDeadline: Scheduled<Void>?
    private var shutdownDeadline: Scheduled<Void>?

    init(settings: Settings) {
        self.settings = settings
    }

    func handlerAdded(context: ChannelHandlerContext) {
        headerDeadline = context.eventLoop.assumeIsolated().scheduleTask(in: settings.headerTimeout) {
            self.headerDeadline = nil
            guard case .awaitingHeader = self.phase else { return }
            self.settings.refused(.headerTimeout, "closing a connection that sent no whole request header in time", level: .debug)
            self.closeBeforeAnyRequest(context)
        }
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        headerDeadline?.cancel()
        headerDeadline = nil
        shutdownDeadline?.cancel()
        shutdownDeadline = nil
    }

    // MARK: Inbound

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch phase {
        case .webSocket:
            context.fireChannelRead(data)
        case .refusing:
            break
        case .http(let requestsInProgress):
            if case .head = unwrapInboundIn(data) { phase = .http(requestsInProgress: requestsInProgress + 1) }
            context.fireChannelRead(data)
        case .awaitingHeader:
            guard case .head(let head) = unwrapInboundIn(data) else { return context.fireChannelRead(data) }
            headerDeadline?.cancel()
            headerDeadline = nil
            guard Self.isWebSocketUpgrade(head) else {
                phase = .http(requestsInProgress: 1)
                return context.fireChannelRead(data)
            }
            let address = ClientAddress.key(
                peer: context.channel.remoteAddress,
                forwardedFor: head.headers["X-Forwarded-For"],
                realIP: head.headers.first(name: "X-Real-IP"),
                trusted: settings.trustedProxies
            )
            switch settings.limiter.open(from: address) {
            case .admitted:
                phase = .webSocket
                // From here the connection is a WebSocket's, with nothing left to guard but its
                // slot, which its close gives back: the guard leaves the pipeline, so an idle
                // connection does not carry it (docs/performance.md).
                let limiter = settings.limiter
                context.channel.closeFuture.whenComplete { _ in limiter.close(from: address) }
                context.fireChannelRead(data)
                context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
            case .serverFull:
                settings.refused(.serverFull, "refusing a WebSocket: the server has its most connections", level: .notice, address: address)
                refuse(context, status: .serviceUnavailable, code: .unavailable, message: "the server has too many connections; try again later")
            case .addressFull:
                settings.refused(.addressFull, "refusing a WebSocket: its address has its most connections", level: .notice, address: address)
                refuse(context, status: .serviceUnavailable, code: .unavailable, message: "too many connections from this address; try again later")
            }
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        // A header over the decoder's bound, while no response is being written: answer it. Any
        // other case goes on to hummingbird, which answers 400 and closes.
        if let error = error as? HTTPParserError, error == .headerOverflow {
            switch phase {
            case .awaitingHeader, .http(requestsInProgress: 0):
                headerDeadline?.cancel()
                headerDeadline = nil
                settings.refused(.headerTooLarge, "refusing a request whose header is too large", level: .debug)
                return refuse(context, status: .requestHeaderFieldsTooLarge, code: .tooLarge, message: "the request header is too large")
            default:
                break
            }
        }
        context.fireErrorCaught(error)
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        guard event is ChannelShouldQuiesceEvent else { return context.fireUserInboundEventTriggered(event) }
        switch phase {
        case .awaitingHeader:
            // Nothing was asked, so nothing is lost.
            closeBeforeAnyRequest(context)
        case .refusing:
            break
        case .http, .webSocket:
            // Hummingbird closes idle HTTP connections, finishes requests in progress and sends
            // WebSockets a close; whatever is still open when the grace ends is closed here.
            if shutdownDeadline == nil {
                shutdownDeadline = context.eventLoop.assumeIsolated().scheduleTask(in: settings.shutdownGrace) {
                    self.shutdownDeadline = nil
                    self.settings.logger.notice("closing a connection still open when the shutdown grace ended")
                    context.close(promise: nil)
                }
            }
            context.fireUserInboundEventTriggered(event)
        }
    }

    // MARK: Outbound

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if case .http(let requestsInProgress) = phase, case .end = unwrapOutboundIn(data) {
            phase = .http(requestsInProgress: max(requestsInProgress - 1, 0))
        }
        context.write(data, promise: promise)
    }

    // MARK: Answers

    /// Answers with the protocol's error shape and closes the connection once it is written.
    private func refuse(_ context: ChannelHandlerContext, status: HTTPResponseStatus, code: ErrorCode, message: String) {
        let beforeAnyRequest: Bool
        if case .awaitingHeader = phase { beforeAnyRequest = true } else { beforeAnyRequest = false }
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
    private func closeBeforeAnyRequest(_ context: ChannelHandlerContext) {
        context.fireUserInboundEventTriggered(ChannelEvent.inputClosed)
        context.close(promise: nil)
    }

    /// Whether a request asks for a WebSocket (`Upgrade: websocket`, in any case).
    private static func isWebSocketUpgrade(_ head: HTTPRequestHead) -> Bool {
        head.headers[canonicalForm: "upgrade"].contains { $0.lowercased() == "websocket" }
    }
}
