/// The operator token (`--admin-token`) against guessing: wrong tokens from one client address
/// take from a small token bucket, and once it is empty that address's operator requests are
/// answered `429` with `Retry-After` before any token is compared, so guessing goes no faster
/// than the bucket refills. A right token takes nothing and waits for nothing while the bucket
/// has a token; a request with no token at all is no guess and counts nothing.
///
/// A board's routes take the operator token as the owner's secret, so they are a place to guess
/// it too. There a token is usually a link's secret, which is no guess: `checkOnBoardRoute`
/// takes a guess as `check` does, and gives it back once the token opened the board
/// (`noGuess(after:)`); only a token that is no link of the board either keeps it taken.
///
/// A guess is taken before the comparison, in one step under the bucket's lock. A look first
/// and a take after let requests that arrived together all look at the last guess left and all
/// be compared: 11 of a flood of 200 from 8 threads got through where 8 guesses were left, and
/// as many as an address has connections could, each time the bucket refilled by one.
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
        if let wait = failures.take(address, now: now) { return .tooMany(waitMs: wait) }
        guard ConstantTime.equal(token.utf8, adminToken.utf8) else { return .notOperator }
        failures.giveBack(address, now: now)  // the right token takes nothing
        return .isOperator
    }

    /// On a board's routes: whether `token` is the operator's. `.notOperator` holds a guess
    /// taken until the route knows whether the token opened the board (`noGuess(after:)`);
    /// `.tooMany` while `address` has no guesses left: the token was not compared, and the
    /// route serves it as a link's secret, answering `429` instead of the unknown-board answer
    /// if it is none.
    func checkOnBoardRoute(_ token: String, address: String, now: Int64) -> Verdict {
        guard adminToken != nil else { return .notOperator }
        return check(token, address: address, now: now)
    }

    /// The token `checkOnBoardRoute` judged `verdict` opened the board (a link's secret), or the
    /// route could not tell (the store did not answer): no guess, the guess it held goes back.
    func noGuess(after verdict: Verdict, address: String, now: Int64) {
        guard adminToken != nil, verdict == .notOperator else { return }
        failures.giveBack(address, now: now)
    }

    /// The whole seconds of a `Retry-After` for a wait in milliseconds.
    static func retryAfterSeconds(_ waitMs: Int64) -> Int64 { (waitMs + 999) / 1_000 }
}
