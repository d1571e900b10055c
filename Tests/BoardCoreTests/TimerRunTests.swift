import BoardCore
import Testing

/// Starting, pausing, resuming, resetting and expiry, with the clock passed in explicitly.
@Suite struct TimerRunTests {
    /// A board with one section and two timers of 1:00 and 2:00.
    private func board() -> Board {
        try! Board(
            sections: [Section(id: "s", title: "Prep", createdDate: 0, order: "V")],
            timers: [
                BoardTimer(id: "a", sectionID: "s", title: "A", minutes: 1, seconds: 0, createdDate: 0, order: "V"),
                BoardTimer(id: "b", sectionID: "s", title: "B", minutes: 2, seconds: 0, createdDate: 0, order: "k"),
            ]
        )
    }

    @Test func startPauseResumeAndExpiryGiveTheRightStatesAndChanges() throws {
        var board = board()
        #expect(
            try board.apply([.startTimer(id: "a")], now: 1_000) == [
                .updateTimer("a", TimerPatch(run: TimerRun(status: .running, startedAt: 1_000, elapsed: 0)))
            ]
        )
        #expect(board.nextDeadline == 61_000)
        #expect(board.timers["a"]!.remaining(at: 31_000) == 30_000)

        #expect(
            try board.apply([.pauseTimer(id: "a")], now: 21_000) == [.updateTimer("a", TimerPatch(run: TimerRun(status: .paused, elapsed: 20_000)))]
        )
        #expect(board.nextDeadline == nil)
        #expect(board.timers["a"]!.remaining(at: 99_000) == 40_000, "a paused timer does not count")

        // Resume keeps what was counted: 40 s left from 100 s.
        _ = try board.apply([.startTimer(id: "a")], now: 100_000)
        #expect(board.nextDeadline == 140_000)
        #expect(board.finishExpiredTimers(now: 139_999).isEmpty)
        #expect(
            board.finishExpiredTimers(now: 140_000) == [
                .updateTimer("a", TimerPatch(run: TimerRun(status: .finished, elapsed: 60_000, finishedAt: 140_000)))
            ]
        )
        #expect(board.timers["a"]!.remaining(at: 200_000) == 0)
        #expect(board.nextDeadline == nil)

        // Start on a finished timer runs it again from the full length; reset makes it idle.
        _ = try board.apply([.startTimer(id: "a")], now: 300_000)
        #expect(board.timers["a"]!.run == TimerRun(status: .running, startedAt: 300_000, elapsed: 0))
        #expect(try board.apply([.resetTimer(id: "a")], now: 310_000) == [.updateTimer("a", TimerPatch(run: .idle))])
    }

    @Test func startingARunningTimerOrPausingAnIdleOneChangesNothing() throws {
        var board = board()
        _ = try board.apply([.startTimer(id: "a")], now: 1_000)
        #expect(try board.apply([.startTimer(id: "a"), .pauseTimer(id: "b")], now: 5_000) == [])
    }

    @Test func aSectionStartsAndPausesAllItsTimersInOneChangeset() throws {
        var board = board()
        _ = try board.apply([.startTimer(id: "a"), .pauseTimer(id: "a")], now: 0)
        let started = try board.apply([.startSection(id: "s")], now: 10_000)
        #expect(started.count == 2)
        #expect(board.timers.values.allSatisfy { $0.run.status == .running })
        let paused = try board.apply([.pauseSection(id: "s")], now: 20_000)
        #expect(paused.count == 2)
        #expect(board.timers["b"]!.run == TimerRun(status: .paused, elapsed: 10_000))
    }

    @Test func expiredTimersFinishTogetherInOneChangeset() throws {
        var board = board()
        _ = try board.apply([.startSection(id: "s")], now: 0)
        let changes = board.finishExpiredTimers(now: 500_000)
        #expect(Set(changes.map(\.entityID)) == ["a", "b"])
        #expect(board.timers.values.allSatisfy { $0.run.status == .finished })
    }

    @Test func aShorterLengthKeepsTheCountedTimeAndFinishesATimerAlreadyPastIt() throws {
        var board = board()
        _ = try board.apply([.startTimer(id: "b")], now: 0)
        // 2:00 → 1:30 after 40 s: 50 s left, the deadline moves.
        _ = try board.apply([.updateTimer(id: "b", title: nil, minutes: 1, seconds: 30)], now: 40_000)
        #expect(board.timers["b"]!.run.status == .running)
        #expect(board.nextDeadline == 90_000)
        // → 0:30 after 60 s: already past, so finished now.
        let changes = try board.apply([.updateTimer(id: "b", title: nil, minutes: 0, seconds: 30)], now: 60_000)
        #expect(changes == [.updateTimer("b", TimerPatch(minutes: 0, run: TimerRun(status: .finished, elapsed: 30_000, finishedAt: 60_000)))])
    }

    @Test func pausingAfterTheDeadlineFinishes() throws {
        var board = board()
        _ = try board.apply([.startTimer(id: "a")], now: 0)
        _ = try board.apply([.pauseTimer(id: "a")], now: 75_000)
        // It reached zero at its deadline, not when the pause came.
        #expect(board.timers["a"]!.run == TimerRun(status: .finished, elapsed: 60_000, finishedAt: 60_000))
    }

    @Test func runOperationsOnMissingEntitiesAreRefused() {
        var board = board()
        for op: BoardOperation in [.startTimer(id: "x"), .pauseTimer(id: "s"), .resetTimer(id: "x"), .startSection(id: "a"), .pauseSection(id: "x")] {
            #expect(throws: EditError.self) { try board.apply([op], now: 0) }
        }
        #expect(board == self.board())
    }
}
