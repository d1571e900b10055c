import BoardCore
import Foundation
import Testing

@testable import BoardStore

/// The golden files of the disk format, one set per format version. A change to what the store
/// writes shows up here as a changed fixture in review; a format that can no longer read an old
/// version's files fails here before it reaches a database.
@Suite struct StoredFormatTests {
    static let fixtures = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/store")

    static func fixture(_ name: String) throws -> Data {
        try Data(contentsOf: fixtures.appendingPathComponent(name))
    }

    /// Every kind of change and every field a patch can carry, with text that needs escaping.
    static let changes: [Change] = [
        .insertSection(Section(id: "s1", title: "Prep \"quoted\" \\ café 🍳\t\u{1}", isExpanded: true, createdDate: 1_763_740_800_000, order: "a0")),
        .updateSection("s1", SectionPatch(title: "Mise en place", isExpanded: false, order: "a0V", createdDate: 1_763_740_800_001)),
        .updateSection("s1", SectionPatch(isExpanded: true)),
        .insertTimer(
            BoardTimer(id: "t1", sectionID: "s1", title: "Eggs", minutes: 7, seconds: 30, createdDate: 1_763_740_801_000, order: "Zz")
        ),
        .insertTimer(
            BoardTimer(
                id: "t2",
                sectionID: "s1",
                title: "Bread",
                minutes: 35,
                seconds: 0,
                createdDate: 1_763_740_801_000,
                order: "a1",
                run: TimerRun(status: .running, startedAt: 1_763_740_802_000, elapsed: 1_500)
            )
        ),
        .updateTimer(
            "t1",
            TimerPatch(
                sectionID: "s2",
                title: "Soft eggs",
                minutes: 6,
                seconds: 45,
                order: "a2",
                createdDate: 1_763_740_801_001,
                run: TimerRun(status: .paused, elapsed: 12_000)
            )
        ),
        .updateTimer("t2", TimerPatch(run: TimerRun(status: .finished, elapsed: 2_100_000))),
        .updateTimer("t2", TimerPatch(run: .idle)),
        .deleteTimer("t1"),
        .deleteSection("s1"),
    ]

    /// A board with a timer in each run state, an old-form order key and two sections.
    static let board: Board = {
        let sections = [
            Section(id: "s1", title: "Prep", isExpanded: false, createdDate: 1_763_740_800_000, order: "a0"),
            Section(id: "s2", title: "Bake \u{1F35E}", createdDate: 1_763_740_800_500, order: OrderKey(stored: "V")),
        ]
        let timers = [
            BoardTimer(id: "t1", sectionID: "s1", title: "Eggs", minutes: 7, seconds: 30, createdDate: 1_763_740_801_000, order: "a0"),
            BoardTimer(
                id: "t2",
                sectionID: "s1",
                title: "Tea",
                minutes: 3,
                seconds: 0,
                createdDate: 1_763_740_801_000,
                order: "a1",
                run: TimerRun(status: .running, startedAt: 1_763_740_802_000, elapsed: 500)
            ),
            BoardTimer(
                id: "t3",
                sectionID: "s2",
                title: "Bread",
                minutes: 35,
                seconds: 0,
                createdDate: 1_763_740_801_000,
                order: "a0",
                run: TimerRun(status: .paused, elapsed: 60_000)
            ),
            BoardTimer(
                id: "t4",
                sectionID: "s2",
                title: "Rolls",
                minutes: 12,
                seconds: 0,
                createdDate: 1_763_740_801_000,
                order: "a1",
                run: TimerRun(status: .finished, elapsed: 720_000)
            ),
        ]
        return try! Board(sections: sections, timers: timers)
    }()

    // MARK: Format 1

    @Test func format1WritesChangesExactlyAsTheGoldenFile() throws {
        let golden = try Self.fixture("format1-changes.json")
        #expect(String(decoding: StoredFormat1.encode(Self.changes), as: UTF8.self) == String(decoding: golden, as: UTF8.self))
    }

    @Test func format1WritesABoardExactlyAsTheGoldenFile() throws {
        let golden = try Self.fixture("format1-board.json")
        #expect(String(decoding: StoredFormat1.encode(Self.board), as: UTF8.self) == String(decoding: golden, as: UTF8.self))
    }

    @Test func format1ReadsTheGoldenFilesBack() throws {
        let changes = try StoredFormat.decodeChanges(
            String(decoding: Self.fixture("format1-changes.json"), as: UTF8.self),
            format: 1,
            boardID: "b",
            revision: 1
        )
        #expect(changes == Self.changes)
        let board = try StoredFormat.decodeBoard(
            String(decoding: Self.fixture("format1-board.json"), as: UTF8.self),
            format: 1,
            boardID: "b",
            revision: 1
        )
        #expect(board == Self.board)
    }

    /// Formats 2 and 3 add fields only where they are not at their default, so what format 1
    /// could hold is written as format 1 wrote it.
    @Test func aBoardWithoutTheNewFieldsIsWrittenInTheCurrentFormatAsFormat1WroteIt() {
        #expect(StoredFormat.current == .json3)
        #expect(StoredFormat.encode(Self.changes) == StoredFormat1.encode(Self.changes))
        #expect(StoredFormat.encode(Self.board) == StoredFormat1.encode(Self.board))
    }

    // MARK: Format 2

    /// Every field format 2 adds, set and set back to its default.
    static let changes2: [Change] = [
        .insertSection(Section(id: "s1", title: "Rounds", createdDate: 1_763_740_800_000, order: "a0", sequence: true, loop: true)),
        .updateSection("s1", SectionPatch(sequence: false)),
        .updateSection("s1", SectionPatch(loop: false)),
        .insertTimer(
            BoardTimer(
                id: "t1",
                sectionID: "s1",
                title: "Work",
                minutes: 0,
                seconds: 45,
                createdDate: 1_763_740_801_000,
                order: "a0",
                run: TimerRun(status: .running, startedAt: 1_763_740_802_000, elapsed: -60_000),
                warnAt: 10_000
            )
        ),
        .updateTimer("t1", TimerPatch(run: TimerRun(status: .finished, elapsed: 45_000, finishedAt: 1_763_740_907_000), warnAt: 0)),
        .updateTimer("t2", TimerPatch(warnAt: 5_000)),
        .updateTimer("t2", TimerPatch(run: TimerRun(status: .running, startedAt: 1_763_740_907_000, elapsed: 0))),
    ]

    /// A looping sequence with a finished timer that knows when it finished, a negative elapsed
    /// (time added), a warning, and a plain section beside it.
    static let board2: Board = {
        let sections = [
            Section(id: "s1", title: "Rounds", createdDate: 1_763_740_800_000, order: "a0", sequence: true, loop: true),
            Section(id: "s2", title: "Plain", createdDate: 1_763_740_800_500, order: "a1"),
        ]
        let timers = [
            BoardTimer(
                id: "t1",
                sectionID: "s1",
                title: "Work",
                minutes: 0,
                seconds: 45,
                createdDate: 1_763_740_801_000,
                order: "a0",
                run: TimerRun(status: .finished, elapsed: 45_000, finishedAt: 1_763_740_907_000),
                warnAt: 10_000
            ),
            BoardTimer(
                id: "t2",
                sectionID: "s1",
                title: "Rest",
                minutes: 0,
                seconds: 15,
                createdDate: 1_763_740_801_000,
                order: "a1",
                run: TimerRun(status: .running, startedAt: 1_763_740_907_000, elapsed: -30_000)
            ),
            BoardTimer(id: "t3", sectionID: "s2", title: "Tea", minutes: 3, seconds: 0, createdDate: 1_763_740_801_000, order: "a0"),
        ]
        return try! Board(sections: sections, timers: timers)
    }()

    @Test func format2WritesChangesExactlyAsTheGoldenFile() throws {
        let golden = try Self.fixture("format2-changes.json")
        #expect(String(decoding: StoredFormat2.encode(Self.changes2), as: UTF8.self) == String(decoding: golden, as: UTF8.self))
    }

    @Test func format2WritesABoardExactlyAsTheGoldenFile() throws {
        let golden = try Self.fixture("format2-board.json")
        #expect(String(decoding: StoredFormat2.encode(Self.board2), as: UTF8.self) == String(decoding: golden, as: UTF8.self))
    }

    @Test func format2ReadsItsGoldenFilesBack() throws {
        let changes = try StoredFormat.decodeChanges(
            String(decoding: Self.fixture("format2-changes.json"), as: UTF8.self),
            format: 2,
            boardID: "b",
            revision: 1
        )
        #expect(changes == Self.changes2)
        let board = try StoredFormat.decodeBoard(
            String(decoding: Self.fixture("format2-board.json"), as: UTF8.self),
            format: 2,
            boardID: "b",
            revision: 1
        )
        #expect(board == Self.board2)
    }

    /// Why format 2 is a format of its own: format 1's reader takes its rows without an error
    /// and loses the new fields, so an older server must meet a format number it refuses.
    @Test func format1WouldSilentlyDropWhatFormat2Adds() throws {
        let board = try StoredFormat1.decodeBoard(Self.fixture("format2-board.json"))
        #expect(board != Self.board2)
        #expect(board.sections["s1"]?.sequence == false)
    }

    /// Format 1's golden files read the same through format 2's reader: format 2 only adds.
    @Test func format2ReadsFormat1sGoldenFilesAsFormat1Does() throws {
        #expect(try StoredFormat2.decodeChanges(Self.fixture("format1-changes.json")) == Self.changes)
        #expect(try StoredFormat2.decodeBoard(Self.fixture("format1-board.json")) == Self.board)
    }

    // MARK: Rows that cannot be read

    /// Broken rows, each with what makes it unreadable; each is a `corrupt` store error that
    /// names the board and the revision, never a wire error.
    @Test(arguments: [
        "not json",
        #"{"insert":"section"}"#,
        #"[{"insert":"section","id":"s1","title":"T","isExpanded":true,"createdDate":1}]"#,
        #"[{"insert":"section","id":"bad id!","title":"T","isExpanded":true,"createdDate":1,"order":"a0"}]"#,
        #"[{"update":"planet","id":"p1"}]"#,
        #"[{"update":"timer","id":"t1","run":{"status":"running","elapsed":0}}]"#,
        #"[{"update":"timer","id":"t1","run":{"status":"sleeping","elapsed":0}}]"#,
        #"[{"update":"timer","id":"t1","minutes":"seven"}]"#,
    ])
    func anUnreadableChangesetIsACorruptStoreErrorNamingBoardAndRevision(_ text: String) {
        #expect {
            try StoredFormat.decodeChanges(text, format: 1, boardID: "board-7", revision: 42)
        } throws: { error in
            guard let error = error as? StoreError else { return false }
            return error.kind == .corrupt && error.boardID == "board-7" && error.revision == 42
                && error.description.hasPrefix("board board-7, revision 42: ")
        }
    }

    // MARK: Format 3

    /// A board that finishes together at 08:00, a timer counting to a time of day, a stopwatch,
    /// a message on the screens and a time zone.
    static let board3: Board = {
        let sections = [Section(id: "s1", title: "Breakfast", createdDate: 1_763_740_800_000, order: "a0", finishAt: 1_763_794_800_000)]
        let timers = [
            BoardTimer(id: "t1", sectionID: "s1", title: "Eggs", minutes: 7, seconds: 0, createdDate: 1_763_740_801_000, order: "a0", startAt: 1_763_794_380_000),
            BoardTimer(
                id: "t2", sectionID: "s1", title: "Doors", minutes: 0, seconds: 0, createdDate: 1_763_740_801_000, order: "a1",
                run: TimerRun(status: .running, startedAt: 1_763_740_900_000, elapsed: 0), kind: .toTime, targetAt: 1_763_796_600_000
            ),
            BoardTimer(
                id: "t3", sectionID: "s1", title: "Lap", minutes: 0, seconds: 0, createdDate: 1_763_740_801_000, order: "a2",
                run: TimerRun(status: .paused, elapsed: 12_000), kind: .countUp
            ),
        ]
        var board = try! Board(sections: sections, timers: timers)
        board.display = BoardDisplay(message: ScreenMessage(text: "Wrap up", flash: true, shownAt: 1_763_740_950_000), timeZone: "Europe/Paris")
        return board
    }()

    /// Clearing a finish-together and a scheduled start (null), a new kind and target, a message
    /// shown with a blackout, then cleared with a new time zone.
    static let changes3: [Change] = [
        .updateSection("s1", SectionPatch(finishAt: .some(nil))),
        .updateTimer("t1", TimerPatch(kind: .clock, startAt: .some(nil))),
        .updateTimer("t2", TimerPatch(targetAt: 1_763_796_900_000)),
        .updateDisplay(DisplayPatch(message: .show(ScreenMessage(text: "Wrap up", flash: false, shownAt: 1_763_740_950_000)), blackout: true)),
        .updateDisplay(DisplayPatch(message: .clear, timeZone: "UTC")),
    ]

    @Test func format3WritesAndReadsItsGoldenFiles() throws {
        let board = try Self.fixture("format3-board.json")
        let changes = try Self.fixture("format3-changes.json")
        #expect(String(decoding: StoredFormat.encode(Self.board3), as: UTF8.self) == String(decoding: board, as: UTF8.self))
        #expect(String(decoding: StoredFormat.encode(Self.changes3), as: UTF8.self) == String(decoding: changes, as: UTF8.self))
        #expect(try StoredFormat.decodeBoard(String(decoding: board, as: UTF8.self), format: 3, boardID: "b", revision: 1) == Self.board3)
        #expect(try StoredFormat.decodeChanges(String(decoding: changes, as: UTF8.self), format: 3, boardID: "b", revision: 1) == Self.changes3)
    }

    /// What format 2 wrote still reads the same through the reader that now reads format 3.
    @Test func format2sGoldenFilesReadTheSameAfterFormat3() throws {
        #expect(try StoredFormat.decodeBoard(String(decoding: Self.fixture("format2-board.json"), as: UTF8.self), format: 2, boardID: "b", revision: 1) == Self.board2)
    }

    @Test(arguments: [
        #"{"sections":[]}"#,
        #"{"sections":[],"timers":[{"id":"t1","sectionID":"nowhere","title":"T","minutes":1,"seconds":0,"createdDate":1,"order":"a0"}]}"#,
        #"{"sections":[{"id":"s1","title":"A","isExpanded":true,"createdDate":1,"order":"a0"},{"id":"s1","title":"B","isExpanded":true,"createdDate":1,"order":"a1"}],"timers":[]}"#,
    ])
    func anUnreadableSnapshotIsACorruptStoreErrorNamingBoardAndRevision(_ text: String) {
        #expect {
            try StoredFormat.decodeBoard(text, format: 1, boardID: "board-7", revision: 100)
        } throws: { error in
            guard let error = error as? StoreError else { return false }
            return error.kind == .corrupt && error.boardID == "board-7" && error.revision == 100
        }
    }

    @Test func aRowInAFormatFromANewerServerIsRefusedByName() {
        #expect {
            try StoredFormat.decodeChanges("[]", format: 4, boardID: "b", revision: 3)
        } throws: { error in
            guard let error = error as? StoreError else { return false }
            return error.kind == .unsupportedFormat && error.boardID == "b" && error.revision == 3 && error.message.contains("format 4")
        }
    }

    /// Old-form order keys were refused by the wire's reader once, and a board could no longer
    /// load: the store takes keys as it wrote them.
    @Test func storedOrderKeysAreTakenAsTheyAre() throws {
        let long = String(repeating: "V", count: 300)
        let changes = try StoredFormat.decodeChanges(#"[{"update":"section","id":"s1","order":"\#(long)"}]"#, format: 1, boardID: "b", revision: 1)
        #expect(changes == [.updateSection("s1", SectionPatch(order: OrderKey(stored: long)))])
    }
}
