import BoardProtocol
import BoardStore
import Hummingbird
import NIOCore
import TimerBoardTransport

/// `GET /metrics`: the server's metrics in Prometheus's text format (version 0.0.4).
///
/// With an operator token (`--admin-token`) set, a scrape must present it as a bearer token;
/// without one the endpoint is open, like `/health`: it shows counts only, never a board id,
/// a name or a secret, and the server listens on loopback unless told otherwise.
struct MetricsRoutes {
    let metrics: ServerMetrics
    let registry: BoardRegistry
    let heartbeat: Heartbeat
    /// The store's connection pool, when it has one (PostgreSQL).
    let pool: (any StoreConnectionPool)?
    /// The other nodes this node hears; nil on a node of its own.
    let membership: ClusterMembership?
    /// The operator token, and how many wrong ones an address may try (shared with the
    /// operator's board routes).
    let operatorGuesses: OperatorGuesses
    let trustedProxies: TrustedProxies
    let clock: any ServerClock
    /// The store, for the length of the webhooks' outbox.
    let store: any BoardStore

    func addRoutes(to router: Router<TimerBoardRequestContext>) {
        router.get("/metrics") { request, context -> Response in
            if operatorGuesses.adminToken != nil {
                let address = ClientAddress.key(
                    peer: context.remoteAddress,
                    forwardedFor: request.headers[values: .xForwardedFor],
                    realIP: request.headers[.xRealIP],
                    trusted: trustedProxies
                )
                let verdict = operatorGuesses.check(request.bearerToken, address: address, now: clock.now())
                if case .tooMany(let wait) = verdict { return BoardsController.tooManyGuesses(wait) }
                guard verdict == .isOperator else {
                    // The error shape of every HTTP error (docs/protocol.md, "HTTP errors").
                    let body = ServerMessage.error(code: .forbidden, message: "/metrics needs the operator token (--admin-token) as a bearer token")
                    return Response(
                        status: .unauthorized,
                        headers: [.wwwAuthenticate: #"Bearer realm="timerboard""#, .contentType: "application/json; charset=utf-8"],
                        body: .init(byteBuffer: ByteBuffer(bytes: body.encoded()))
                    )
                }
            }
            // A store that cannot answer leaves the last figure: the scrape still answers.
            if let pending = try? await store.pendingDeliveryCount() { metrics.webhooksPending(pending) }
            var readings = ServerMetrics.Readings()
            readings.connections = heartbeat.connectionCount
            readings.liveBoards = await registry.liveRoomCount
            readings.timersRunning = await registry.runningTimerCount()
            readings.pool = pool
            readings.clusterNodes = await membership?.nodeCount ?? 1
            return Response(
                status: .ok,
                headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8", .cacheControl: "no-store"],
                body: .init(byteBuffer: ByteBuffer(bytes: metrics.collect(readings)))
            )
        }
    }
}
