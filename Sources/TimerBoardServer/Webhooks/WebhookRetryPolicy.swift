import BoardStore

/// When a failed delivery is tried again, and when an endpoint that keeps failing is disabled
/// (docs/protocol.md, "Webhooks"): Standard Webhooks' schedule by default, about a day.
struct WebhookRetryPolicy: Sendable {
    /// Milliseconds to wait after the first failed attempt, the second, …; after the last, the
    /// delivery fails for good.
    let schedule: [Int64]
    /// An endpoint whose failures began this many milliseconds ago (with no success since) is
    /// disabled.
    let disableAfter: Int64

    /// 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h: 8 attempts over 27 h 35 min.
    static let standardSchedule: [Int64] = [5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000]

    /// What an attempt means: a 2xx is delivered; otherwise another attempt while the schedule
    /// lasts, then failed. `attemptsBefore`: the attempts made before this one.
    func outcome(succeeded: Bool, attemptsBefore: Int, now: Int64) -> WebhookAttemptOutcome {
        if succeeded { return .delivered }
        return attemptsBefore < schedule.count ? .retry(at: now + schedule[attemptsBefore]) : .failed
    }

    /// Whether an endpoint failing since `failingSince` is disabled at `now`.
    func disables(failingSince: Int64, now: Int64) -> Bool {
        now - failingSince >= disableAfter
    }
}
