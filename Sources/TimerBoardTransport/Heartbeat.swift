import NIOWebSocket
import ServiceLifecycle
import Synchronization

/// Finds dead connections with one timer for the whole server: every `interval` it pings each
/// connection that was heard from since the last beat, and closes each one that was not (it
/// answered neither the last ping nor sent anything else for a whole interval).
///
/// Hummingbird's own auto-ping does the same with a task, a sleep and a timer per connection:
/// about 3.8 KB of every idle connection's memory (docs/performance.md).
package final class Heartbeat: Service, Sendable {
    package let interval: Duration
    private let connections = Mutex<[Int: Outbound]>([:])

    package init(interval: Duration) {
        self.interval = interval
    }

    package func register(_ outbound: Outbound) {
        connections.withLock { $0[outbound.id] = outbound }
    }

    package func unregister(_ outbound: Outbound) {
        connections.withLock { $0[outbound.id] = nil }
    }

    /// One beat: ping who answered, close who did not.
    package func beat() {
        let all = connections.withLock { Array($0.values) }
        for outbound in all {
            if outbound.takeHeardFrom() {
                outbound.send(.ping)
            } else {
                outbound.disconnect(.goingAway, reason: "no answer to ping")
            }
        }
    }

    package func run() async throws {
        await cancelWhenGracefulShutdown {
            while true {
                // Cancelled when the server stops: a normal end, not an error to report.
                guard (try? await Task.sleep(for: self.interval)) != nil else { return }
                self.beat()
            }
        }
    }
}
