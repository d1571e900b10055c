import NIOWebSocket
import ServiceLifecycle
import Synchronization

/// Finds dead connections with one timer for the whole server: every `interval` it pings each
/// connection that was heard from since the last beat, and closes each one that was not (it
/// answered neither the last ping nor sent anything else for a whole interval).
///
/// Hummingbird's own auto-ping does the same with a task, a sleep and a timer per connection:
/// about 3.8 KB of every idle connection's memory (docs/performance.md).
///
/// It also knows when every connection is gone: when the server stops, connections (which hold
/// no task the server would wait for) are sent a close by their handlers, and the heartbeat's
/// service ends only when they have all closed, or `shutdownGrace` has passed.
package final class Heartbeat: Service, Sendable {
    package let interval: Duration
    package let shutdownGrace: Duration
    private let connections = Mutex<[Int: Outbound]>([:])
    /// Told in a beat how many connections it is about to close, when any (for the metrics).
    private let closedDead: @Sendable (Int) -> Void

    package init(interval: Duration, shutdownGrace: Duration = .seconds(10), closedDead: @escaping @Sendable (Int) -> Void = { _ in }) {
        self.interval = interval
        self.shutdownGrace = shutdownGrace
        self.closedDead = closedDead
    }

    /// Connections registered and not yet closed.
    package var connectionCount: Int { connections.withLock(\.count) }

    package func register(_ outbound: Outbound) {
        connections.withLock { $0[outbound.id] = outbound }
    }

    package func unregister(_ outbound: Outbound) {
        connections.withLock { $0[outbound.id] = nil }
    }

    /// One beat: ping who answered, close who did not.
    package func beat() {
        let all = connections.withLock { Array($0.values) }
        var dead: [Outbound] = []
        for outbound in all {
            if outbound.takeHeardFrom() {
                outbound.send(.ping)
            } else {
                dead.append(outbound)
            }
        }
        guard !dead.isEmpty else { return }
        // Counted before the closes go out, so whoever sees a close also sees it counted.
        closedDead(dead.count)
        for outbound in dead { outbound.disconnect(.goingAway, reason: "no answer to ping") }
    }

    package func run() async throws {
        await cancelWhenGracefulShutdown {
            while true {
                // Cancelled when the server stops: a normal end, not an error to report.
                guard (try? await Task.sleep(for: self.interval)) != nil else { return }
                self.beat()
            }
        }
        await waitForConnectionsToClose()
    }

    /// Closes every connection still open (the server has stopped; its handlers have been
    /// asked already, this also reaches one that upgraded meanwhile) and waits until they are
    /// gone or the grace has passed.
    private func waitForConnectionsToClose() async {
        let deadline = ContinuousClock.now + shutdownGrace
        for outbound in connections.withLock({ Array($0.values) }) {
            outbound.disconnect(.normalClosure, reason: "the server is shutting down")
        }
        while connectionCount > 0, ContinuousClock.now < deadline {
            try? await Task.sleep(for: .milliseconds(20))
        }
    }
}
