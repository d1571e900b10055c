import NIOCore
import Synchronization

/// The server's connection caps, shared by every event loop: each accepted TCP connection takes
/// a slot (`ConnectionGuard`) and gives it back when it closes; an idle one may be asked to
/// close so a newcomer gets its slot (`ConnectionCounts`).
final class ConnectionLimiter: Sendable {
    private let counts: Mutex<ConnectionCounts<any Channel>>

    init(maxTotal: Int, maxPerAddress: Int, maxPerNetwork: Int = .max, networkPrefix: Int = 48) {
        counts = Mutex(ConnectionCounts(maxTotal: maxTotal, maxPerAddress: maxPerAddress, maxPerNetwork: maxPerNetwork, networkPrefix: networkPrefix))
    }

    /// Takes a slot for a connection from `address` (nil: in all only), if the caps allow, or
    /// the slot of an idle connection, which is told to close (`ConnectionGuard.Evicted`).
    func open(from address: String?) -> ConnectionCounts<any Channel>.Admission {
        let admission = counts.withLock { $0.open(from: address) }
        if case .evicting(_, let victim) = admission {
            victim.pipeline.fireUserInboundEventTriggered(ConnectionGuard.Evicted())
        }
        return admission
    }

    /// Gives back a slot that `open` admitted.
    func close(id: Int, from address: String?) {
        counts.withLock { $0.close(id: id, from: address) }
    }

    /// The connection waits for a request: it is the first to go when its address (or the
    /// server) is full.
    func setIdle(id: Int, from address: String?, channel: any Channel) {
        counts.withLock { $0.setIdle(id: id, from: address, handle: channel) }
    }

    func setBusy(id: Int, from address: String?) {
        counts.withLock { $0.setBusy(id: id, from: address) }
    }

    /// Counts a connection that a trusted proxy opened against the client it names (a
    /// WebSocket or an event stream); false when that address is at its cap.
    func count(from address: String) -> Bool {
        counts.withLock { $0.count(from: address) }
    }

    /// Gives back what `count(from:)` took.
    func uncount(from address: String) {
        counts.withLock { $0.uncount(from: address) }
    }

    /// Open connections in all, for tests and metrics.
    var total: Int { counts.withLock(\.total) }
}
