import Synchronization

/// Waiting for work at most so long: how an HTTP answer or a readiness probe stays prompt when
/// the store does not answer (a database that is away makes a call wait for a connection).
///
/// The work runs on a task of its own, so a call that cannot be interrupted (a query already
/// sent) does not hold the waiter: when the time is up the waiter goes on, the task is
/// cancelled (a store call still waiting for a connection gives up there and writes nothing)
/// and is left to end by itself. A caller that must know how it ended (a board it may have
/// created) keeps the task: `wait(for:within:)` hands it back.
enum Deadline {
    /// The work did not end in time.
    struct Exceeded: Error, CustomStringConvertible {
        let limit: Duration
        var description: String { "no answer within \(limit)" }
    }

    /// How waiting for a task ended.
    enum Outcome<Value: Sendable>: Sendable {
        case finished(Result<Value, any Error>)
        /// Still running when the time was up; it has been cancelled.
        case late(Task<Value, any Error>)
    }

    /// Runs `work` and returns its result, or throws `Exceeded` after `limit`.
    static func run<Value: Sendable>(within limit: Duration, _ work: @escaping @Sendable () async throws -> Value) async throws -> Value {
        switch await wait(for: Task { try await work() }, within: limit) {
        case .finished(let result): return try result.get()
        case .late: throw Exceeded(limit: limit)
        }
    }

    /// Waits for `task` at most `limit`; cancels it when the time is up.
    static func wait<Value: Sendable>(for task: Task<Value, any Error>, within limit: Duration) async -> Outcome<Value> {
        let first = FirstAnswer<Outcome<Value>>()
        let outcome = await withCheckedContinuation { continuation in
            first.set(continuation)
            let timer = Task {
                do { try await Task.sleep(for: limit) } catch { return }  // the work ended first
                first.resume(.late(task))
            }
            Task {
                let result = await task.result
                first.resume(.finished(result))
                timer.cancel()
            }
        }
        if case .late = outcome { task.cancel() }
        return outcome
    }
}

/// A continuation resumed by whichever of two tasks comes first.
private final class FirstAnswer<Value: Sendable>: Sendable {
    private let continuation = Mutex<CheckedContinuation<Value, Never>?>(nil)

    func set(_ continuation: CheckedContinuation<Value, Never>) {
        self.continuation.withLock { $0 = continuation }
    }

    func resume(_ value: Value) {
        continuation.withLock { $0.take() }?.resume(returning: value)
    }
}
