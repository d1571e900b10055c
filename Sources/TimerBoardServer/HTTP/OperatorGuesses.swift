/// The operator token (`--admin-token`) against guessing: wrong tokens from one client address
/// take from a small token bucket, and once it is empty that address's operator requests are
/// answered `429` with `Retry-After` before any token is compared, so guessing goes no faster
/// than the bucket refills. A right token takes nothing and waits for nothing while the bucket
/// has a token; a request with no token at all is no guess and counts nothing.
///
/// A board's routes take the operator token as the owner's secret, so they are a place to guess
/// it too. There a token is usually a link's secret, which is no guess: `checkOnBoardRoute`
/// compares without taking, and only a token that is no link of the board either (`missed`)
/// takes from the same bucket.
struct OperatorGuesses: Sendable {
    let adminToken: String?
    private let failures: AddressRateLimiter

    /// What `check` found.
    enum Verdict: Equatable {
        case isOperator
        case notOperator
        /// Too many wrong tokens from this address: the milliseconds until it may try again.
        case tooMany(waitMs: Int64)
    }

    init(adminToken: String?, perMinute: Double, burst: Int) {
        self.adminToken = adminToken
        failures = AddressRateLimiter(perMinute: perMinute, burst: Double(burst))
    }

    /// Whether `token`, from `address`, is the operator's.
    func check(_ token: String?, address: String, now: Int64) -> Verdict {
        guard let adminToken, let token else { return .notOperator }
        if let wait = failures.wait(address, now: now) { return .tooMany(waitMs: wait) }
        if ConstantTime.equal(token.utf8, adminToken.utf8) { return .isOperator }
        _ = failures.take(address, now: now)
        return .notOperator
    }

    /// On a board's routes: whether `token` is the operator's, taking nothing. `.tooMany` while
    /// `address` has no guesses left: the token was not compared, and the route serves it as a
    /// link's secret, answering `429` instead of the unknown-board answer if it is none.
    func checkOnBoardRoute(_ token: String, address: String, now: Int64) -> Verdict {
        guard let adminToken else { return .notOperator }
        if let wait = failures.wait(address, now: now) { return .tooMany(waitMs: wait) }
        return ConstantTime.equal(token.utf8, adminToken.utf8) ? .isOperator : .notOperator
    }

    /// A token on a board's route was neither the operator's nor a link of the board: a guess
    /// at one or the other. Counts only where there is an operator token to guess.
    func missed(address: String, now: Int64) {
        guard adminToken != nil else { return }
        _ = failures.take(address, now: now)
    }

    /// The whole seconds of a `Retry-After` for a wait in milliseconds.
    static func retryAfterSeconds(_ waitMs: Int64) -> Int64 { (waitMs + 999) / 1_000 }
}
