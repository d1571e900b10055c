import BoardCore
import PropertyBased
import TestSupport
import Testing

/// Keys stay valid and short under any sequence of edits, and the display order is exactly the
/// order the edits asked for (checked against a plain list per section).
@Suite struct OrderPropertyTests {
    private static let sections: [EntityID] = ["s0", "s1", "s2"]

    @Test func fortyThousandRandomAddsAndMovesKeepEveryKeyShortAndInOrder() throws {
        var rng = SeededGenerator(seed: 12)
        var board = Board()
        var model: [EntityID: [EntityID]] = [:]
        for section in Self.sections {
            _ = try board.apply([.addSection(id: section, title: "S", isExpanded: true, position: .last)], now: 0)
            model[section] = []
        }
        var nextID = 0
        var longest = 0
        var rekeys = 0
        var problems: [String] = []
        // A favourite spot that every second placement hits: the fraction's worst case. It makes
        // the board re-key 4 times in 40,000 steps (one in three made it 2 times in 100,000,
        // at twice the run time in a debug build).
        var hotAnchor: EntityID?
        for step in 0..<40_000 {
            let section = Self.sections.randomElement(using: &rng)!
            let list = model[section]!
            let (operation, expected, touched) = randomOperation(
                in: section,
                list: list,
                model: model,
                hotAnchor: &hotAnchor,
                nextID: &nextID,
                rng: &rng
            )
            let changes = try board.apply([operation], now: 0)
            if changes.count > 2 { rekeys += 1 }
            for (id, ids) in expected { model[id] = ids }
            // Checked by hand and reported once: millions of #expect calls would dominate the run.
            for id in touched {
                let shown = board.orderedTimers(in: id)
                if shown.map(\.id) != model[id]! { problems.append("step \(step): \(operation) gave \(shown.map(\.id))") }
                for timer in shown {
                    if !timer.order.isCanonical { problems.append("step \(step): \(timer.order) is not canonical") }
                    longest = max(longest, timer.order.rawValue.utf8.count)
                }
            }
            if problems.count > 10 { break }
        }
        #expect(problems.isEmpty, "\(problems)")
        #expect(longest <= OrderKey.rekeyLength)
        #expect(rekeys > 1, "the hot spot must have made the board re-key, and more than once")
    }

    private func randomOperation(
        in section: EntityID,
        list: [EntityID],
        model: [EntityID: [EntityID]],
        hotAnchor: inout EntityID?,
        nextID: inout Int,
        rng: inout SeededGenerator
    ) -> (BoardOperation, [EntityID: [EntityID]], [EntityID]) {
        func position(for ids: [EntityID]) -> (Position, Int) {
            if let anchor = hotAnchor, let index = ids.firstIndex(of: anchor), Int.random(in: 0..<2, using: &rng) == 0 {
                return (.after(anchor), index + 1)
            }
            switch Int.random(in: 0..<4, using: &rng) {
            case 0: return (.first, 0)
            case 1: return (.last, ids.count)
            case 2 where !ids.isEmpty:
                let index = Int.random(in: 0..<ids.count, using: &rng)
                return (.before(ids[index]), index)
            case 3 where !ids.isEmpty:
                let index = Int.random(in: 0..<ids.count, using: &rng)
                return (.after(ids[index]), index + 1)
            default: return (.first, 0)
            }
        }
        // Adds while a section is small, deletes keep it from growing past 60 (debug builds sort
        // slowly, and 40,000 steps must stay quick); the hot spot is never deleted.
        let roll = Int.random(in: 0..<10, using: &rng)
        let deletable = list.filter { $0 != hotAnchor }
        if !deletable.isEmpty, list.count > 60 || roll == 0 {
            let id = deletable.randomElement(using: &rng)!
            return (.deleteTimer(id: id), [section: list.filter { $0 != id }], [section])
        }
        if roll < 5 || list.isEmpty {
            let id = EntityID("t\(nextID)")!
            nextID += 1
            if hotAnchor == nil { hotAnchor = id }
            var ids = list
            let (where_, index) = position(for: ids)
            ids.insert(id, at: index)
            return (.addTimer(id: id, sectionID: section, title: "T", minutes: 1, seconds: 0, position: where_), [section: ids], [section])
        }
        // A move, sometimes into another section.
        let id = list.randomElement(using: &rng)!
        let target = roll == 9 ? Self.sections.randomElement(using: &rng)! : section
        let source = list.filter { $0 != id }
        var ids = target == section ? source : model[target]!
        let (where_, index) = position(for: ids)
        ids.insert(id, at: index)
        let expected = target == section ? [section: ids] : [section: source, target: ids]
        return (.moveTimer(id: id, sectionID: target, position: where_), expected, Array(expected.keys))
    }

    @Test func insertingAThousandTimesAtOneSpotReKeysTheSiblingsInOneChangeset() throws {
        var board = Board()
        _ = try board.apply([.addSection(id: "s", title: "S", isExpanded: true, position: .first)], now: 0)
        _ = try board.apply([.addTimer(id: "anchor", sectionID: "s", title: "A", minutes: 1, seconds: 0, position: .first)], now: 0)
        _ = try board.apply([.addTimer(id: "end", sectionID: "s", title: "E", minutes: 1, seconds: 0, position: .last)], now: 0)
        var biggest = 0
        for index in 0..<1_000 {
            let changes = try board.apply(
                [.addTimer(id: EntityID("t\(index)")!, sectionID: "s", title: "T", minutes: 1, seconds: 0, position: .after("anchor"))],
                now: 0
            )
            biggest = max(biggest, changes.count)
        }
        let ordered = board.orderedTimers(in: "s")
        #expect(ordered.map(\.id.rawValue) == ["anchor"] + (0..<1_000).reversed().map { "t\($0)" } + ["end"])
        #expect(ordered.allSatisfy { $0.order.isCanonical && $0.order.rawValue.utf8.count <= OrderKey.rekeyLength })
        #expect(biggest > 1, "a re-key updates siblings in the edit's own changeset")
    }

    @Test func aBoardWithOverLongOrOldKeysIsRepairedInItsDisplayOrder() throws {
        let long = OrderKey(stored: String(repeating: "z", count: 300))
        let board = try Board(
            sections: [
                Section(id: "s1", title: "A", createdDate: 0, order: OrderKey(stored: "V")),
                Section(id: "s2", title: "B", createdDate: 0, order: long),
            ],
            timers: [
                BoardTimer(id: "t1", sectionID: "s1", title: "x", minutes: 1, seconds: 0, createdDate: 0, order: long),
                BoardTimer(id: "t2", sectionID: "s1", title: "y", minutes: 1, seconds: 0, createdDate: 0, order: OrderKey(stored: "")),
                BoardTimer(id: "t3", sectionID: "s2", title: "z", minutes: 1, seconds: 0, createdDate: 0, order: "a5"),
            ]
        )
        let (repaired, changes) = board.repairedOrder()
        #expect(repaired.orderedSections.map(\.id) == board.orderedSections.map(\.id))
        #expect(repaired.orderedTimers.map(\.id) == board.orderedTimers.map(\.id))
        #expect(repaired.sections.values.allSatisfy { $0.order.isCanonical })
        #expect(repaired.timers.values.allSatisfy { $0.order.isCanonical })
        #expect(try apply(changes, to: board) == repaired)
        // The canonical list (s2's timer) is left alone: no change names t3.
        #expect(repaired.timers["t3"]?.order == "a5")
        #expect(board.repairedOrder().changes.count == changes.count)
        #expect(repaired.repairedOrder().changes.isEmpty)
    }
}
