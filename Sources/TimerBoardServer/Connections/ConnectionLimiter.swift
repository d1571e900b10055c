import Synchronization

/// The server's WebSocket connection caps, shared by every event loop: a connection takes a
/// slot before its upgrade and gives it back when it closes (`ConnectionGuard`).
final class ConnectionLimiter: Sendable {
    private let counts: Mutex<ConnectionCounts>

    init(maxTotal: Int, maxPerAddress: Int) {
        counts = Mutex(ConnectionCounts(maxTotal: maxTotal, maxPerAddress: maxPerAddress))
    }

    /// Takes a slot for a connection from `address`, if the caps allow.
    func open(from address: String) -> ConnectionCounts.Admission {
        counts.withLock { $0.open(from: address) }
    }

    /// Gives back a slot that `open` admitted.
    func close(from address: String) {
        counts.withLock { $0.close(from: address) }
    }

    /// Open connections in all, for tests and metrics.
    var total: Int { counts.withLock(\.total) }
}
