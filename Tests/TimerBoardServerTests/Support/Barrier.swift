/// Lets concurrent test clients wait until all of them have reached the same point.
actor Barrier {
    private var remaining: Int
    private var waiting: [CheckedContinuation<Void, Never>] = []

    init(count: Int) {
        remaining = count
    }

    func arriveAndWait() async {
        remaining -= 1
        if remaining == 0 {
            for continuation in waiting { continuation.resume() }
            waiting.removeAll()
            return
        }
        await withCheckedContinuation { waiting.append($0) }
    }
}

/// The highest revision any test client has seen acked, for others to wait on.
actor RevisionWatch {
    private var revision: Int64 = 0
    private var waiting: [(target: Int64, continuation: CheckedContinuation<Void, Never>)] = []

    func report(_ revision: Int64) {
        self.revision = max(self.revision, revision)
        let ready = waiting.filter { $0.target <= self.revision }
        waiting.removeAll { $0.target <= self.revision }
        for entry in ready { entry.continuation.resume() }
    }

    /// Returns once some client has reported `target`.
    func wait(until target: Int64) async {
        guard revision < target else { return }
        await withCheckedContinuation { waiting.append((target, $0)) }
    }
}
