import BoardCore
import Testing

/// `adjustTimer`: time added or taken away composes, and each state has its rule.
@Suite struct AdjustTimerTests {
    /// One section with a 5:00 timer.
    private func board() -> Board {
        try! Board(
            sections: [Section(id: "s", title: "Prep", createdDate: 0, order: "a0")],
            timers: [BoardTimer(id: "t", sectionID: "s", title: "Eggs", minutes: 5, seconds: 0, createdDate: 0, order: "a0")]
        )
    }

    @Test func twoAdjustmentsOfOneMinuteAddTwoMinutesWhateverTheOrder() throws {
        var board = board()
        _ = try board.apply([.startTimer(id: "t")], now: 0)
        // Two clients pressed +1 min on the same revision; the server applies one after the other.
        _ = try board.apply([.adjustTimer(id: "t", by: 60_000)], now: 10_000)
        _ = try board.apply([.adjustTimer(id: "t", by: 60_000)], now: 10_050)
        #expect(board.timers["t"]!.remaining(at: 10_050) == 300_000 - 10_050 + 120_000)
        #expect(board.timers["t"]!.run == TimerRun(status: .running, startedAt: 0, elapsed: -120_000))
    }

    @Test func anAdjustmentMovesElapsedSoTheTimeLeftNeedsNoNewField() throws {
        var board = board()
        _ = try board.apply([.startTimer(id: "t")], now: 0)
        _ = try board.apply([.pauseTimer(id: "t")], now: 100_000)
        let changes = try board.apply([.adjustTimer(id: "t", by: -30_000)], now: 200_000)
        #expect(changes == [.updateTimer("t", TimerPatch(run: TimerRun(status: .paused, elapsed: 130_000)))])
        #expect(board.timers["t"]!.remaining(at: 900_000) == 170_000)
    }

    @Test func takingAwayMoreThanIsLeftFinishesTheTimerNow() throws {
        var board = board()
        _ = try board.apply([.startTimer(id: "t")], now: 0)
        let changes = try board.apply([.adjustTimer(id: "t", by: -240_000)], now: 60_000)
        #expect(changes == [.updateTimer("t", TimerPatch(run: TimerRun(status: .finished, elapsed: 300_000, finishedAt: 60_000)))])
    }

    @Test func timeLeftIsClampedToTheLongestTimer() throws {
        var board = board()
        _ = try board.apply([.startTimer(id: "t")], now: 0)
        let max = BoardLimits().maxMilliseconds
        _ = try board.apply([.adjustTimer(id: "t", by: max)], now: 0)
        #expect(board.timers["t"]!.remaining(at: 0) == max)
        _ = try board.apply([.adjustTimer(id: "t", by: 60_000)], now: 1_000)
        #expect(board.timers["t"]!.remaining(at: 1_000) == max, "clamped again as of the adjustment")
    }

    @Test func moreTimeOnAFinishedTimerRunsItAgainWithThatMuchLeftAndLessChangesNothing() throws {
        var board = board()
        _ = try board.apply([.startTimer(id: "t")], now: 0)
        _ = board.finishExpiredTimers(now: 300_000)
        #expect(try board.apply([.adjustTimer(id: "t", by: -60_000)], now: 310_000) == [])
        _ = try board.apply([.adjustTimer(id: "t", by: 60_000)], now: 320_000)
        #expect(board.timers["t"]!.run == TimerRun(status: .running, startedAt: 320_000, elapsed: 240_000))
        #expect(board.timers["t"]!.deadline == 380_000)
    }

    @Test func anIdleTimerCannotBeAdjustedAndNothingChanges() throws {
        var board = board()
        let before = board
        #expect {
            try board.apply([.adjustTimer(id: "t", by: 60_000)], now: 0)
        } throws: { error in
            (error as? EditError)?.error.kind == .invalidState
        }
        #expect(board == before)
    }

    @Test(arguments: [Int64(0), 59_940_001, -59_940_001])
    func anAdjustmentOfZeroOrBeyondTheLongestTimerIsAnInvalidField(_ by: Int64) throws {
        var board = board()
        _ = try board.apply([.startTimer(id: "t")], now: 0)
        let before = board
        #expect {
            try board.apply([.adjustTimer(id: "t", by: by)], now: 0)
        } throws: { error in
            (error as? EditError)?.error
                == .invalidField(
                    "by",
                    "must be a non-zero number of milliseconds, at most 59940000 either way",
                    entityID: "t"
                )
        }
        #expect(board == before)
    }
}
