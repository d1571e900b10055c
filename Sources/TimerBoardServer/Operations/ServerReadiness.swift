import Synchronization

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
