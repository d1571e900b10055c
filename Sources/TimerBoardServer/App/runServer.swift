import Logging
import NIOCore
import ServiceLifecycle
import UnixSignals

/// Runs the server on the store the configuration chooses until SIGTERM or SIGINT. Then, in
/// this order (a service group stops its services in reverse): `/ready` answers `503` for
/// `drainDelay` while everything serves; the listener closes and connections get
/// `shutdownGrace`; the node says goodbye to the others and stops listening to them; every
/// room makes what it applied durable and closes; the store's check stops; the store closes.
///
/// On SQLite the data directory is marked as served (`ServingMark`) first: a second server on
/// it is refused, and `timerboard reset-links` finds this one.
public func runServer(configuration: ServerConfiguration, logger: Logger) async throws {
    warnOfWideTrustedProxies(configuration.trustedProxies, logger: logger)
    let choice = BoardStoreChoice(configuration)
    var mark: ServingMark?
    if configuration.store == nil {
        try DatabaseFiles(directory: configuration.dataDirectory).prepare()
        mark = try ServingMark.take(dataDirectory: configuration.dataDirectory)
    }
    let store = try await choice.open(missing: .create, logger: logger)
    let readiness = ServerReadiness()
    let server = assemble(
        configuration: configuration,
        store: store,
        storeName: choice.description,
        clock: SystemClock(),
        readiness: readiness,
        logger: logger
    ) { [mark] channel in
        if let mark, let address = channel.localAddress { mark.announce(url: localURL(address)) }
    }
    var services: [any Service] = [StoreService(store: store, logger: logger), server.storeWatch, RoomsService(registry: server.registry, logger: logger)]
    if let follower = server.follower { services.append(follower) }
    if let membership = server.membership { services.append(membership) }
    services += [server.application, DrainService(readiness: readiness, delay: configuration.drainDelay, logger: logger)]
    let group = ServiceGroup(configuration: .init(services: services, gracefulShutdownSignals: [.sigterm, .sigint], logger: logger))
    try await group.run()
    withExtendedLifetime(mark) {}
}

/// Where a process on this machine reaches the server bound to `address`: an unspecified
/// address (all interfaces) is reached on loopback.
func localURL(_ address: SocketAddress) -> String {
    let port = address.port ?? 0
    switch address {
    case .v6:
        let host = address.ipAddress ?? "::1"
        return "http://[\(host == "::" ? "::1" : host)]:\(port)"
    default:
        let host = address.ipAddress ?? "127.0.0.1"
        return "http://\(host == "0.0.0.0" ? "127.0.0.1" : host):\(port)"
    }
}

/// A trusted range wider than one host lets every client inside it name any address it likes in
/// `X-Forwarded-For`, and so step around every per-address limit: said once, at start.
func warnOfWideTrustedProxies(_ proxies: TrustedProxies, logger: Logger) {
    for network in proxies.networks where !network.isSingleHost {
        logger.warning(
            "--trusted-proxy \(network) is wider than one host: any client inside it can choose its address with X-Forwarded-For; name the proxies' own addresses"
        )
    }
}
