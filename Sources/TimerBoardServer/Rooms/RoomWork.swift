/// The tasks a room starts, each for one purpose, so a close, whatever its reason, stops all of
/// them in one place (`cancelAll`). Each body runs on the room (the caller hops back into it);
/// the writers (`QueueWorker`s) are not here: they end by themselves once their queue is empty.
struct RoomWork {
    private var wake: Task<Void, Never>?
    private var presenceFlush: Task<Void, Never>?
    private var announcer: Task<Void, Never>?
    private var catchUp: Task<Void, Never>?
    private var warningWake: Task<Void, Never>?

    /// Keeps one sleeping task aimed at `deadline` (nil: none): at the deadline, and `grace()` ms
    /// later still when that is not zero, it runs `body`; aimed elsewhere first, it does nothing.
    mutating func wake(
        at deadline: Int64?,
        clock: any ServerClock,
        grace: @escaping @Sendable () async -> Int64,
        _ body: @escaping @Sendable () async -> Void
    ) {
        wake?.cancel()
        guard let deadline else { return wake = nil }
        wake = Task {
            do {
                try await clock.sleep(until: deadline)
                let grace = await grace()
                if grace > 0 { try await clock.sleep(until: deadline + grace) }
                try Task.checkCancellation()
            } catch {
                return  // aimed elsewhere, or the room closed
            }
            await body()
        }
    }

    /// Keeps one sleeping task aimed at `instant` (nil: none) that runs `body` then.
    mutating func wakeForWarnings(at instant: Int64?, clock: any ServerClock, _ body: @escaping @Sendable () async -> Void) {
        warningWake?.cancel()
        guard let instant else { return warningWake = nil }
        warningWake = Task {
            guard (try? await clock.sleep(until: instant)) != nil, !Task.isCancelled else { return }
            await body()
        }
    }

    /// Runs `body` once `interval` has passed (the presence changes gathered meanwhile go out).
    mutating func flushPresence(after interval: Duration, _ body: @escaping @Sendable () async -> Void) {
        presenceFlush = Task {
            try? await Task.sleep(for: interval)
            await body()
        }
    }

    /// Runs `body` every `interval` until the room closes.
    mutating func announce(every interval: Duration, _ body: @escaping @Sendable () async -> Void) {
        announcer = Task {
            while !Task.isCancelled {
                try? await Task.sleep(for: interval)
                guard !Task.isCancelled else { return }
                await body()
            }
        }
    }

    /// Runs `body` (a read of what other nodes appended) on a task of its own.
    mutating func catchUp(_ body: @escaping @Sendable () async -> Void) {
        catchUp = Task { await body() }
    }

    mutating func cancelAll() {
        for task in [wake, presenceFlush, announcer, catchUp, warningWake] { task?.cancel() }
        self = RoomWork()
    }
}
