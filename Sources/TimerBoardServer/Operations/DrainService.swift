import Logging
import ServiceLifecycle

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
        // Cancelled, not told to stop: the server failed (a taken port), and there is nothing to drain.
        guard !Task.isCancelled else { return }
        readiness.startDraining()
        logger.notice(
            "draining: /ready answers 503 from now on",
            metadata: ["tb.drain.seconds": "\(delay.components.seconds)"]
        )
        if delay > .zero { try? await Task.sleep(for: delay) }
    }
}
