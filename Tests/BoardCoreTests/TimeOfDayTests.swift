import BoardCore
import Testing

/// Time of day: a start at an instant, finishing together, counting up, counting to a time.
@Suite struct TimeOfDayTests {
    static let nine: Int64 = 1_763_798_400_000  // an instant, as server epoch ms

    private func board(_ timers: [BoardTimer] = []) -> Board {
        try! Board(sections: [Section(id: "s", title: "Breakfast", createdDate: 0, order: "a0")], timers: timers)
    }

    private func timer(_ id: EntityID, minutes: Int, order: OrderKey = "a0", kind: TimerKind = .countdown) -> BoardTimer {
        BoardTimer(id: id, sectionID: "s", title: "\(id)", minutes: minutes, seconds: 0, createdDate: 0, order: order, kind: kind)
    }

    // MARK: A start at an instant

    /// The server starts it at exactly that instant, whenever it looks (a wake-up on time, or a
    /// board loaded after the instant): `startedAt == startAt`, and the schedule is forgotten.
    @Test(arguments: [Self.nine, Self.nine + 1, Self.nine + 90_000])
    func aScheduledStartStartsAtItsInstantWhenTheServerLooksLater(looksAt: Int64) throws {
        var board = board([timer("t", minutes: 5)])
        _ = try board.apply([.updateTimer(id: "t", title: nil, minutes: nil, seconds: nil, startAt: Self.nine)], now: Self.nine - 60_000)
        #expect(board.nextDeadline == Self.nine)
        _ = board.finishExpiredTimers(now: looksAt)
        #expect(board.timers["t"]!.run == TimerRun(status: .running, startedAt: Self.nine, elapsed: 0))
        #expect(board.timers["t"]!.startAt == nil)
    }

    @Test func aScheduledStartThatAlsoRanOutWhileNobodyLookedFinishesAtItsDeadline() throws {
        var board = board([timer("t", minutes: 5)])
        _ = try board.apply([.updateTimer(id: "t", title: nil, minutes: nil, seconds: nil, startAt: Self.nine)], now: 0)
        _ = board.finishExpiredTimers(now: Self.nine + 600_000)
        #expect(board.timers["t"]!.run == TimerRun(status: .finished, elapsed: 300_000, finishedAt: Self.nine + 300_000))
    }

    @Test func aScheduleInThePastStartsAtOnceLateAndOneOnARunningTimerIsDropped() throws {
        var board = board([timer("t", minutes: 5), timer("u", minutes: 5, order: "a1")])
        _ = try board.apply([.updateTimer(id: "t", title: nil, minutes: nil, seconds: nil, startAt: Self.nine - 10_000)], now: Self.nine)
        #expect(board.timers["t"]!.run.startedAt == Self.nine, "started at the edit, 10 s late")
        _ = try board.apply([.startTimer(id: "u")], now: Self.nine)
        _ = try board.apply([.updateTimer(id: "u", title: nil, minutes: nil, seconds: nil, startAt: Self.nine + 60_000)], now: Self.nine)
        _ = board.finishExpiredTimers(now: Self.nine + 60_000)
        #expect(board.timers["u"]!.run.startedAt == Self.nine && board.timers["u"]!.startAt == nil, "it was running: the schedule is forgotten")
    }

    // MARK: Finish together

    /// The eggs, the toast and the coffee, all at 08:00: each starts at 08:00 minus its length
    /// and they finish in one changeset.
    @Test func threeTimersOfDifferentLengthsFinishTogether() throws {
        var board = board([timer("eggs", minutes: 7), timer("toast", minutes: 3, order: "a1"), timer("coffee", minutes: 4, order: "a2")])
        _ = try board.apply([.updateSection(id: "s", title: nil, isExpanded: nil, finishAt: Self.nine)], now: Self.nine - 3_600_000)
        #expect(board.timers.values.map(\.startAt).sorted { $0! < $1! } == [Self.nine - 420_000, Self.nine - 240_000, Self.nine - 180_000])
        _ = board.finishExpiredTimers(now: Self.nine - 1)
        #expect(board.timers.values.allSatisfy { $0.run.status == .running && $0.deadline == Self.nine })
        let changes = board.finishExpiredTimers(now: Self.nine)
        #expect(changes.count == 3 && board.timers.values.allSatisfy { $0.run.finishedAt == Self.nine })
    }

    @Test func aNewLengthMovesTheStartAndClearingFinishAtClearsTheStarts() throws {
        var board = board([timer("eggs", minutes: 7)])
        _ = try board.apply([.updateSection(id: "s", title: nil, isExpanded: nil, finishAt: Self.nine)], now: 0)
        _ = try board.apply([.updateTimer(id: "eggs", title: nil, minutes: 9, seconds: nil)], now: 0)
        #expect(board.timers["eggs"]!.startAt == Self.nine - 540_000)
        _ = try board.apply([.updateSection(id: "s", title: nil, isExpanded: nil, finishAt: .some(nil))], now: 0)
        #expect(board.timers["eggs"]!.startAt == nil)
    }

    // MARK: Kinds

    @Test func aStopwatchCountsUpWithoutEndAndAClockDoesNotRun() throws {
        var board = board([timer("lap", minutes: 0, kind: .countUp), timer("clock", minutes: 0, order: "a1", kind: .clock)])
        _ = try board.apply([.startTimer(id: "lap")], now: 0)
        #expect(board.timers["lap"]!.deadline == nil && board.timers["lap"]!.run.elapsed(at: 3_600_000) == 3_600_000)
        #expect(throws: EditError.self) { try board.apply([.startTimer(id: "clock")], now: 0) }
    }

    @Test func aTimerCountingToATimeOfDayFinishesThenWhateverItsLength() throws {
        var board = board()
        _ = try board.apply(
            [.addTimer(id: "doors", sectionID: "s", title: "Doors", minutes: 0, seconds: 0, position: .last, kind: .toTime, targetAt: Self.nine)],
            now: Self.nine - 1_800_000
        )
        _ = try board.apply([.startTimer(id: "doors")], now: Self.nine - 1_800_000)
        #expect(board.timers["doors"]!.remaining(at: Self.nine - 60_000) == 60_000)
        _ = board.finishExpiredTimers(now: Self.nine)
        #expect(board.timers["doors"]!.run.status == .finished && board.timers["doors"]!.run.finishedAt == Self.nine)
        #expect(throws: EditError.self) {
            try board.apply([.addTimer(id: "bad", sectionID: "s", title: "T", minutes: 1, seconds: 0, position: .last, kind: .toTime)], now: 0)
        }
    }

    // MARK: The display

    @Test func aMessageIsShownClearedAndTheBlackoutAndTimeZoneSetAsOneFieldEach() throws {
        var board = board()
        let shown = try board.apply([.showMessage(text: "Wrap up", flash: true)], now: 5)
        #expect(shown == [.updateDisplay(DisplayPatch(message: .show(ScreenMessage(text: "Wrap up", flash: true, shownAt: 5))))])
        #expect(try board.apply([.setBlackout(true)], now: 6) == [.updateDisplay(DisplayPatch(blackout: true))])
        #expect(try board.apply([.clearMessage], now: 7) == [.updateDisplay(DisplayPatch(message: .clear))])
        #expect(try board.apply([.setTimeZone("Europe/Paris")], now: 8) == [.updateDisplay(DisplayPatch(timeZone: "Europe/Paris"))])
        #expect(throws: EditError.self) { try board.apply([.setTimeZone("Mars/Olympus")], now: 9) }
        #expect(throws: EditError.self) { try board.apply([.showMessage(text: "  ", flash: false)], now: 9) }
        #expect(board.display == BoardDisplay(blackout: true, timeZone: "Europe/Paris"))
    }

    @Test func diffAndApplyCarryTheDisplay() throws {
        var new = board()
        new.display = BoardDisplay(message: ScreenMessage(text: "Break", flash: false, shownAt: 1), blackout: true, timeZone: "Asia/Tokyo")
        #expect(try apply(diff(board(), new), to: board()) == new)
    }
}
