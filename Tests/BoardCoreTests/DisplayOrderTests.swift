import BoardCore
import PropertyBased
import TestSupport
import Testing

/// The ordered views against the plain definition of display order: one sort of everything
/// by (section rank, order, id). RandomBoards draws order keys from a pool of seven, so equal
/// keys, where only the id breaks the tie, are common.
@Suite struct DisplayOrderTests {
    @Test func orderedViewsMatchOneSortByRankOrderAndID() async {
        await propertyCheck(count: 2_000, input: Gen.int(in: 0...Int.max)) { seed in
            var rng = SeededGenerator(seed: seed)
            let board = RandomBoards.board(using: &rng)
            #expect(board.orderedSections == Reference.orderedSections(board))
            #expect(board.orderedTimers == Reference.orderedTimers(board))
            for id in RandomBoards.idPool {
                #expect(board.orderedTimers(in: id) == Reference.orderedTimers(board).filter { $0.sectionID == id })
            }
        }
    }

    /// A hand-built board may hold a timer whose section is missing; it has always been listed
    /// with the first section's timers, and a faster ordering must not drop or move it.
    @Test func aTimerWithoutItsSectionIsListedWithTheFirstSection() async {
        await propertyCheck(count: 1_000, input: Gen.int(in: 0...Int.max)) { seed in
            var rng = SeededGenerator(seed: seed)
            var board = RandomBoards.board(using: &rng)
            let missing: EntityID = "missing-section"
            for id in board.timers.keys where Bool.random(using: &rng) {
                board.timers[id]!.sectionID = missing
            }
            #expect(board.orderedTimers == Reference.orderedTimers(board))
            #expect(board.orderedTimers.count == board.timers.count)
        }
    }

    @Test func timersWithoutAnySectionAreOrderedByKeyThenID() {
        let timers: [BoardTimer] = [
            BoardTimer(id: "b", sectionID: "gone", title: "x", minutes: 1, seconds: 0, createdDate: 0, order: "V"),
            BoardTimer(id: "a", sectionID: "also-gone", title: "x", minutes: 1, seconds: 0, createdDate: 0, order: "V"),
            BoardTimer(id: "c", sectionID: "gone", title: "x", minutes: 1, seconds: 0, createdDate: 0, order: "A"),
        ]
        let board = Board(timers: Dictionary(uniqueKeysWithValues: timers.map { ($0.id, $0) }))
        #expect(board.orderedTimers.map(\.id) == ["c", "a", "b"])
    }
}

/// The definitions the ordered views had before they were made linear in the board's size;
/// kept here, verbatim, as the reference they must agree with.
enum Reference {
    static func orderedSections(_ board: Board) -> [Section] {
        board.sections.values.sorted { ($0.order, $0.id) < ($1.order, $1.id) }
    }

    static func orderedTimers(_ board: Board) -> [BoardTimer] {
        let sectionRank = Dictionary(uniqueKeysWithValues: orderedSections(board).enumerated().map { ($1.id, $0) })
        return board.timers.values.sorted {
            (sectionRank[$0.sectionID] ?? 0, $0.order, $0.id) < (sectionRank[$1.sectionID] ?? 0, $1.order, $1.id)
        }
    }

    /// `diff` as it was: every id of either board, sorted, compared one by one.
    static func diff(_ old: Board, _ new: Board) -> [Change] {
        var sectionInserts: [Change] = []
        var sectionUpdates: [Change] = []
        var sectionDeletes: [Change] = []
        for id in Set(old.sections.keys).union(new.sections.keys).sorted() {
            switch (old.sections[id], new.sections[id]) {
            case (nil, let new?): sectionInserts.append(.insertSection(new))
            case (_?, nil): sectionDeletes.append(.deleteSection(id))
            case (let old?, let new?):
                let patch = SectionPatch(from: old, to: new)
                if !patch.isEmpty { sectionUpdates.append(.updateSection(id, patch)) }
            case (nil, nil): break
            }
        }
        var timerInserts: [Change] = []
        var timerUpdates: [Change] = []
        var timerDeletes: [Change] = []
        for id in Set(old.timers.keys).union(new.timers.keys).sorted() {
            switch (old.timers[id], new.timers[id]) {
            case (nil, let new?): timerInserts.append(.insertTimer(new))
            case (_?, nil): timerDeletes.append(.deleteTimer(id))
            case (let old?, let new?):
                let patch = TimerPatch(from: old, to: new)
                if !patch.isEmpty { timerUpdates.append(.updateTimer(id, patch)) }
            case (nil, nil): break
            }
        }
        return timerDeletes + sectionInserts + sectionUpdates + timerUpdates + sectionDeletes + timerInserts
    }
}
