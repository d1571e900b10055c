import BoardCore
import Testing

/// Sections whose timers run one after another: hand-overs at exact instants, loops, skip,
/// restart, and catching up however late the server looks.
@Suite struct SequenceTests {
    /// A sequence section "q" with timers of the given lengths in seconds, "t0", "t1", … in
    /// display order, and a plain section "p" with one 1:00 timer "solo".
    private func board(_ seconds: [Int], loop: Bool = false) -> Board {
        let timers = seconds.enumerated().map { index, length in
            BoardTimer(
                id: EntityID("t\(index)")!,
                sectionID: "q",
                title: "T\(index)",
                minutes: length / 60,
                seconds: length % 60,
                createdDate: 0,
                order: OrderKey.sequence(count: seconds.count)[index]
            )
        }
        return try! Board(
            sections: [
                Section(id: "q", title: "Rounds", createdDate: 0, order: "a0", sequence: true, loop: loop),
                Section(id: "p", title: "Plain", createdDate: 0, order: "a1"),
            ],
            timers: timers + [BoardTimer(id: "solo", sectionID: "p", title: "Solo", minutes: 1, seconds: 0, createdDate: 0, order: "a0")]
        )
    }

    private func run(_ board: Board, _ id: EntityID) -> TimerRun { board.timers[id]!.run }

    @Test func startSectionStartsOnlyTheFirstTimerOfASequence() throws {
        var board = board([10, 20, 30])
        let changes = try board.apply([.startSection(id: "q")], now: 1_000)
        #expect(changes == [.updateTimer("t0", TimerPatch(run: TimerRun(status: .running, startedAt: 1_000, elapsed: 0)))])
    }

    @Test func whenATimerReachesZeroTheNextStartsAtThatInstantInOneChangeset() throws {
        var board = board([10, 20, 30])
        _ = try board.apply([.startSection(id: "q")], now: 1_000)
        #expect(board.nextDeadline == 11_000)
        // Noticed 37 ms late: the instants are still the deadline's.
        let changes = board.finishExpiredTimers(now: 11_037)
        #expect(
            changes == [
                .updateTimer("t0", TimerPatch(run: TimerRun(status: .finished, elapsed: 10_000, finishedAt: 11_000))),
                .updateTimer("t1", TimerPatch(run: TimerRun(status: .running, startedAt: 11_000, elapsed: 0))),
            ]
        )
    }

    @Test func aSequenceCaughtUpLateReplaysEveryHandOverAtItsExactInstant() throws {
        var board = board([10, 20, 30, 40, 50])
        _ = try board.apply([.startSection(id: "q")], now: 0)
        // Looked at only once, 75 s in (10 + 20 + 30 = 60 s done, 15 s into t3).
        _ = board.finishExpiredTimers(now: 75_000)
        #expect(run(board, "t0").finishedAt == 10_000)
        #expect(run(board, "t1").finishedAt == 30_000)
        #expect(run(board, "t2").finishedAt == 60_000)
        #expect(run(board, "t3") == TimerRun(status: .running, startedAt: 60_000, elapsed: 0))
        #expect(board.timers["t3"]!.remaining(at: 75_000) == 25_000)
        #expect(run(board, "t4") == .idle)
        // After the end: the last one finished at the sum of all lengths, and shows overtime.
        _ = board.finishExpiredTimers(now: 1_000_000)
        #expect(run(board, "t4").finishedAt == 150_000)
        #expect(board.timers["t4"]!.overtime(at: 1_000_000) == 850_000)
        #expect(board.nextDeadline == nil)
    }

    @Test func aLoopStartsItsFirstTimerAgainAfterTheLastWithTheOthersIdle() throws {
        var board = board([10, 20], loop: true)
        _ = try board.apply([.startSection(id: "q")], now: 0)
        _ = board.finishExpiredTimers(now: 10_000)
        let changes = board.finishExpiredTimers(now: 30_000)
        #expect(
            Set(changes) == [
                .updateTimer("t1", TimerPatch(run: .idle)),
                .updateTimer("t0", TimerPatch(run: TimerRun(status: .running, startedAt: 30_000, elapsed: 0))),
            ]
        )
    }

    @Test func aLoopCaughtUpAfterLongDowntimeSkipsWholeRoundsByArithmetic() throws {
        var board = board([10, 20], loop: true)
        _ = try board.apply([.startSection(id: "q")], now: 0)
        // A million rounds of 30 s, then 25 s into the next: 15 s into t1.
        let now: Int64 = 1_000_000 * 30_000 + 25_000
        _ = board.finishExpiredTimers(now: now)
        #expect(run(board, "t0") == TimerRun(status: .finished, elapsed: 10_000, finishedAt: now - 15_000))
        #expect(run(board, "t1") == TimerRun(status: .running, startedAt: now - 15_000, elapsed: 0))
    }

    @Test func aLoopOfTotalLengthZeroNeverLoops() throws {
        var board = board([0, 0], loop: true)
        _ = try board.apply([.startSection(id: "q")], now: 5)
        _ = board.finishExpiredTimers(now: 5)
        #expect(run(board, "t0").status == .finished)
        #expect(run(board, "t1") == TimerRun(status: .finished, elapsed: 0, finishedAt: 5))
        #expect(board.nextDeadline == nil)
    }

    @Test func skipFinishesTheCurrentTimerNowAndStartsTheNext() throws {
        var board = board([10, 20, 30])
        _ = try board.apply([.startSection(id: "q")], now: 0)
        let changes = try board.apply([.skipSection(id: "q")], now: 4_000)
        #expect(
            changes == [
                .updateTimer("t0", TimerPatch(run: TimerRun(status: .finished, elapsed: 10_000, finishedAt: 4_000))),
                .updateTimer("t1", TimerPatch(run: TimerRun(status: .running, startedAt: 4_000, elapsed: 0))),
            ]
        )
        // A paused sequence skips too, and runs on from the next timer.
        _ = try board.apply([.pauseSection(id: "q")], now: 5_000)
        _ = try board.apply([.skipSection(id: "q")], now: 9_000)
        #expect(run(board, "t1").status == .finished)
        #expect(run(board, "t2") == TimerRun(status: .running, startedAt: 9_000, elapsed: 0))
        // Past the last, without a loop: it ends; with nothing current, a skip changes nothing.
        _ = try board.apply([.skipSection(id: "q")], now: 10_000)
        #expect(board.nextDeadline == nil)
        #expect(try board.apply([.skipSection(id: "q")], now: 11_000) == [])
    }

    @Test func restartPutsEveryTimerBackAndStartsTheFirstNow() throws {
        var board = board([10, 20, 30])
        _ = try board.apply([.startSection(id: "q")], now: 0)
        _ = board.finishExpiredTimers(now: 15_000)
        _ = try board.apply([.restartSection(id: "q")], now: 16_000)
        #expect(run(board, "t0") == TimerRun(status: .running, startedAt: 16_000, elapsed: 0))
        #expect(run(board, "t1") == .idle)
        #expect(run(board, "t2") == .idle)
    }

    @Test func startSectionResumesThePausedTimerOrTheFirstUnfinishedOrTheFirst() throws {
        var board = board([10, 20, 30])
        _ = try board.apply([.startSection(id: "q")], now: 0)
        _ = board.finishExpiredTimers(now: 10_000)
        _ = try board.apply([.pauseSection(id: "q")], now: 15_000)
        _ = try board.apply([.startSection(id: "q")], now: 20_000)
        #expect(run(board, "t1") == TimerRun(status: .running, startedAt: 20_000, elapsed: 5_000))
        #expect(try board.apply([.startSection(id: "q")], now: 21_000) == [], "one runs already: it never starts a second")
        // All finished: the first starts again.
        _ = board.finishExpiredTimers(now: 1_000_000)
        _ = try board.apply([.startSection(id: "q")], now: 1_000_000)
        #expect(run(board, "t0") == TimerRun(status: .running, startedAt: 1_000_000, elapsed: 0))
        #expect(run(board, "t1").status == .finished, "reset when its turn comes")
        _ = board.finishExpiredTimers(now: 1_010_000)
        #expect(run(board, "t1") == TimerRun(status: .running, startedAt: 1_010_000, elapsed: 0))
    }

    @Test func skipAndRestartInAPlainSectionAreRefusedAndChangeNothing() throws {
        var board = board([10])
        _ = try board.apply([.startTimer(id: "solo")], now: 0)
        let before = board
        for op: BoardOperation in [.skipSection(id: "p"), .restartSection(id: "p")] {
            #expect {
                try board.apply([op], now: 1_000)
            } throws: { error in
                (error as? EditError)?.error.kind == .invalidState
            }
        }
        #expect(board == before)
    }

    @Test func aSectionThatIsNoLongerASequenceDoesNotHandOver() throws {
        var board = board([10, 20])
        _ = try board.apply([.updateSection(id: "q", title: nil, isExpanded: nil, sequence: false)], now: 0)
        _ = try board.apply([.startTimer(id: "t0")], now: 0)
        let changes = board.finishExpiredTimers(now: 60_000)
        #expect(changes.map(\.entityID) == ["t0"])
        #expect(run(board, "t1") == .idle)
    }

    @Test func aNegativeAdjustmentThatEndsARunningTimerHandsOverNow() throws {
        var board = board([10, 20])
        _ = try board.apply([.startSection(id: "q")], now: 0)
        _ = try board.apply([.adjustTimer(id: "t0", by: -60_000)], now: 3_000)
        #expect(run(board, "t0").finishedAt == 3_000)
        #expect(run(board, "t1") == TimerRun(status: .running, startedAt: 3_000, elapsed: 0))
    }
}
