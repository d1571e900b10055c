import Logging
import ServiceLifecycle
import UnixSignals

/// Runs the server on the store the configuration chooses until SIGTERM or SIGINT. Then, in
/// this order (a service group stops its services in reverse): `/ready` answers `503` for
/// `drainDelay` while everything serves; the listener closes and connections get
/// `shutdownGrace`; the node stops listening to the others; every room makes what it applied
/// durable and closes; the store closes.
public func runServer(configuration: ServerConfiguration, logger: Logger) async throws {
    let store = try await BoardStoreChoice(configuration).open(missing: .create, logger: logger)
    let readiness = ServerReadiness()
    let server = assemble(configuration: configuration, store: store, clock: SystemClock(), readiness: readiness, logger: logger)
    var services: [any Service] = [StoreService(store: store, logger: logger), RoomsService(registry: server.registry, logger: logger)]
    if let follower = server.follower { services.append(follower) }
    services += [server.application, DrainService(readiness: readiness, delay: configuration.drainDelay, logger: logger)]
    let group = ServiceGroup(configuration: .init(services: services, gracefulShutdownSignals: [.sigterm, .sigint], logger: logger))
    try await group.run()
}
