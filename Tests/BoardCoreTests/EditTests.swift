import BoardCore
import Testing

/// A board with two sections (s1 above s2) and two timers in s1 (t1 above t2).
private func sampleBoard() -> Board {
    try! Board(
        sections: [
            Section(id: "s1", title: "Prep", isExpanded: true, createdDate: 1, order: "a0"),
            Section(id: "s2", title: "Bake", isExpanded: true, createdDate: 2, order: "a1"),
        ],
        timers: [
            BoardTimer(id: "t1", sectionID: "s1", title: "Eggs", minutes: 7, seconds: 30, createdDate: 3, order: "a0"),
            BoardTimer(id: "t2", sectionID: "s1", title: "Tea", minutes: 3, seconds: 0, createdDate: 4, order: "a1"),
        ]
    )
}

private let now: Int64 = 1_000

@Suite struct EditTests {
    struct Case: CustomTestStringConvertible, Sendable {
        let name: String
        let ops: [BoardOperation]
        let expected: [Change]
        var testDescription: String { name }
    }

    static let accepted: [Case] = [
        Case(
            name: "a title edit is one update with one field",
            ops: [.updateSection(id: "s1", title: "Mise en place", isExpanded: nil)],
            expected: [.updateSection("s1", SectionPatch(title: "Mise en place"))]
        ),
        Case(
            name: "an expand toggle is one update with one field",
            ops: [.updateSection(id: "s2", title: nil, isExpanded: false)],
            expected: [.updateSection("s2", SectionPatch(isExpanded: false))]
        ),
        Case(
            name: "setting the values already there changes nothing",
            ops: [.updateSection(id: "s1", title: "Prep", isExpanded: true)],
            expected: []
        ),
        Case(
            name: "a new section goes first by default",
            ops: [.addSection(id: "s3", title: "Serve", isExpanded: true, position: .first)],
            expected: [.insertSection(Section(id: "s3", title: "Serve", createdDate: now, order: "Zz"))]
        ),
        Case(
            name: "a section added last goes after the last one",
            ops: [.addSection(id: "s3", title: "Serve", isExpanded: false, position: .last)],
            expected: [.insertSection(Section(id: "s3", title: "Serve", isExpanded: false, createdDate: now, order: "a2"))]
        ),
        Case(
            name: "a move is one update of the order key",
            ops: [.moveSection(id: "s1", position: .after("s2"))],
            expected: [.updateSection("s1", SectionPatch(order: "a2"))]
        ),
        Case(
            name: "a timer moved between two others gets a key between theirs",
            ops: [.moveTimer(id: "t2", sectionID: nil, position: .before("t1"))],
            expected: [.updateTimer("t2", TimerPatch(order: "Zz"))]
        ),
        Case(
            name: "a timer moved into an empty section: sectionID, and its key only if it differs",
            ops: [.moveTimer(id: "t1", sectionID: "s2", position: .first), .moveTimer(id: "t2", sectionID: "s2", position: .first)],
            expected: [.updateTimer("t1", TimerPatch(sectionID: "s2")), .updateTimer("t2", TimerPatch(sectionID: "s2", order: "Zz"))]
        ),
        Case(
            name: "a timer edit carries only the changed fields",
            ops: [.updateTimer(id: "t1", title: "Eggs", minutes: 6, seconds: 30)],
            expected: [.updateTimer("t1", TimerPatch(minutes: 6))]
        ),
        Case(
            name: "a section delete lists its timers' deletes first",
            ops: [.deleteSection(id: "s1")],
            expected: [.deleteTimer("t1"), .deleteTimer("t2"), .deleteSection("s1")]
        ),
        Case(
            name: "two renames in one edit give one update",
            ops: [.updateSection(id: "s1", title: "A", isExpanded: nil), .updateSection(id: "s1", title: "B", isExpanded: nil)],
            expected: [.updateSection("s1", SectionPatch(title: "B"))]
        ),
        Case(
            name: "an add then a delete in one edit gives nothing",
            ops: [
                .addTimer(id: "t3", sectionID: "s2", title: "Bread", minutes: 35, seconds: 0, position: .first),
                .deleteTimer(id: "t3"),
            ],
            expected: []
        ),
        Case(
            name: "a section and its first timer in one edit",
            ops: [
                .addSection(id: "s3", title: "Serve", isExpanded: true, position: .last),
                .addTimer(id: "t3", sectionID: "s3", title: "Plates", minutes: 0, seconds: 45, position: .first),
            ],
            expected: [
                .insertSection(Section(id: "s3", title: "Serve", createdDate: now, order: "a2")),
                .insertTimer(BoardTimer(id: "t3", sectionID: "s3", title: "Plates", minutes: 0, seconds: 45, createdDate: now, order: "a0")),
            ]
        ),
    ]

    @Test(arguments: accepted)
    func acceptedEditsGiveMinimalChanges(_ test: Case) throws {
        var board = sampleBoard()
        let before = board
        let changes = try board.apply(test.ops, now: now)
        #expect(changes == test.expected)
        // The changes are exactly what the edit did to the board.
        #expect(try apply(changes, to: before) == board)
    }

    struct Refusal: CustomTestStringConvertible, Sendable {
        let name: String
        let ops: [BoardOperation]
        let kind: BoardError.Kind
        let index: Int
        var testDescription: String { name }
    }

    static let refused: [Refusal] = [
        Refusal(name: "unknown section", ops: [.updateSection(id: "nope", title: "x", isExpanded: nil)], kind: .notFound, index: 0),
        Refusal(name: "a timer id used as a section", ops: [.deleteSection(id: "t1")], kind: .notFound, index: 0),
        Refusal(name: "unknown timer", ops: [.deleteTimer(id: "s1")], kind: .notFound, index: 0),
        Refusal(
            name: "an id a timer already has",
            ops: [.addSection(id: "t1", title: "x", isExpanded: true, position: .first)],
            kind: .duplicateID,
            index: 0
        ),
        Refusal(
            name: "an id deleted earlier in the same edit",
            ops: [.deleteTimer(id: "t1"), .addSection(id: "t1", title: "x", isExpanded: true, position: .first)],
            kind: .duplicateID,
            index: 1
        ),
        Refusal(name: "an empty title", ops: [.updateSection(id: "s1", title: "", isExpanded: nil)], kind: .invalidField, index: 0),
        Refusal(name: "a blank title", ops: [.updateSection(id: "s1", title: "  \t", isExpanded: nil)], kind: .invalidField, index: 0),
        Refusal(
            name: "a title over 200 characters",
            ops: [.updateTimer(id: "t1", title: String(repeating: "é", count: 201), minutes: nil, seconds: nil)],
            kind: .invalidField,
            index: 0
        ),
        Refusal(
            name: "a title with a newline",
            ops: [.updateSection(id: "s1", title: "a\nb", isExpanded: nil)],
            kind: .invalidField,
            index: 0
        ),
        // A page breaks the line at U+2028 as at a newline; zero-width spaces read as blank.
        Refusal(
            name: "a title with a line separator",
            ops: [.updateSection(id: "s1", title: "a\u{2028}b", isExpanded: nil)],
            kind: .invalidField,
            index: 0
        ),
        Refusal(
            name: "a title of zero-width spaces",
            ops: [.updateSection(id: "s1", title: "\u{200B}\u{200B}", isExpanded: nil)],
            kind: .invalidField,
            index: 0
        ),
        Refusal(name: "minutes over 999", ops: [.updateTimer(id: "t1", title: nil, minutes: 1_000, seconds: nil)], kind: .invalidField, index: 0),
        Refusal(name: "negative minutes", ops: [.updateTimer(id: "t1", title: nil, minutes: -1, seconds: nil)], kind: .invalidField, index: 0),
        Refusal(name: "60 seconds", ops: [.updateTimer(id: "t1", title: nil, minutes: nil, seconds: 60)], kind: .invalidField, index: 0),
        Refusal(
            name: "a timer in a missing section",
            ops: [.addTimer(id: "t9", sectionID: "s9", title: "x", minutes: 1, seconds: 0, position: .first)],
            kind: .notFound,
            index: 0
        ),
        Refusal(name: "a position naming the item itself", ops: [.moveSection(id: "s1", position: .after("s1"))], kind: .invalidField, index: 0),
        Refusal(
            name: "a position naming a non-sibling",
            ops: [.moveTimer(id: "t1", sectionID: nil, position: .after("s2"))],
            kind: .notFound,
            index: 0
        ),
        Refusal(
            name: "the second operation fails, so the first is undone",
            ops: [.updateSection(id: "s1", title: "Changed", isExpanded: false), .deleteTimer(id: "gone")],
            kind: .notFound,
            index: 1
        ),
    ]

    @Test(arguments: refused)
    func refusedEditsChangeNothing(_ test: Refusal) {
        var board = sampleBoard()
        #expect {
            _ = try board.apply(test.ops, now: now)
        } throws: { error in
            guard let error = error as? EditError else { return false }
            return error.error.kind == test.kind && error.operationIndex == test.index
        }
        #expect(board == sampleBoard())
    }

    @Test func sizeLimitsAreEnforced() {
        var board = sampleBoard()
        let limits = BoardLimits(maxSections: 2, maxTimers: 2)
        #expect(throws: EditError.self) {
            try board.apply([.addSection(id: "s3", title: "x", isExpanded: true, position: .first)], limits: limits, now: now)
        }
        #expect(throws: EditError.self) {
            try board.apply([.addTimer(id: "t3", sectionID: "s1", title: "x", minutes: 1, seconds: 0, position: .first)], limits: limits, now: now)
        }
        #expect(board == sampleBoard())
    }

    @Test func aTitleIsBoundedInBytesAsWellAsInCharacters() throws {
        var board = sampleBoard()
        // One character as a person counts it, 301 bytes: "e" and 150 combining acute accents.
        let heavy = "e" + String(repeating: "\u{301}", count: 150)
        #expect(heavy.count == 1 && heavy.utf8.count == 301)
        let title = String(repeating: heavy, count: 4)
        #expect(title.count == 4 && title.utf8.count > BoardLimits.maxTitleBytes)
        #expect(throws: EditError.self) { try board.apply([.updateSection(id: "s1", title: title, isExpanded: nil)], now: now) }
        #expect(board == sampleBoard())
        let fits = String(repeating: "é", count: 200)
        _ = try board.apply([.updateSection(id: "s1", title: fits, isExpanded: nil)], now: now)
        #expect(board.sections["s1"]?.title == fits)
    }

    @Test func manyInsertsAtTheTopKeepEveryIDAndTheNewestFirst() throws {
        var board = Board()
        _ = try board.apply([.addSection(id: "s", title: "S", isExpanded: true, position: .first)], now: now)
        for index in 0..<300 {
            _ = try board.apply(
                [.addTimer(id: EntityID("t\(index)")!, sectionID: "s", title: "T", minutes: 1, seconds: 0, position: .first)],
                now: now
            )
        }
        let ordered = board.orderedTimers(in: "s").map(\.id.rawValue)
        #expect(ordered == (0..<300).reversed().map { "t\($0)" })
    }
}
