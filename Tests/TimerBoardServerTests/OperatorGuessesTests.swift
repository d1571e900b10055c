import Testing

@testable import TimerBoardServer

@Suite struct OperatorGuessesTests {
    let token = "operator-token-0123456789"

    @Test func theRightTokenTakesNothingAndWrongOnesRunOutThenEveryTokenWaits() {
        let guesses = OperatorGuesses(adminToken: token, perMinute: 6, burst: 2)
        #expect((0..<20).allSatisfy { _ in guesses.check(token, address: "a", now: 0) == .isOperator })
        #expect(guesses.check("wrong-1", address: "a", now: 0) == .notOperator)
        #expect(guesses.check("wrong-2", address: "a", now: 0) == .notOperator)
        #expect(guesses.check("wrong-3", address: "a", now: 0) == .tooMany(waitMs: 10_000))
        // Over the budget the right token waits too: it would tell the guesser it was right.
        #expect(guesses.check(token, address: "a", now: 4_000) == .tooMany(waitMs: 6_000))
        #expect(guesses.check(token, address: "b", now: 0) == .isOperator)
        #expect(guesses.check(token, address: "a", now: 10_000) == .isOperator)
    }

    @Test func noTokenIsNoGuessAndNoOperatorTokenMeansNobodyIsTheOperator() {
        let guesses = OperatorGuesses(adminToken: token, perMinute: 6, burst: 1)
        #expect((0..<5).allSatisfy { _ in guesses.check(nil, address: "a", now: 0) == .notOperator })
        #expect(guesses.check(token, address: "a", now: 0) == .isOperator)
        let none = OperatorGuesses(adminToken: nil, perMinute: 6, burst: 1)
        #expect(none.check(token, address: "a", now: 0) == .notOperator)
    }

    @Test func onABoardsRoutesOnlyATokenThatOpensNothingIsAGuessAndNoneIsComparedOnceTheyRunOut() {
        let guesses = OperatorGuesses(adminToken: token, perMinute: 6, burst: 2)
        // A token is a guess until it opens the board: most tokens there are links' secrets.
        for _ in 0..<20 {
            let verdict = guesses.checkOnBoardRoute("a-link-secret", address: "a", now: 0)
            #expect(verdict == .notOperator)
            guesses.noGuess(after: verdict, address: "a", now: 0)
        }
        #expect(guesses.checkOnBoardRoute(token, address: "a", now: 0) == .isOperator)
        // Two tokens that open nothing keep their guesses.
        #expect(guesses.checkOnBoardRoute("wrong-1", address: "a", now: 0) == .notOperator)
        #expect(guesses.checkOnBoardRoute("wrong-2", address: "a", now: 0) == .notOperator)
        #expect(guesses.checkOnBoardRoute(token, address: "a", now: 0) == .tooMany(waitMs: 10_000))
        #expect(guesses.check(token, address: "a", now: 0) == .tooMany(waitMs: 10_000))
        // A verdict of `.tooMany` held no guess: giving back after it gives nothing.
        guesses.noGuess(after: .tooMany(waitMs: 10_000), address: "a", now: 0)
        #expect(guesses.check(token, address: "a", now: 0) == .tooMany(waitMs: 10_000))
        #expect(guesses.checkOnBoardRoute(token, address: "b", now: 0) == .isOperator)
        // Without an operator token there is nothing to guess: nothing counts.
        let none = OperatorGuesses(adminToken: nil, perMinute: 6, burst: 1)
        #expect((0..<5).allSatisfy { _ in none.checkOnBoardRoute("anything", address: "a", now: 0) == .notOperator })
    }

    @Test func aGuessIsTakenBeforeTheComparisonSoTheLastOneGoesToOneRequest() {
        // Requests that arrive together: each takes its guess in one step, so with one guess
        // left exactly one of them is compared, however they interleave.
        let guesses = OperatorGuesses(adminToken: token, perMinute: 6, burst: 1)
        let first = guesses.checkOnBoardRoute("wrong-1", address: "a", now: 0)
        let second = guesses.checkOnBoardRoute("wrong-2", address: "a", now: 0)
        #expect(first == .notOperator)
        #expect(second == .tooMany(waitMs: 10_000))
        // The first turned out to be a link's secret: its guess goes back for the next one.
        guesses.noGuess(after: first, address: "a", now: 0)
        #expect(guesses.check("wrong-3", address: "a", now: 0) == .notOperator)
    }
}
