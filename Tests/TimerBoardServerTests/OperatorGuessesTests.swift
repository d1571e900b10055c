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
}
