import BoardCore
import TestSupport
import Testing

/// Undo: an edit undone puts back what it replaced, running state included, as if the mistake
/// never happened; what someone else changed since is left alone and named; a redo is an undo
/// of the undo.
@Suite struct UndoTests {
    /// A section "s" with a 5:00 timer "t" and a 1:00 timer "u".
    private func board() -> Board {
        try! Board(
            sections: [Section(id: "s", title: "Prep", createdDate: 0, order: "a0", sequence: true)],
            timers: [
                BoardTimer(id: "t", sectionID: "s", title: "Keynote", minutes: 5, seconds: 0, createdDate: 0, order: "a0"),
                BoardTimer(id: "u", sectionID: "s", title: "Q&A", minutes: 1, seconds: 0, createdDate: 0, order: "a1"),
            ]
        )
    }

    // MARK: Time

    /// Reset the running keynote by mistake, undo 30 s later: the time left is what it would
    /// have been without the reset.
    @Test(arguments: [
        (mistake: BoardOperation.resetTimer(id: "t"), name: "reset"),
        (mistake: .pauseTimer(id: "t"), name: "pause"),
        (mistake: .adjustTimer(id: "t", by: 60_000), name: "adjust"),
        (mistake: .skipSection(id: "s"), name: "skip"),
    ])
    func undoingAMistakeOnARunningTimerShowsTheTimeLeftAsIfItNeverHappened(mistake: BoardOperation, name: String) throws {
        var undone = board()
        _ = try undone.apply([.startTimer(id: "t")], now: 0)
        let untouched = undone
        let (_, record) = try undone.applyRecording([mistake], now: 100_000)
        let (_, _, skipped) = undone.undo(record, now: 130_000)
        #expect(skipped.isEmpty)
        #expect(undone.timers["t"]!.remaining(at: 130_000) == untouched.timers["t"]!.remaining(at: 130_000), "\(name)")
        #expect(undone.timers["t"]!.run.status == .running && undone.timers["u"]!.run.status == .idle)
        #expect(undone == untouched)
    }

    @Test func aDeletedSectionComesBackWithItsIdOrderAndTimers() throws {
        var board = board()
        let before = board
        let (_, record) = try board.applyRecording([.deleteSection(id: "s")], now: 5)
        #expect(board.sections.isEmpty && board.timers.isEmpty)
        _ = board.undo(record, now: 6)
        #expect(board == before)
    }

    @Test func aRedoIsAnUndoOfTheUndo() throws {
        var board = board()
        let (_, record) = try board.applyRecording([.updateSection(id: "s", title: "Mise en place", isExpanded: false)], now: 5)
        let after = board
        let (_, undoRecord, _) = board.undo(record, now: 6)
        #expect(board.sections["s"]!.title == "Prep" && board.sections["s"]!.isExpanded)
        _ = board.undo(undoRecord, now: 7)
        #expect(board == after)
    }

    // MARK: Others' edits

    /// Ada renames the section, Bob collapses it, then Cy renames it again. Ada's undo must
    /// not take Cy's title away; Bob's undo still expands it.
    @Test func twoPeopleUndoingNeverLoseAThirdPersonsLaterEdit() throws {
        var board = board()
        let (_, ada) = try board.applyRecording([.updateSection(id: "s", title: "Ada's", isExpanded: nil)], now: 1)
        let (_, bob) = try board.applyRecording([.updateSection(id: "s", title: nil, isExpanded: false)], now: 2)
        _ = try board.apply([.updateSection(id: "s", title: "Cy's", isExpanded: nil)], now: 3)
        let (adaChanges, _, adaSkipped) = board.undo(ada, now: 4)
        #expect(adaChanges.isEmpty && adaSkipped == [SkippedField(id: "s", field: "title")])
        let (_, _, bobSkipped) = board.undo(bob, now: 5)
        #expect(bobSkipped.isEmpty)
        #expect(board.sections["s"]!.title == "Cy's" && board.sections["s"]!.isExpanded)
    }

    @Test func anAddedTimerSomeoneStartedSinceIsNotDeleted() throws {
        var board = board()
        let (_, record) = try board.applyRecording(
            [.addTimer(id: "n", sectionID: "s", title: "New", minutes: 1, seconds: 0, position: .last)],
            now: 1
        )
        _ = try board.apply([.startTimer(id: "n")], now: 2)
        let (changes, _, skipped) = board.undo(record, now: 3)
        #expect(changes.isEmpty && skipped == [SkippedField(id: "n", field: "timer")])
    }

    @Test func aDeletedTimerWhoseSectionIsGoneIsNotPutBack() throws {
        var board = board()
        let (_, record) = try board.applyRecording([.deleteTimer(id: "u")], now: 1)
        _ = try board.apply([.deleteSection(id: "s")], now: 2)
        let (changes, _, skipped) = board.undo(record, now: 3)
        #expect(changes.isEmpty && skipped == [SkippedField(id: "u", field: "timer")])
    }

    // MARK: Any edit

    /// Random edits on random boards: undone at once, the board is as before; redone, as after.
    @Test(arguments: 0..<200)
    func anEditUndoneAtOnceLeavesTheBoardAsItWasAndARedoAsItWasAfter(seed: UInt64) throws {
        var rng = SeededGenerator(seed: seed)
        var board = RandomBoards.board(using: &rng)
        let before = board
        let operations = (0..<Int.random(in: 1...3, using: &rng)).map { _ in Self.operation(on: board, using: &rng) }
        guard let (_, record) = try? board.applyRecording(operations, now: 1_000_000) else { return }
        let after = board
        let (_, undoRecord, skipped) = board.undo(record, now: 1_000_001)
        #expect(skipped.isEmpty && board == before, "\(operations)")
        _ = board.undo(undoRecord, now: 1_000_002)
        #expect(board == after, "\(operations)")
    }

    private static func operation(on board: Board, using rng: inout SeededGenerator) -> BoardOperation {
        let section = board.sections.keys.randomElement(using: &rng) ?? "e0"
        let timer = board.timers.keys.randomElement(using: &rng) ?? "e1"
        let fresh = EntityID("n\(Int.random(in: 0..<1_000, using: &rng))")!
        switch Int.random(in: 0..<12, using: &rng) {
        case 0: return .addSection(id: fresh, title: "New", isExpanded: true, position: .first)
        case 1: return .updateSection(id: section, title: "Renamed", isExpanded: Bool.random(using: &rng))
        case 2: return .moveSection(id: section, position: .last)
        case 3: return .deleteSection(id: section)
        case 4: return .addTimer(id: fresh, sectionID: section, title: "T", minutes: 2, seconds: 0, position: .first)
        case 5: return .updateTimer(id: timer, title: "Renamed", minutes: 3, seconds: nil)
        case 6: return .moveTimer(id: timer, sectionID: section, position: .first)
        case 7: return .deleteTimer(id: timer)
        case 8: return .startTimer(id: timer)
        case 9: return .pauseTimer(id: timer)
        case 10: return .resetTimer(id: timer)
        default: return .adjustTimer(id: timer, by: 30_000)
        }
    }
}
