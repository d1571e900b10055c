import BoardStore
import Logging
import ServiceLifecycle
import Synchronization
import UnixSignals

/// Whether this process wants new clients: yes until a graceful shutdown begins (SIGTERM),
/// no from then on. `/ready` answers from it.
public final class ServerReadiness: Sendable {
    private let draining = Atomic<Bool>(false)

    public init() {}

    /// True from the start of a graceful shutdown.
    public var isDraining: Bool { draining.load(ordering: .relaxed) }

    func startDraining() {
        draining.store(true, ordering: .relaxed)
    }
}

/// Placed last in the service group, so it is the first told of a graceful shutdown (a group
/// stops its services in reverse order, each after the one before has returned): it marks the
/// server draining, then waits `delay` while everything goes on serving, so a load balancer
/// polling `/ready` sees `503` and stops sending new clients before the listener closes.
struct DrainService: Service {
    let readiness: ServerReadiness
    let delay: Duration
    let logger: Logger

    func run() async throws {
        // Throws only when the group is cancelled, which ends this service all the same.
        try? await gracefulShutdown()
        readiness.startDraining()
        logger.notice(
            "draining: /ready answers 503 from now on",
            metadata: ["tb.drain.seconds": "\(delay.components.seconds)"]
        )
        if delay > .zero { try? await Task.sleep(for: delay) }
    }
}

/// Builds the server on the SQLite store in `configuration.dataDirectory` and runs it until
/// SIGTERM or SIGINT: then `/ready` answers `503` for `configuration.drainDelay`, and the
/// server stops as `buildApplication` describes (connections get `shutdownGrace`).
public func runServer(configuration: ServerConfiguration, logger: Logger) async throws {
    let readiness = ServerReadiness()
    let app: any Service
    if let location = configuration.store {
        logger.info("opening the shared store", metadata: ["tb.store": "\(location)"])
        let store = try await PostgresBoardStore(location: location, retainedChangesets: configuration.retainedChangesets, logger: logger)
        app = buildApplication(configuration: configuration, store: store, changeFeed: store, readiness: readiness, logger: logger)
    } else {
        app = try buildApplication(configuration: configuration, readiness: readiness, logger: logger)
    }
    let group = ServiceGroup(
        configuration: .init(
            services: [app, DrainService(readiness: readiness, delay: configuration.drainDelay, logger: logger)],
            gracefulShutdownSignals: [.sigterm, .sigint],
            logger: logger
        )
    )
    try await group.run()
}
