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
        // Comparing takes nothing: most tokens there are links' secrets.
        #expect((0..<20).allSatisfy { _ in guesses.checkOnBoardRoute("a-link-secret", address: "a", now: 0) == .notOperator })
        #expect(guesses.checkOnBoardRoute(token, address: "a", now: 0) == .isOperator)
        guesses.missed(address: "a", now: 0)
        guesses.missed(address: "a", now: 0)
        #expect(guesses.checkOnBoardRoute(token, address: "a", now: 0) == .tooMany(waitMs: 10_000))
        #expect(guesses.check(token, address: "a", now: 0) == .tooMany(waitMs: 10_000))
        #expect(guesses.checkOnBoardRoute(token, address: "b", now: 0) == .isOperator)
        // Without an operator token there is nothing to guess: nothing counts.
        let none = OperatorGuesses(adminToken: nil, perMinute: 6, burst: 1)
        for _ in 0..<5 { none.missed(address: "a", now: 0) }
        #expect(none.checkOnBoardRoute("anything", address: "a", now: 0) == .notOperator)
    }
}
