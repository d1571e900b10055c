import BoardCore
import BoardProtocol
import BoardStore
import Foundation
import Hummingbird
import HummingbirdWebSocket
import Logging
import NIOCore
import Synchronization
import TimerBoardTransport

/// Builds the whole server on the embedded default store: SQLite in the data directory.
public func buildApplication(
    configuration: ServerConfiguration,
    clock: any ServerClock = SystemClock(),
    readiness: ServerReadiness = ServerReadiness(),
    logger: Logger = Logger(label: "timerboard")
) throws -> some ApplicationProtocol {
    try FileManager.default.createDirectory(atPath: configuration.dataDirectory, withIntermediateDirectories: true)
    let store = try SQLiteBoardStore(path: configuration.databasePath, retainedChangesets: configuration.retainedChangesets)
    return buildApplication(configuration: configuration, store: store, clock: clock, readiness: readiness, logger: logger)
}

/// Builds the whole server on any store: registry, HTTP routes, WebSocket route.
public func buildApplication(
    configuration: ServerConfiguration,
    store: any BoardStore,
    changeFeed: (any BoardChangeFeed)? = nil,
    clock: any ServerClock = SystemClock(),
    readiness: ServerReadiness = ServerReadiness(),
    logger: Logger = Logger(label: "timerboard")
) -> some ApplicationProtocol {
    var configuration = configuration
    let metrics = ServerMetrics()
    configuration.metrics = metrics
    if let changeFeed {
        // A name for this process among the nodes, new at every start (a restarted node is a new one).
        let nodeID = String(UInt64.random(in: 0...UInt64.max), radix: 36)
        configuration.clusterPresence = ClusterPresence(nodeID: nodeID, feed: changeFeed)
        logger.info("serving as a node of a cluster", metadata: ["tb.node": "\(nodeID)"])
    }
    let registry = BoardRegistry(store: store, configuration: configuration, clock: clock, logger: logger)

    let heartbeat = Heartbeat(interval: configuration.heartbeatInterval, shutdownGrace: configuration.shutdownGrace) { closed in
        metrics.heartbeatClosed(closed)
    }
    let router = buildRouter(configuration: configuration, registry: registry, store: store, readiness: readiness, clock: clock, logger: logger)
    MetricsRoutes(metrics: metrics, registry: registry, heartbeat: heartbeat, adminToken: configuration.adminToken).addRoutes(to: router)
    let sessions = SessionFactory(configuration: configuration, registry: registry, heartbeat: heartbeat, clock: clock, logger: logger)
    return Application(
        router: router,
        server: .guardedHTTP1WebSocketUpgrade(
            http1: .init(
                idleTimeout: TimeAmount(configuration.idleTimeout),
                httpDecoderConfiguration: .init(
                    maxHeaderFieldSize: configuration.maxHeaderBytes,
                    maxHeaderListSize: configuration.maxHeaderBytes
                )
            ),
            maxFrameSize: configuration.maxFrameBytes,
            guardSettings: ConnectionGuard.Settings(configuration: configuration, logger: logger),
            accept: sessions.accept
        ),
        configuration: .init(address: .hostname(configuration.host, port: configuration.port), serverName: "TimerBoard"),
        // Shut down after the server (services stop in reverse order): the heartbeat then waits
        // for the WebSocket connections, which hold no task the server would wait for.
        services: [heartbeat] + (changeFeed.map { [ClusterFollower(feed: $0, registry: registry, logger: logger)] } ?? []),
        logger: logger
    )
}

func buildRouter(
    configuration: ServerConfiguration,
    registry: BoardRegistry,
    store: any BoardStore,
    readiness: ServerReadiness,
    clock: any ServerClock,
    logger: Logger
) -> Router<TimerBoardRequestContext> {
    let router = Router(context: TimerBoardRequestContext.self)
    router.add(middleware: SecurityHeadersMiddleware())
    router.add(middleware: OriginCheckMiddleware(policy: OriginPolicy(allowedOrigins: Set(configuration.allowedOrigins))))
    router.add(
        middleware: StaticFileMiddleware(
            webRoot: WebRoot(path: configuration.webRoot),
            maxFileBytes: configuration.maxStaticFileBytes,
            logger: logger
        )
    )
    HealthRoutes(registry: registry, store: store, readiness: readiness, storeTimeout: .seconds(2)).addRoutes(to: router)
    // A board's link opens the same single page as the start page.
    let indexPath = configuration.webRoot + "/index.html"
    router.get("/b/:id") { _, _ -> Response in
        guard let page = FileManager.default.contents(atPath: indexPath) else { throw HTTPError(.notFound) }
        return Response(status: .ok, headers: [.contentType: "text/html; charset=utf-8"], body: .init(byteBuffer: ByteBuffer(bytes: page)))
    }
    BoardsController(
        registry: registry,
        maxTitleLength: configuration.limits.board.maxTitleLength,
        adminToken: configuration.adminToken,
        creationLimiter: AddressRateLimiter(perMinute: configuration.boardsPerMinute, burst: Double(configuration.boardBurst)),
        trustedProxies: configuration.trustedProxies,
        clock: clock,
        logger: logger
    )
    .addRoutes(to: router.group("api/boards"))
    return router
}
