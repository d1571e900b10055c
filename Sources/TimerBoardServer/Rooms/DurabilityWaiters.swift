/// Callers waiting for a revision to be durable (a read over HTTP, a release, a shutdown):
/// answered true once it is, false if the room closes first.
struct DurabilityWaiters {
    private var waiting: [(revision: Int64, continuation: CheckedContinuation<Bool, Never>)] = []

    mutating func add(_ revision: Int64, _ continuation: CheckedContinuation<Bool, Never>) {
        waiting.append((revision, continuation))
    }

    /// Answers everyone whose revision is durable now, and everyone when the room closed.
    mutating func release(durable: Int64, closed: Bool) {
        let due = waiting.filter { closed || $0.revision <= durable }
        waiting.removeAll { closed || $0.revision <= durable }
        for waiter in due { waiter.continuation.resume(returning: !closed) }
    }
}
