import BoardProtocol
import Logging
import NIOCore
import NIOHTTP1
import TimerBoardTransport

/// Guards one TCP connection from accept to close, on its event loop only. It sits right after
/// NIO's HTTP request decoder, before hummingbird's upgrade handler, so it sees every request's
/// header before anything acts on it:
///
/// - every accepted connection takes a slot from the `ConnectionLimiter` (in all and per
///   `ClientAddress`) and gives it back when it closes, however it closes (the guard leaves the
///   pipeline then), unless a WebSocket's session took it over (`handOverSlot(of:)`).
///   A kept-alive connection is idle while it waits for its next request, and when its address
///   (or the server) is at its cap, the longest-idle one is closed to make room (`Evicted`);
///   with none idle (a connection not asked anything yet is not), the
///   newcomer's first request is answered `503` with `Retry-After` (or, past
///   `Settings.maxRefusing` such refusals at once, it is closed unanswered);
/// - a connection that has not sent a whole request header `headerTimeout` after it was
///   accepted is closed without an answer;
/// - a header over the decoder's size bound is answered `431` and the connection closed;
/// - a request must arrive whole (its body too) `requestTimeout` after its header, or it is
///   answered `408` (closed if its answer has begun) and the connection closed;
/// - a kept-alive connection ends `keepAliveLifetime` after it was accepted: at once if idle,
///   else after the answer in progress (`Connection: close`), so asking something every few
///   seconds does not keep it forever;
/// - behind a trusted proxy a WebSocket upgrade also counts against the client the proxy names;
/// - when the server stops (`ChannelShouldQuiesceEvent`), a connection that never sent a header
///   is closed at once, and an HTTP one is closed `shutdownGrace` later if still open.
///
/// Once a WebSocket upgrade is admitted it passes everything through, and leaves the pipeline
/// when the connection's session takes its slot: from there the connection
/// (`WebSocketConnection`) bounds its own close, and the heartbeat the shutdown. Idle kept-alive
/// HTTP connections are also closed by hummingbird's idle timeout.
final class ConnectionGuard: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart
    typealias OutboundIn = HTTPServerResponsePart
    typealias OutboundOut = HTTPServerResponsePart

    /// Seconds a refused connection is told to wait (`Retry-After`).
    static let retryAfterSeconds = 5

    enum Phase {
        /// No request header yet; hummingbird's upgrade handler waits for one.
        case awaitingHeader
        /// Over a cap: the first request header is answered `503` and the connection closed.
        case refusingAtHeader(HTTPRefusal, address: String?)
        /// Plain HTTP: requests whose response has not ended yet.
        case http(requestsInProgress: Int)
        /// Answering a refusal, then closing; the rest of the request is dropped.
        case refusing
        /// Upgrading to a WebSocket: everything passes through until the session takes the slot.
        case webSocket
    }

    let settings: Settings
    var phase = Phase.awaitingHeader
    /// The connection's slot, until its close gives it back or a session takes it over.
    private var slot: ConnectionSlot?
    /// Holds one of the places of connections waiting for a refusal (`Settings.beginRefusal`).
    private var holdsRefusalPlace = false
    /// A request's head was read and its end not yet.
    private var readingRequest = false
    /// The next response ends the connection (`Connection: close`).
    private var closeAfterResponse = false
    /// Over the caps with no place to wait for a refusal: closed as soon as it is active.
    private var closeWhenActive = false
    /// A response's head was written and its end not yet.
    private var responseInProgress = false
    /// The last response begun is an event stream (`text/event-stream`).
    private var answeringEventStream = false
    private var headerDeadline: Scheduled<Void>?
    private var requestDeadline: Scheduled<Void>?
    private var lifetimeDeadline: Scheduled<Void>?
    private var shutdownDeadline: Scheduled<Void>?

    init(settings: Settings) {
        self.settings = settings
    }

    func handlerAdded(context: ChannelHandlerContext) {
        let address = settings.acceptKey(peer: context.channel.remoteAddress)
        let admission = settings.limiter.open(from: address)
        if let id = admission.id {
            // Not idle yet: a connection that has not asked anything keeps its slot until its
            // header timeout, so a client opening several sockets at once never sees one cut.
            slot = ConnectionSlot(limiter: settings.limiter, id: id, address: address)
            lifetimeDeadline = context.eventLoop.assumeIsolated().scheduleTask(in: settings.keepAliveLifetime) {
                self.lifetimeDeadline = nil
                self.endKeepAlive(context)
            }
            if case .evicting = admission {
                settings.logger.debug("closing an address's longest-idle connection for a new one", metadata: ["tb.address": "\(address ?? "")"])
            }
        } else {
            var reason = HTTPRefusal.addressFull
            if case .serverFull = admission { reason = .serverFull }
            guard settings.beginRefusal() else {
                settings.refused(reason, "closing a connection over the caps at once: too many wait for a refusal", level: .debug, address: address)
                phase = .refusing
                closeWhenActive = true
                if context.channel.isActive { closeBeforeAnyRequest(context) }
                return
            }
            holdsRefusalPlace = true
            phase = .refusingAtHeader(reason, address: address)
        }
        headerDeadline = context.eventLoop.assumeIsolated().scheduleTask(in: settings.headerTimeout) {
            self.headerDeadline = nil
            switch self.phase {
            case .awaitingHeader, .refusingAtHeader: break
            default: return
            }
            self.settings.refused(.headerTimeout, "closing a connection that sent no whole request header in time", level: .debug)
            self.closeBeforeAnyRequest(context)
        }
    }

    func channelActive(context: ChannelHandlerContext) {
        context.fireChannelActive()
        if closeWhenActive { closeBeforeAnyRequest(context) }
    }

    /// On the connection's close (NIO removes every handler then), or when a session took the slot.
    func handlerRemoved(context: ChannelHandlerContext) {
        slot?.giveBack()
        slot = nil
        if holdsRefusalPlace { settings.endRefusal() }
        holdsRefusalPlace = false
        headerDeadline?.cancel()
        headerDeadline = nil
        requestDeadline?.cancel()
        requestDeadline = nil
        lifetimeDeadline?.cancel()
        lifetimeDeadline = nil
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
            switch unwrapInboundIn(data) {
            case .head:
                phase = .http(requestsInProgress: requestsInProgress + 1)
                readingRequest = true
                setBusy()
                startRequestDeadline(context)
            case .body:
                break
            case .end:
                readingRequest = false
                cancelRequestDeadline()
                if requestsInProgress == 0 { setIdle(context) }
            }
            context.fireChannelRead(data)
        case .refusingAtHeader(let reason, let address):
            guard case .head = unwrapInboundIn(data) else { return }
            cancelHeaderDeadline()
            refuseOverCap(context, reason, address: address)
        case .awaitingHeader:
            guard case .head(let head) = unwrapInboundIn(data) else { return context.fireChannelRead(data) }
            cancelHeaderDeadline()
            setBusy()
            guard Self.isWebSocketUpgrade(head) else {
                phase = .http(requestsInProgress: 1)
                readingRequest = true
                startRequestDeadline(context)
                guard let plain = WebSocketUpgradeChannel.servedAsHTTP(head) else { return context.fireChannelRead(data) }
                closeAfterResponse = true  // nothing after it is read
                return context.fireChannelRead(wrapInboundOut(.head(plain)))
            }
            if let slot, slot.address == nil {
                // From a trusted proxy: the socket counts against the client it names too.
                let client = ClientAddress.key(
                    peer: context.channel.remoteAddress,
                    forwardedFor: head.headers["X-Forwarded-For"],
                    realIP: head.headers.first(name: "X-Real-IP"),
                    trusted: settings.trustedProxies
                )
                guard settings.limiter.count(from: client) else { return refuseOverCap(context, .addressFull, address: client) }
                self.slot?.client = client
            }
            // From here the connection is a WebSocket's, with nothing left to guard but its
            // slot: the guard passes everything through until the session takes the slot.
            phase = .webSocket
            context.fireChannelRead(data)
        }
    }

    /// The slot of an upgraded connection, for its session to give back when the connection
    /// closes; the guard leaves the pipeline, so an idle WebSocket does not carry it
    /// (docs/performance.md). Nil without a guard or once taken. On the channel's event loop.
    static func handOverSlot(of channel: any Channel) -> ConnectionSlot? {
        let pipeline = channel.pipeline.syncOperations
        guard let connectionGuard = try? pipeline.handler(type: ConnectionGuard.self), case .webSocket = connectionGuard.phase else { return nil }
        let slot = connectionGuard.slot
        connectionGuard.slot = nil  // before leaving: its `handlerRemoved` would give it back
        pipeline.removeHandler(connectionGuard, promise: nil)
        return slot
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        // A request that is not HTTP/1.1 while no response is being written: answer it with the
        // error shape. Before the first request nobody else would (hummingbird's handler starts
        // after the upgrade handler has a head), and the connection would wait for its deadline.
        // A request cut off by the connection's end (`invalidEOFState`) has nobody left to answer.
        if let error = error as? HTTPParserError, error != .invalidEOFState, context.channel.isActive {
            switch phase {
            case .awaitingHeader, .http(requestsInProgress: 0):
                cancelHeaderDeadline()
                guard error != .headerOverflow else {
                    settings.refused(.headerTooLarge, "refusing a request whose header is too large", level: .debug)
                    return refuse(context, status: .requestHeaderFieldsTooLarge, code: .tooLarge, message: "the request header is too large")
                }
                settings.logger.debug("refusing a request that is not HTTP/1.1", metadata: ["tb.error": "\(error)"])
                return refuse(context, status: .badRequest, code: .badMessage, message: "the request is not valid HTTP/1.1 (\(error))")
            default:
                break
            }
        }
        context.fireErrorCaught(error)
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if event is Evicted { return endKeepAlive(context) }
        if answeringEventStream, let event = event as? ChannelEvent, event == .inputClosed {
            // An event stream's client sends nothing after its request, so its side closing means
            // it left: the stream would otherwise learn it at its next keep-alive write (15 s).
            context.fireUserInboundEventTriggered(event)
            return context.close(promise: nil)
        }
        guard event is ChannelShouldQuiesceEvent else { return context.fireUserInboundEventTriggered(event) }
        switch phase {
        case .awaitingHeader, .refusingAtHeader:
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

    /// The slot went to a newcomer while this connection was idle, or the connection has lived
    /// `keepAliveLifetime`: close it now, or after the answer to the request in progress.
    private func endKeepAlive(_ context: ChannelHandlerContext) {
        switch phase {
        case .awaitingHeader:
            closeBeforeAnyRequest(context)
        case .http(0) where !readingRequest:
            context.close(promise: nil)
        case .http:
            closeAfterResponse = true
        case .refusingAtHeader, .refusing, .webSocket:
            break
        }
    }

    // MARK: Outbound

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        guard case .http(let requestsInProgress) = phase else { return context.write(data, promise: promise) }
        let part = unwrapOutboundIn(data)
        if case .head(let head) = part {
            guard head.status.code >= 200 else { return context.write(data, promise: promise) }  // 100 Continue
            answeringEventStream = head.headers.first(name: "Content-Type")?.hasPrefix("text/event-stream") == true
        }
        switch part {
        case .head(var head) where closeAfterResponse:
            responseInProgress = true
            head.headers.replaceOrAdd(name: "Connection", value: "close")
            context.write(wrapOutboundOut(.head(head)), promise: promise)
        case .head:
            responseInProgress = true
            context.write(data, promise: promise)
        case .end where closeAfterResponse:
            responseInProgress = false
            phase = .http(requestsInProgress: max(requestsInProgress - 1, 0))
            context.writeAndFlush(data).assumeIsolated().whenComplete { result in
                promise?.completeWith(result)
                context.close(promise: nil)
            }
        case .end:
            responseInProgress = false
            phase = .http(requestsInProgress: max(requestsInProgress - 1, 0))
            if requestsInProgress <= 1, !readingRequest { setIdle(context) }
            context.write(data, promise: promise)
        default:
            context.write(data, promise: promise)
        }
    }

    // MARK: The slot

    private func setIdle(_ context: ChannelHandlerContext) {
        guard let slot else { return }
        settings.limiter.setIdle(id: slot.id, from: slot.address, channel: context.channel)
    }

    private func setBusy() {
        guard let slot else { return }
        settings.limiter.setBusy(id: slot.id, from: slot.address)
    }

    private func cancelHeaderDeadline() {
        headerDeadline?.cancel()
        headerDeadline = nil
    }

    // MARK: The request deadline

    private func startRequestDeadline(_ context: ChannelHandlerContext) {
        requestDeadline?.cancel()
        requestDeadline = context.eventLoop.assumeIsolated().scheduleTask(in: settings.requestTimeout) {
            self.requestDeadline = nil
            self.requestTimedOut(context)
        }
    }

    private func cancelRequestDeadline() {
        requestDeadline?.cancel()
        requestDeadline = nil
    }

    /// A request's body is still arriving `requestTimeout` after its header (dripped a byte at
    /// a time, say): `408` when nothing of its answer was written yet, and the connection closes.
    private func requestTimedOut(_ context: ChannelHandlerContext) {
        guard readingRequest, case .http(let requestsInProgress) = phase else { return }
        settings.refused(.requestTimeout, "closing a connection whose request did not arrive whole in time", level: .debug)
        guard requestsInProgress > 0, !responseInProgress else { return context.close(promise: nil) }
        refuse(context, status: .requestTimeout, code: .badMessage, message: "the request did not arrive whole in time")
    }
}
