/// What one connection may still edit: a token bucket, plus the order rule that keeps a
/// rate-limited edit from being overtaken. Once an edit is refused, the connection's later edits
/// are refused too until that one is sent again (or `holdSlackMs` after its wait, for a client
/// that gave up on it): edits already on the wire when the refusal left would otherwise land
/// before it when a token comes back, and an older value could win a field.
struct EditBudget: Sendable {
    private var bucket: TokenBucket
    /// The first refused edit still to be sent again, and until when later edits wait for it.
    private var held: (opID: String, until: Int64)?
    /// How long past its wait a refused edit holds the ones after it.
    static let holdSlackMs: Int64 = 2_000
    /// An edit costs one token per this many changes it made, rounded up, and at least one:
    /// 1-100 changes one, 101-200 two (docs/protocol.md, `rate_limited`).
    static let changesPerToken = 100

    init(editsPerSecond: Double, burst: Int, now: Int64) {
        bucket = TokenBucket(rate: editsPerSecond, burst: Double(burst), now: now)
    }

    /// Nil when the edit may go ahead, else the milliseconds to wait before sending it again.
    /// `shared` takes from a budget beyond this connection's (its address's, shared by all of
    /// that address's connections) once this one has a token: nil, or its wait.
    mutating func admit(opID: String, now: Int64, shared: () -> Int64? = { nil }) -> Int64? {
        if let held, held.until > now, held.opID != opID {
            // Behind the held edit: until it may be sent again, then (a client that gave up on
            // it) until the hold lapses. Never the next token alone, which is there at once
            // once the held edit's wait is over: a client told "1 ms" would ask for ever.
            var probe = bucket
            let heldMayGo = held.until - Self.holdSlackMs
            let hold = heldMayGo > now ? heldMayGo - now : held.until - now
            return max(1, probe.take(now: now) ?? 1, hold)
        }
        if let wait = take(now: now, shared: shared) {
            if held == nil || held?.opID == opID || held!.until <= now {
                held = (opID, now + wait + Self.holdSlackMs)
            }
            return wait
        }
        if held?.opID == opID || (held?.until ?? .max) <= now { held = nil }
        return nil
    }

    /// The refused edit that `opID` waits behind, when it is another one.
    func heldBefore(_ opID: String, now: Int64) -> String? {
        guard let held, held.until > now, held.opID != opID else { return nil }
        return held.opID
    }

    /// Nil when a join may go ahead, else the milliseconds to wait: a join can load a whole
    /// board from the store, so a stream of them (wrong secrets, say) draws from the same budget.
    mutating func admitJoin(now: Int64, shared: () -> Int64? = { nil }) -> Int64? {
        take(now: now, shared: shared)
    }

    /// A token of this connection's, then one of `shared`; when `shared` refuses, this
    /// connection's token goes back: a refused request costs nothing.
    private mutating func take(now: Int64, shared: () -> Int64?) -> Int64? {
        if let wait = bucket.take(now: now) { return wait }
        guard let wait = shared() else { return nil }
        bucket.giveBack(now: now)
        return wait
    }

    /// Charges an edit that fanned out into `changes` changes, after it ran: what it costs
    /// beyond the one token `admit` took.
    mutating func charge(changes: Int, now: Int64) {
        bucket.charge(Double(Self.extraTokens(forChanges: changes)), now: now)
    }

    /// What an edit of `changes` changes costs beyond its first token: one token per
    /// `changesPerToken` changes, rounded up, in all.
    static func extraTokens(forChanges changes: Int) -> Int {
        max(0, (changes + changesPerToken - 1) / changesPerToken - 1)
    }
}
