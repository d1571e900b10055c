/// Whether a timer runs, as instants rather than ticks: nothing needs to be sent while it runs.
///
/// Remaining time at any instant is `duration - elapsed(at:)`, which every client computes
/// itself from the server's clock (see docs/protocol.md, "Timers that run").
public struct TimerRun: Hashable, Sendable {
    public enum Status: String, Hashable, Sendable, CaseIterable {
        case idle
        case running
        case paused
        case finished
    }

    public var status: Status
    /// When the current run began, server epoch milliseconds; set only while running.
    public var startedAt: Int64?
    /// Milliseconds of the length used up before `startedAt`: earlier runs, before a pause.
    /// Adjustments move it (`+1 min` subtracts 60,000), so it may be negative.
    public var elapsed: Int64
    /// When a finished timer reached zero (its deadline, not when the server noticed), server
    /// epoch milliseconds; set only when finished, and nil for runs finished before it existed.
    public var finishedAt: Int64?

    public init(status: Status, startedAt: Int64? = nil, elapsed: Int64 = 0, finishedAt: Int64? = nil) {
        self.status = status
        self.startedAt = startedAt
        self.elapsed = elapsed
        self.finishedAt = finishedAt
    }

    public static let idle = TimerRun(status: .idle)

    /// Milliseconds counted at `now`.
    public func elapsed(at now: Int64) -> Int64 {
        guard status == .running, let startedAt else { return elapsed }
        return elapsed + max(0, now - startedAt)
    }
}

extension BoardTimer {
    /// The timer's length in milliseconds.
    public var duration: Int64 { Int64(minutes * 60 + seconds) * 1_000 }

    /// When a running timer reaches zero, server epoch milliseconds; nil unless running.
    /// When it reaches zero, while it runs: its length after it started, or its target time;
    /// a stopwatch and a clock have none.
    public var deadline: Int64? {
        guard run.status == .running, let startedAt = run.startedAt else { return nil }
        switch kind {
        case .countdown: return startedAt + duration - run.elapsed
        case .toTime: return targetAt
        case .countUp, .clock: return nil
        }
    }

    /// The next instant the server acts on it: its deadline, or its scheduled start.
    public var nextInstant: Int64? {
        switch (deadline, startAt) {
        case (let deadline?, let start?): min(deadline, start)
        case (let deadline?, nil): deadline
        case (nil, let start): start
        }
    }

    /// Milliseconds left at `now`, never below zero.
    public func remaining(at now: Int64) -> Int64 {
        if kind == .toTime, let targetAt { return max(0, targetAt - now) }
        return max(0, duration - run.elapsed(at: now))
    }

    /// Milliseconds past zero at `now` for a finished timer that knows when it finished.
    public func overtime(at now: Int64) -> Int64? {
        guard run.status == .finished, let finishedAt = run.finishedAt else { return nil }
        return max(0, now - finishedAt)
    }
}

extension Board {
    /// The earliest deadline of a running timer: when the board next has something to do.
    /// The next instant the server must act at: a running timer reaching zero, or a scheduled
    /// start (`Board.finishExpiredTimers` does both, in order).
    public var nextDeadline: Int64? {
        timers.values.compactMap(\.nextInstant).min()
    }
}
