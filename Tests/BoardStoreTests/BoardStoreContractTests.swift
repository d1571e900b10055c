import BoardCore
import BoardStore
import Foundation
import Logging
import Testing

/// How to open a store of one kind, twice on the same data (to test reopening).
struct StoreKind: Sendable, CustomTestStringConvertible {
    let name: String
    /// Opens the store for `location` (a fresh folder per test, whose name also names the
    /// test's PostgreSQL database), reading at most `loadBytes` of changesets whole on a load.
    let opener: @Sendable (_ location: URL, _ retainedChangesets: Int, _ loadBytes: Int) async throws -> any BoardStore
    var testDescription: String { name }

    func open(_ location: URL, _ retainedChangesets: Int, loadBytes: Int = 16 << 20) async throws -> any BoardStore {
        try await opener(location, retainedChangesets, loadBytes)
    }

    static let sqlite = StoreKind(name: "SQLite") { location, retained, loadBytes in
        try SQLiteBoardStore(path: location.appendingPathComponent("boards.sqlite").path, retainedChangesets: retained, loadBytes: loadBytes)
    }

    /// A real PostgreSQL server (`ScratchPostgres`), one database per test.
    static let postgres = StoreKind(name: "PostgreSQL") { location, retained, loadBytes in
        let database = try await ScratchPostgres.database(location.lastPathComponent.lowercased())
        return try await PostgresBoardStore(location: database, retainedChangesets: retained, loadBytes: loadBytes, logger: Logger(label: "test"))
    }
}

/// Every store must pass this suite.
@Suite struct BoardStoreContractTests {
    static let kinds: [StoreKind] = [.sqlite, .postgres]
    /// Stores several nodes share. SQLite is one process's file: a second writer is not a
    /// configuration it supports (it answers "database is locked").
    static let sharedKinds: [StoreKind] = [.postgres]

    static func freshLocation() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent(
            "timerboard_store_\(UUID().uuidString.replacingOccurrences(of: "-", with: "_"))"
        )
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    static func changeset(_ board: String, _ revision: Int64, _ changes: [Change], op: String? = nil) -> StoredChangeset {
        StoredChangeset(boardID: board, revision: revision, changes: changes, clientID: op == nil ? nil : "c1", opID: op, time: 1_000 + revision)
    }

    /// Hashes as the server would store them; the store treats them as opaque bytes.
    static let access = BoardAccess(
        ownerHash: Array(repeating: 1, count: 32),
        editHash: Array(repeating: 2, count: 32),
        viewHash: Array(repeating: 3, count: 32),
        editGeneration: 0,
        viewGeneration: 0
    )

    /// Warnings, sequences, loops, added time and when a timer finished (issue 18) survive the
    /// log's replay and the snapshot, after the store is opened again.
    @Test(arguments: kinds)
    func timerStateOfIssue18SurvivesTheLogAndTheSnapshot(_ kind: StoreKind) async throws {
        let location = try Self.freshLocation()
        let store = try await kind.open(location, 1_000)
        try await store.createBoard(BoardInfo(id: "b", title: "B", createdDate: 1), access: Self.access)
        let section = Section(id: "q", title: "Rounds", createdDate: 1, order: "a0", sequence: true, loop: true)
        let timer = BoardTimer(
            id: "t",
            sectionID: "q",
            title: "Work",
            minutes: 0,
            seconds: 45,
            createdDate: 1,
            order: "a0",
            run: TimerRun(status: .running, startedAt: 5_000, elapsed: -60_000),
            warnAt: 10_000
        )
        let finished = TimerRun(status: .finished, elapsed: 45_000, finishedAt: 110_000)
        try await store.append(
            [
                Self.changeset("b", 1, [.insertSection(section), .insertTimer(timer)], op: "1"),
                Self.changeset("b", 2, [.updateTimer("t", TimerPatch(run: finished))]),
            ],
            snapshot: nil
        )
        var expected = try Board(sections: [section], timers: [timer])
        expected.timers["t"]?.run = finished
        #expect(try await kind.open(location, 1_000).loadBoard(id: "b")?.content == expected, "replayed from the log")

        expected.sections["q"]?.loop = false
        expected.timers["t"]?.warnAt = 0
        try await store.append(
            [Self.changeset("b", 3, [.updateSection("q", SectionPatch(loop: false)), .updateTimer("t", TimerPatch(warnAt: 0))])],
            snapshot: expected
        )
        #expect(try await kind.open(location, 1_000).loadBoard(id: "b")?.content == expected, "from the snapshot")
    }

    /// Who made a changeset and what it replaced come back with the log, after a reopen, for
    /// history and undo; the server's own changesets have neither.
    @Test(arguments: kinds)
    func theAuthorAndWhatAChangesetReplacedComeBackWithTheLog(_ kind: StoreKind) async throws {
        let location = try Self.freshLocation()
        let store = try await kind.open(location, 1_000)
        try await store.createBoard(BoardInfo(id: "b", title: "B", createdDate: 1), access: Self.access)
        let edited = StoredChangeset(
            boardID: "b",
            revision: 1,
            changes: [Self.addSection("s")],
            clientID: "c1",
            opID: "1",
            time: 5,
            author: "Ada Lovelace ✓",
            undo: [.deleteSection("s")]
        )
        let finished = StoredChangeset(boardID: "b", revision: 2, changes: [.updateSection("s", SectionPatch(title: "T"))], clientID: nil, opID: nil, time: 6)
        try await store.append([edited, finished], snapshot: nil)
        let reopened = try await kind.open(location, 1_000)
        #expect(try await reopened.loadBoard(id: "b")?.recentChangesets == [edited, finished])
        #expect(try await reopened.changesets(boardID: "b", after: 0) == [edited, finished])
        // The history reads it newest first, a page at a time.
        #expect(try await reopened.history(boardID: "b", before: nil, limit: 10) == [finished, edited])
        #expect(try await reopened.history(boardID: "b", before: nil, limit: 1) == [finished])
        #expect(try await reopened.history(boardID: "b", before: 2, limit: 10) == [edited])
        #expect(try await reopened.history(boardID: "nope", before: nil, limit: 10).isEmpty)
    }

    @Test(arguments: kinds)
    func accessIsStoredReplacedAndReadBack(_ kind: StoreKind) async throws {
        let location = try Self.freshLocation()
        let store = try await kind.open(location, 1_000)
        try await store.createBoard(BoardInfo(id: "b", title: "B", createdDate: 1), access: Self.access)
        #expect(try await store.loadBoard(id: "b")?.access == Self.access)
        var replaced = Self.access
        replaced.editHash = Array(repeating: 9, count: 32)
        replaced.editGeneration = 1
        try await store.setAccess(replaced, boardID: "b")
        #expect(try await kind.open(location, 1_000).loadBoard(id: "b")?.access == replaced)
        await #expect { try await store.setAccess(replaced, boardID: "nope") } throws: { ($0 as? StoreError)?.kind == .boardNotFound }
    }

    @Test(arguments: kinds)
    func aRenameIsStoredAndADeleteLeavesNothing(_ kind: StoreKind) async throws {
        let location = try Self.freshLocation()
        let store = try await kind.open(location, 1_000)
        try await store.createBoard(BoardInfo(id: "b", title: "B", createdDate: 1), access: Self.access)
        try await store.createBoard(BoardInfo(id: "keep", title: "Keep", createdDate: 2), access: Self.access)
        try await store.append([Self.changeset("b", 1, [Self.addSection("s")])], snapshot: Board())
        try await store.append([Self.changeset("keep", 1, [Self.addSection("s")])], snapshot: nil)
        try await store.renameBoard(id: "b", title: "Renamed")
        #expect(try await kind.open(location, 1_000).loadBoard(id: "b")?.info.title == "Renamed")
        try await store.deleteBoard(id: "b")
        #expect(try await store.loadBoard(id: "b") == nil)
        #expect(try await store.boards(limit: 10).map(\.id) == ["keep"])
        #expect(try await store.loadBoard(id: "keep")?.revision == 1)
        // The id can be made again from nothing: no log or snapshot of the old board is left.
        try await store.createBoard(BoardInfo(id: "b", title: "Again", createdDate: 3), access: Self.access)
        let again = try #require(try await store.loadBoard(id: "b"))
        #expect(again.revision == 0 && again.content == Board() && again.recentChangesets.isEmpty)
        await #expect { try await store.deleteBoard(id: "nope") } throws: { ($0 as? StoreError)?.kind == .boardNotFound }
        await #expect { try await store.renameBoard(id: "nope", title: "x") } throws: { ($0 as? StoreError)?.kind == .boardNotFound }
    }

    static func addSection(_ id: String, order: OrderKey = "V") -> Change {
        .insertSection(Section(id: EntityID(id)!, title: "Section \(id)", createdDate: 5, order: order))
    }

    @Test(arguments: kinds)
    func aNewBoardIsEmptyAtRevisionZeroAndListedNewestFirst(_ kind: StoreKind) async throws {
        let store = try await kind.open(Self.freshLocation(), 1_000)
        try await store.createBoard(BoardInfo(id: "old", title: "Old", createdDate: 1), access: Self.access)
        try await store.createBoard(BoardInfo(id: "new", title: "New", createdDate: 2), access: Self.access)
        let loaded = try #require(try await store.loadBoard(id: "new"))
        #expect(loaded.revision == 0)
        #expect(loaded.content == Board())
        #expect(loaded.info == BoardInfo(id: "new", title: "New", createdDate: 2))
        #expect(try await store.boards(limit: 10).map(\.id) == ["new", "old"])
        #expect(try await store.loadBoard(id: "missing") == nil)
        await #expect(throws: StoreError.self) {
            try await store.createBoard(BoardInfo(id: "new", title: "Again", createdDate: 3), access: Self.access)
        }
    }

    @Test(arguments: kinds)
    func appendedChangesetsSurviveReopeningAndReplayToTheSameBoard(_ kind: StoreKind) async throws {
        let location = try Self.freshLocation()
        var expected = Board()
        do {
            let store = try await kind.open(location, 1_000)
            try await store.createBoard(BoardInfo(id: "b", title: "B", createdDate: 1), access: Self.access)
            var batch: [StoredChangeset] = []
            for revision in Int64(1)...20 {
                let change = revision == 1 ? Self.addSection("s") : .updateSection("s", SectionPatch(title: "Title \(revision)"))
                try expected.apply(change)
                batch.append(Self.changeset("b", revision, [change], op: "op\(revision)"))
            }
            try await store.append(Array(batch.prefix(5)), snapshot: nil)
            try await store.append(Array(batch.dropFirst(5)), snapshot: nil)
        }
        let reopened = try await kind.open(location, 1_000)
        let loaded = try #require(try await reopened.loadBoard(id: "b"))
        #expect(loaded.revision == 20)
        #expect(loaded.content == expected)
        #expect(loaded.recentChangesets.map(\.revision) == Array(1...20))
        #expect(loaded.recentChangesets.last?.opID == "op20")
        #expect(loaded.recentChangesets.last?.clientID == "c1")
    }

    @Test(arguments: kinds)
    func aRevisionIsWrittenOnceAndNeverSkipped(_ kind: StoreKind) async throws {
        let store = try await kind.open(Self.freshLocation(), 1_000)
        try await store.createBoard(BoardInfo(id: "b", title: "B", createdDate: 1), access: Self.access)
        try await store.append([Self.changeset("b", 1, [Self.addSection("s")])], snapshot: nil)
        await #expect {
            try await store.append([Self.changeset("b", 1, [.updateSection("s", SectionPatch(title: "again"))])], snapshot: nil)
        } throws: { ($0 as? StoreError)?.kind == .revisionConflict }
        await #expect {
            try await store.append([Self.changeset("b", 3, [.updateSection("s", SectionPatch(title: "gap"))])], snapshot: nil)
        } throws: { ($0 as? StoreError)?.kind == .revisionConflict }
        await #expect {
            try await store.append([Self.changeset("nope", 1, [Self.addSection("s")])], snapshot: nil)
        } throws: { ($0 as? StoreError)?.kind == .boardNotFound }
        let loaded = try #require(try await store.loadBoard(id: "b"))
        #expect(loaded.revision == 1)
        #expect(loaded.content.sections["s"]?.title == "Section s")
    }

    @Test(arguments: kinds)
    func snapshotsPruneTheLogButKeepTheResumeTail(_ kind: StoreKind) async throws {
        let location = try Self.freshLocation()
        let store = try await kind.open(location, 5)
        try await store.createBoard(BoardInfo(id: "b", title: "B", createdDate: 1), access: Self.access)
        var board = Board()
        for revision in Int64(1)...30 {
            let change = revision == 1 ? Self.addSection("s") : .updateSection("s", SectionPatch(title: "Title \(revision)"))
            try board.apply(change)
            // A snapshot every 10 revisions, as a room would ask for.
            try await store.append([Self.changeset("b", revision, [change])], snapshot: revision % 10 == 0 ? board : nil)
        }
        for revision in Int64(31)...33 {
            let change = Change.updateSection("s", SectionPatch(isExpanded: revision % 2 == 0))
            try board.apply(change)
            try await store.append([Self.changeset("b", revision, [change])], snapshot: nil)
        }
        let loaded = try #require(try await kind.open(location, 5).loadBoard(id: "b"))
        #expect(loaded.revision == 33)
        #expect(loaded.content == board)
        #expect(loaded.recentChangesets.map(\.revision) == Array(29...33))
    }

    @Test(arguments: kinds)
    func concurrentAppendsToManyBoardsAreAllDurable(_ kind: StoreKind) async throws {
        let location = try Self.freshLocation()
        let store = try await kind.open(location, 1_000)
        let boardCount = 20
        let revisions: Int64 = 25
        for index in 0..<boardCount {
            try await store.createBoard(BoardInfo(id: "b\(index)", title: "B", createdDate: Int64(index)), access: Self.access)
        }
        // Each board appends in order from its own task, all boards at once: group commit mixes them.
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<boardCount {
                group.addTask {
                    for revision in Int64(1)...revisions {
                        let change = revision == 1 ? Self.addSection("s") : .updateSection("s", SectionPatch(title: "T\(revision)"))
                        try await store.append([Self.changeset("b\(index)", revision, [change])], snapshot: nil)
                    }
                }
            }
            try await group.waitForAll()
        }
        let reopened = try await kind.open(location, 1_000)
        for index in 0..<boardCount {
            let loaded = try #require(try await reopened.loadBoard(id: "b\(index)"))
            #expect(loaded.revision == revisions)
            #expect(loaded.content.sections["s"]?.title == "T\(revisions)")
        }
    }

    /// A log of many large changesets is read whole only for its newest `loadBytes` (and what
    /// the snapshot is rebuilt from): older edits come back as who made them, so a resend is
    /// still recognised, without their changes (a board of 1,000 1 MB changesets took gigabytes
    /// and longer than the store's timeout to load).
    @Test(arguments: kinds)
    func aLoadReadsOnlyTheNewestBytesOfTheLogWhole(_ kind: StoreKind) async throws {
        let location = try Self.freshLocation()
        let store = try await kind.open(location, 100)
        try await store.createBoard(BoardInfo(id: "b", title: "B", createdDate: 1), access: Self.access)
        var board = Board()
        let long = String(repeating: "x", count: 1_000)
        for revision in Int64(1)...40 {
            let change = revision == 1 ? Self.addSection("s") : .updateSection("s", SectionPatch(title: "\(long)\(revision)"))
            try board.apply(change)
            try await store.append([Self.changeset("b", revision, [change], op: "op\(revision)")], snapshot: revision == 30 ? board : nil)
        }
        let loaded = try #require(try await kind.open(location, 100, loadBytes: 5_000).loadBoard(id: "b"))
        #expect(loaded.revision == 40 && loaded.content == board)
        // About 1 KB each: the last few fit 5,000 bytes, and every one after the snapshot is read.
        #expect(loaded.recentChangesets.map(\.revision) == Array(31...40))
        #expect(loaded.olderEdits.map(\.revision) == Array(1...30))
        #expect(loaded.olderEdits.first == StoredEditID(revision: 1, clientID: "c1", opID: "op1"))
        let whole = try #require(try await kind.open(location, 100).loadBoard(id: "b"))
        #expect(whole.recentChangesets.count == 40 && whole.olderEdits.isEmpty)
    }

    @Test(arguments: kinds)
    func theLogAfterARevisionIsItsTailOrNilOncePruned(_ kind: StoreKind) async throws {
        let store = try await kind.open(Self.freshLocation(), 3)
        try await store.createBoard(BoardInfo(id: "b", title: "B", createdDate: 1), access: Self.access)
        var board = Board()
        for revision in Int64(1)...12 {
            let change = revision == 1 ? Self.addSection("s") : .updateSection("s", SectionPatch(title: "T\(revision)"))
            try board.apply(change)
            try await store.append([Self.changeset("b", revision, [change], op: "op\(revision)")], snapshot: revision == 10 ? board : nil)
        }
        let tail = try #require(try await store.changesets(boardID: "b", after: 9))
        #expect(tail.map(\.revision) == [10, 11, 12])
        #expect(tail.map(\.opID) == ["op10", "op11", "op12"])
        #expect(tail.last?.changes == [.updateSection("s", SectionPatch(title: "T12"))])
        #expect(try await store.changesets(boardID: "b", after: 12) == [])
        // Revision 5 was pruned behind the snapshot at 10 (3 retained): only a load can catch up.
        #expect(try await store.changesets(boardID: "b", after: 4) == nil)
        #expect(try await store.changesets(boardID: "nope", after: 0) == nil)
    }

    /// What two nodes do on one database: both try to write the next revision of one board.
    @Test(arguments: sharedKinds)
    func twoWritersNeverBothClaimARevision(_ kind: StoreKind) async throws {
        let location = try Self.freshLocation()
        let first = try await kind.open(location, 1_000)
        let second = try await kind.open(location, 1_000)
        try await first.createBoard(BoardInfo(id: "b", title: "B", createdDate: 1), access: Self.access)
        try await first.append([Self.changeset("b", 1, [Self.addSection("s")])], snapshot: nil)
        for revision in Int64(2)...31 {
            let won = try await withThrowingTaskGroup(of: String?.self) { group in
                for (name, store) in [("first", first), ("second", second)] {
                    group.addTask {
                        let change = Change.updateSection("s", SectionPatch(title: name))
                        do {
                            try await store.append([Self.changeset("b", revision, [change], op: "\(name)\(revision)")], snapshot: nil)
                            return name
                        } catch let error as StoreError where error.kind == .revisionConflict {
                            return nil
                        }
                    }
                }
                return try await group.reduce(into: [String]()) { winners, name in if let name { winners.append(name) } }
            }
            #expect(won.count == 1, "revision \(revision) was claimed by \(won)")
            let stored = try #require(try await second.loadBoard(id: "b"))
            #expect(stored.revision == revision)
            #expect(stored.content.sections["s"]?.title == won.first)
        }
    }
}
