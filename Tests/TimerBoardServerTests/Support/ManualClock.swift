import Synchronization
import TimerBoardServer

/// A server clock that moves only when the test says so; sleepers wake when it passes them.
final class ManualClock: ServerClock {
    private struct State {
        var now: Int64
        var sleepers: [(deadline: Int64, continuation: CheckedContinuation<Void, any Error>)] = []
    }

    private let state: Mutex<State>

    init(now: Int64 = 1_763_740_800_000) {
        state = Mutex(State(now: now))
    }

    func now() -> Int64 { state.withLock { $0.now } }

    func sleep(until deadline: Int64) async throws {
        try await withCheckedThrowingContinuation { continuation in
            let ready = state.withLock { state -> Bool in
                guard state.now < deadline else { return true }
                state.sleepers.append((deadline, continuation))
                return false
            }
            if ready { continuation.resume() }
        }
    }

    /// Moves the clock forward and wakes every sleeper whose deadline has come; with
    /// `wakingSleepers` false they sleep on (a server that has not noticed the time yet) until
    /// a later `advance` wakes them.
    func advance(by milliseconds: Int64, wakingSleepers: Bool = true) {
        let due = state.withLock { state in
            state.now += milliseconds
            guard wakingSleepers else { return [(deadline: Int64, continuation: CheckedContinuation<Void, any Error>)]() }
            let now = state.now
            let due = state.sleepers.filter { $0.deadline <= now }
            state.sleepers.removeAll { $0.deadline <= now }
            return due
        }
        for sleeper in due { sleeper.continuation.resume() }
    }
}
