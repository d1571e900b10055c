/// A token bucket: `rate` tokens a second, holding at most `burst`. A request that finds a whole
/// token takes it; one that does not is told how long until there is one. Work whose cost is
/// known only once it is done (an edit that turned into thousands of changes) is charged
/// afterwards and may leave the bucket in debt, which later requests wait out.
///
/// Plain value, no clock of its own: the caller passes the time, so tests need no sleeping.
struct TokenBucket: Sendable {
    /// Tokens a second; 0 means no limit.
    let rate: Double
    let burst: Double
    private var tokens: Double
    /// When `tokens` was last brought up to date, in milliseconds.
    private var updated: Int64

    init(rate: Double, burst: Double, now: Int64) {
        self.rate = rate
        self.burst = max(1, burst)
        tokens = self.burst
        updated = now
    }

    var isUnlimited: Bool { rate <= 0 }

    /// Takes one token and returns nil, or returns the milliseconds until one is there.
    mutating func take(now: Int64) -> Int64? {
        guard !isUnlimited else { return nil }
        refill(now: now)
        guard tokens >= 1 else { return Int64(((1 - tokens) / rate * 1_000).rounded(.up)) }
        tokens -= 1
        return nil
    }

    /// Returns the token `take` just took, for a request that a later budget refused: what was
    /// refused cost the client nothing (docs/protocol.md, `rate_limited`).
    mutating func giveBack(now: Int64) {
        guard !isUnlimited else { return }
        refill(now: now)
        tokens = min(burst, tokens + 1)
    }

    /// Charges work already done; the debt is bounded by one burst.
    mutating func charge(_ cost: Double, now: Int64) {
        guard !isUnlimited, cost > 0 else { return }
        refill(now: now)
        tokens = max(-burst, tokens - cost)
    }

    /// True when the bucket is full: it then says nothing a fresh one would not.
    func isFull(now: Int64) -> Bool {
        var copy = self
        copy.refill(now: now)
        return copy.tokens >= burst
    }

    private mutating func refill(now: Int64) {
        guard now > updated else { return }
        tokens = min(burst, tokens + Double(now - updated) * rate / 1_000)
        updated = now
    }
}
