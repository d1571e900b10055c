import BoardCore
import PropertyBased
import TestSupport
import Testing

@Suite struct DiffTests {
    @Test func applyingTheDiffOfTwoRandomBoardsGivesTheSecond() async {
        await propertyCheck(count: 2_000, input: Gen.int(in: 0...Int.max)) { seed in
            var rng = SeededGenerator(seed: seed)
            let a = RandomBoards.board(using: &rng)
            let b = RandomBoards.board(using: &rng)
            let changes = diff(a, b)
            #expect(throws: Never.self) { try apply(changes, to: a) }
            #expect((try? apply(changes, to: a)) == b)
        }
    }

    /// Same changes in the same order as comparing every id of both boards, including a second
    /// board made from the first by a few edits, where most ids are unchanged.
    @Test func diffMatchesComparingEveryID() async {
        await propertyCheck(count: 2_000, input: Gen.int(in: 0...Int.max)) { seed in
            var rng = SeededGenerator(seed: seed)
            let a = RandomBoards.board(using: &rng)
            let b = RandomBoards.board(using: &rng)
            #expect(diff(a, b) == Reference.diff(a, b))
            var c = a
            for id in a.timers.keys where Int.random(in: 0..<4, using: &rng) == 0 {
                c.timers[id]!.order = RandomBoards.orderKeys.randomElement(using: &rng)!
            }
            for id in a.sections.keys where Bool.random(using: &rng) {
                c.sections[id]!.title += "!"
            }
            #expect(diff(a, c) == Reference.diff(a, c))
            #expect(diff(c, a) == Reference.diff(c, a))
        }
    }

    @Test func aBoardDiffedWithItselfHasNoChanges() async {
        await propertyCheck(count: 500, input: Gen.int(in: 0...Int.max)) { seed in
            var rng = SeededGenerator(seed: seed)
            let a = RandomBoards.board(using: &rng)
            #expect(diff(a, a).isEmpty)
        }
    }

    @Test func oneChangedFieldGivesOneUpdateWithOneField() async {
        await propertyCheck(count: 500, input: Gen.int(in: 0...Int.max)) { seed in
            var rng = SeededGenerator(seed: seed)
            let a = RandomBoards.board(using: &rng)
            guard let section = a.sections.values.min(by: { $0.id < $1.id }) else { return }
            var b = a
            b.sections[section.id]!.title = section.title + " (renamed)"
            #expect(diff(a, b) == [.updateSection(section.id, SectionPatch(title: section.title + " (renamed)"))])

            var c = a
            c.sections[section.id]!.isExpanded.toggle()
            #expect(diff(a, c) == [.updateSection(section.id, SectionPatch(isExpanded: !section.isExpanded))])

            if let timer = a.timers.values.min(by: { $0.id < $1.id }) {
                var d = a
                d.timers[timer.id]!.minutes += 1
                #expect(diff(a, d) == [.updateTimer(timer.id, TimerPatch(minutes: timer.minutes + 1))])
            }
        }
    }

    @Test func aRemovedSectionComesAfterItsTimersAndAfterTimersThatLeaveIt() {
        let a = try! Board(
            sections: [Section(id: "s1", title: "A", createdDate: 0, order: "V"), Section(id: "s2", title: "B", createdDate: 0, order: "k")],
            timers: [
                BoardTimer(id: "t1", sectionID: "s1", title: "x", minutes: 1, seconds: 0, createdDate: 0, order: "V"),
                BoardTimer(id: "t2", sectionID: "s1", title: "y", minutes: 1, seconds: 0, createdDate: 0, order: "k"),
            ]
        )
        var b = a
        b.sections["s1"] = nil
        b.timers["t1"] = nil
        b.timers["t2"]!.sectionID = "s2"
        #expect(
            diff(a, b) == [
                .deleteTimer("t1"),
                .updateTimer("t2", TimerPatch(sectionID: "s2")),
                .deleteSection("s1"),
            ]
        )
    }
}
