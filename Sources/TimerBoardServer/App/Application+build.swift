import BoardCore
import BoardProtocol
import BoardStore
import Foundation
import Hummingbird
import Logging
import NIOCore
import ServiceLifecycle
import TimerBoardTransport

/// The server, assembled: the one folder that names all the others. `runServer` runs it with
/// its store; tests run `application` alone.
struct AssembledServer<App: ApplicationProtocol> {
    let application: App
    let registry: BoardRegistry
    /// The node's ear on the other nodes, and its voice among them; nil on a server of one node.
    let follower: ClusterFollower?
    let membership: ClusterMembership?
    /// Whether the store answers, checked every 2 s as a service.
    let storeWatch: StoreWatch
}

/// Builds the whole server on the embedded default store, SQLite in the data directory.
public func buildApplication(
    configuration: ServerConfiguration,
    clock: any ServerClock = SystemClock(),
    readiness: ServerReadiness = ServerReadiness(),
    logger: Logger = Logger(label: "timerboard")
) throws -> some ApplicationProtocol {
    let files = DatabaseFiles(directory: configuration.dataDirectory)
    try files.prepare()
    let store = try SQLiteBoardStore(
        path: files.database,
        retainedChangesets: configuration.retainedChangesets,
        loadBytes: configuration.retainedChangesetBytes
    )
    return assemble(configuration: configuration, store: store, storeName: files.database, clock: clock, readiness: readiness, logger: logger)
        .application
}

/// Builds the whole server on `store`: the rooms, the HTTP routes, the WebSocket route and, when
/// the store is shared by several nodes, what links this node to the others.
func assemble(
    configuration: ServerConfiguration,
    store: any BoardStore,
    storeName: String,
    clock: any ServerClock,
    readiness: ServerReadiness,
    logger: Logger,
    onServerRunning: @escaping @Sendable (any Channel) async -> Void = { _ in }
) -> AssembledServer<some ApplicationProtocol> {
    var configuration = configuration
    let files = OpenFileLimit.current
    let connectionCap = OpenFileLimit.connectionCap(configured: configuration.maxConnections, softLimit: files)
    if connectionCap < configuration.maxConnections, let files {
        logger.notice(
            "fewer connections than --max-connections: the process may open only \(files) files; raise its limit (ulimit -Hn, LimitNOFILE) for more",
            metadata: ["tb.connections.max": "\(connectionCap)"]
        )
        configuration.maxConnections = connectionCap
    }
    let metrics = ServerMetrics(maxConnections: configuration.maxConnections)
    let storeWatch = StoreWatch(store: store, storeName: storeName, metrics: metrics, logger: logger)
    var otherNodes: ClusterPresence?
    var membership: ClusterMembership?
    if let feed = store as? any BoardChangeFeed {
        // A name for this process among the nodes, new at every start (a restarted node is a new one).
        let nodeID = String(UInt64.random(in: 0...UInt64.max), radix: 36)
        otherNodes = ClusterPresence(
            nodeID: nodeID,
            feed: feed,
            announceInterval: configuration.clusterAnnounceInterval,
            silenceLimit: configuration.clusterSilenceLimit.milliseconds,
            timekeeperGrace: configuration.timekeeperGrace.milliseconds,
            logger: logger
        )
        membership = ClusterMembership(
            nodeID: nodeID,
            feed: feed,
            announceInterval: configuration.clusterAnnounceInterval,
            silenceLimit: configuration.clusterSilenceLimit.milliseconds,
            clock: clock,
            logger: logger
        )
        logger.info("serving as a node of a cluster", metadata: ["tb.node": "\(nodeID)"])
    }
    let webhookOutbox = WebhookOutbox(store: store, logger: logger)
    let registry = BoardRegistry(
        context: RoomContext(
            store: store,
            configuration: configuration,
            clock: clock,
            metrics: metrics,
            otherNodes: otherNodes,
            webhooks: webhookOutbox,
            logger: logger
        )
    )
    let dispatcher = WebhookDispatcher(
        store: store,
        outbox: webhookOutbox,
        registry: registry,
        settings: WebhookDispatcher.Settings(configuration),
        clock: clock,
        metrics: metrics,
        logger: logger
    )
    let heartbeat = Heartbeat(interval: configuration.heartbeatInterval, shutdownGrace: configuration.shutdownGrace) { closed in
        metrics.heartbeatClosed(closed)
    }
    let router = Router(context: TimerBoardRequestContext.self)
    router.add(middleware: SecurityHeadersMiddleware())
    router.add(middleware: ErrorShapeMiddleware())
    router.add(middleware: OriginCheckMiddleware(policy: OriginPolicy(allowedOrigins: Set(configuration.allowedOrigins))))
    router.add(
        middleware: StaticFileMiddleware(webRoot: WebRoot(path: configuration.webRoot), maxFileBytes: configuration.maxStaticFileBytes, logger: logger)
    )
    HealthRoutes(registry: registry, storeWatch: storeWatch, readiness: readiness).addRoutes(to: router)
    let operatorGuesses = OperatorGuesses(
        adminToken: configuration.adminToken,
        perMinute: configuration.operatorGuessesPerMinute,
        burst: configuration.operatorGuessBurst
    )
    MetricsRoutes(
        metrics: metrics,
        registry: registry,
        heartbeat: heartbeat,
        pool: store as? any StoreConnectionPool,
        membership: membership,
        operatorGuesses: operatorGuesses,
        trustedProxies: configuration.trustedProxies,
        clock: clock,
        store: store
    )
    .addRoutes(to: router)
    PageRoutes(webRoot: configuration.webRoot).addRoutes(to: router)
    SocketPathRoute().addRoutes(to: router)
    let boards = BoardsController(
        registry: registry,
        maxTitleLength: configuration.limits.board.maxTitleLength,
        adminToken: configuration.adminToken,
        operatorGuesses: operatorGuesses,
        creationLimiter: AddressRateLimiter(perMinute: configuration.boardsPerMinute, burst: Double(configuration.boardBurst)),
        trustedProxies: configuration.trustedProxies,
        clock: clock,
        metrics: metrics,
        storeTimeout: configuration.storeTimeout,
        logger: logger
    )
    boards.addRoutes(to: router.group("api/boards"))
    // One budget per address for the edits and joins of all its sockets and HTTP edits
    // together, and one per board for its edits.
    let editBudgets = SharedEditBudgets(
        addressEditsPerSecond: configuration.addressEditsPerSecond,
        addressBurst: configuration.addressEditBurst,
        boardEditsPerSecond: configuration.boardEditsPerSecond,
        boardBurst: configuration.boardEditBurst
    )
    EditRoutes(
        boards: boards,
        limits: configuration.limits,
        editLimiter: AddressRateLimiter(perMinute: configuration.editsPerSecond * 60, burst: Double(configuration.editBurst)),
        editBudgets: editBudgets,
        trustedProxies: configuration.trustedProxies,
        clock: clock
    )
    .addRoutes(to: router.group("api/boards"))
    HistoryRoutes(
        boards: boards,
        store: store,
        readLimiter: AddressRateLimiter(perMinute: configuration.historyReadsPerMinute, burst: Double(configuration.historyReadBurst)),
        trustedProxies: configuration.trustedProxies,
        clock: clock,
        retainedChangesets: configuration.retainedChangesets
    )
    .addRoutes(to: router.group("api/boards"))
    WebhookRoutes(
        boards: boards,
        store: store,
        registrationLimiter: AddressRateLimiter(perMinute: configuration.webhooksPerMinute, burst: Double(configuration.webhookBurst)),
        trustedProxies: configuration.trustedProxies,
        allowPrivate: configuration.allowPrivateWebhooks,
        perBoard: configuration.webhooksPerBoard,
        clock: clock
    )
    .addRoutes(to: router.group("api/boards"))
    let guardSettings = ConnectionGuard.Settings(
        configuration: configuration,
        largestRequestBody: max(configuration.limits.maxMessageBytes, BoardsController.maxBodyBytes, WebhookRoutes.maxBodyBytes),
        metrics: metrics,
        logger: logger
    )
    let connectionCounter = ConnectionCounter()
    EventStreamRoutes(
        boards: boards,
        registry: registry,
        connections: guardSettings.limiter,
        connectionCounter: connectionCounter,
        tickets: EventStreamTickets(),
        queueLimit: configuration.outboundQueueLimit,
        queueBytes: configuration.outboundQueueMebibytes << 20,
        keepAliveInterval: configuration.heartbeatInterval / 2,
        clock: clock,
        logger: logger
    )
    .addRoutes(to: router.group("api/boards"))
    let sessions = SessionFactory(
        configuration: configuration,
        metrics: metrics,
        editBudgets: editBudgets,
        registry: registry,
        heartbeat: heartbeat,
        connectionCounter: connectionCounter,
        clock: clock,
        logger: logger
    )
    var services: [any Service] = [heartbeat, dispatcher]
    if let interval = configuration.heapTrimInterval { services.append(HeapTrimmer(interval: interval, metrics: metrics)) }
    let application = Application(
        responder: HeadRequestResponder(base: router.buildResponder()),
        server: .guardedHTTP1WebSocketUpgrade(
            http1: .init(
                idleTimeout: TimeAmount(configuration.idleTimeout),
                httpDecoderConfiguration: .init(maxHeaderFieldSize: configuration.maxHeaderBytes, maxHeaderListSize: configuration.maxHeaderBytes)
            ),
            guardSettings: guardSettings,
            accept: sessions.accept
        ),
        // A reconnect storm (a node restarted, 10,000 screens coming back at once) waits in the
        // kernel's queue while the loops accept: 256, hummingbird's default, overflowed, and the
        // kernel dropped the rest. The kernel caps it at net.core.somaxconn (4,096 on Linux 5.4+).
        configuration: .init(address: .hostname(configuration.host, port: configuration.port), serverName: "TimerBoard", backlog: 4_096),
        // Shut down after the server (services stop in reverse order): the webhooks' dispatcher
        // claims nothing more and finishes its sends, then the heartbeat waits for the WebSocket
        // connections, which hold no task the server would wait for. Both stop before the store.
        services: services,
        onServerRunning: onServerRunning,
        logger: logger
    )
    var follower: ClusterFollower?
    if let otherNodes, let membership {
        follower = ClusterFollower(feed: otherNodes.feed, presence: otherNodes, membership: membership, registry: registry, logger: logger)
    }
    return AssembledServer(application: application, registry: registry, follower: follower, membership: membership, storeWatch: storeWatch)
}

extension WebhookDispatcher.Settings {
    /// The dispatcher's values from the server's configuration.
    init(_ configuration: ServerConfiguration) {
        self.init(
            policy: WebhookRetryPolicy(
                schedule: configuration.webhookRetrySchedule.map(\.milliseconds),
                disableAfter: configuration.webhookDisableAfter.milliseconds
            ),
            allowPrivate: configuration.allowPrivateWebhooks,
            connectTimeout: configuration.webhookConnectTimeout,
            timeout: configuration.webhookTimeout,
            concurrency: configuration.webhookConcurrency
        )
    }
}
