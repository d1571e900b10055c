import BoardProtocol
import Hummingbird

/// What the operator's routes share: who is asking, and the answer to a guesser.
extension BoardsController {
    /// The answer to an address that guessed the operator token too often.
    static func tooManyGuesses(_ waitMs: Int64) -> Response {
        let seconds = OperatorGuesses.retryAfterSeconds(waitMs)
        var answer = HTTPAnswer(.tooManyRequests, .rateLimited, "too many wrong operator tokens from this address; try again in \(seconds) s").response
        answer.headers[.retryAfter] = "\(seconds)"
        return answer
    }

    /// The answer, on a board's route, to an address out of guesses whose secret opens nothing.
    static func tooManyWrongSecrets(_ waitMs: Int64) -> Response {
        let seconds = OperatorGuesses.retryAfterSeconds(waitMs)
        var answer = HTTPAnswer(.tooManyRequests, .rateLimited, "too many wrong secrets from this address; try again in \(seconds) s").response
        answer.headers[.retryAfter] = "\(seconds)"
        return answer
    }

    /// The key the per-address limits count a request by (`ClientAddress`).
    func clientAddress(_ request: Request, _ context: TimerBoardRequestContext) -> String {
        ClientAddress.key(
            peer: context.remoteAddress,
            forwardedFor: request.headers[values: .xForwardedFor],
            realIP: request.headers[.xRealIP],
            trusted: trustedProxies
        )
    }
}
