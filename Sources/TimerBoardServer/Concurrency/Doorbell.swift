import Synchronization

/// Wakes one waiting task: a ring while nobody waits is kept for the next wait, and rings that
/// come together make one wake-up. A worker that polls uses it to be woken early.
final class Doorbell: Sendable {
    private struct State {
        var rung = false
        var waiter: CheckedContinuation<Void, Never>?
    }

    private let state = Mutex(State())

    init() {}

    func ring() {
        let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
            guard let waiter = state.waiter else {
                state.rung = true
                return nil
            }
            state.waiter = nil
            return waiter
        }
        waiter?.resume()
    }

    /// Returns at the next ring (at once when one came since the last wait), after `timeout` at
    /// the latest, or when the task is cancelled. One task waits at a time.
    func wait(atMost timeout: Duration) async {
        await withTaskGroup(of: Void.self) { group in
            group.addTask { [self] in
                await withTaskCancellationHandler {
                    await withCheckedContinuation { continuation in
                        let rung = state.withLock { state -> Bool in
                            guard state.rung else {
                                state.waiter = continuation
                                return false
                            }
                            state.rung = false
                            return true
                        }
                        if rung { continuation.resume() }
                    }
                } onCancel: {
                    ring()
                }
            }
            group.addTask { try? await Task.sleep(for: timeout) }
            await group.next()
            group.cancelAll()
        }
    }
}
