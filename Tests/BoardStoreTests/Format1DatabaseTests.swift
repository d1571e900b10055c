import BoardCore
import Foundation
import GRDB
import Testing

@testable import BoardStore

/// A database written by the server before the store had a format of its own (commit ed00a14,
/// Tests/Fixtures/store/make_format1_database.py): it must open, migrate, load, and take new
/// revisions, and its rows must read as format 1.
@Suite struct Format1DatabaseTests {
    static let boardID = "kAVJZNL00yiC"

    /// A copy of the fixture in a fresh folder: opening migrates the file, and the fixture must
    /// stay as the old server left it.
    static func openCopy(retainedChangesets: Int = 1_000) throws -> (store: SQLiteBoardStore, path: String) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("timerboard-format1-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let path = folder.appendingPathComponent("timerboard.sqlite").path
        try FileManager.default.copyItem(
            at: StoredFormatTests.fixtures.appendingPathComponent("format1-database.sqlite"),
            to: URL(fileURLWithPath: path)
        )
        return (try SQLiteBoardStore(path: path, retainedChangesets: retainedChangesets), path)
    }

    /// The board as the old server's client saw it at revision 9 (its edits are in the script).
    static let expected: Board = {
        let sections = [
            Section(id: "s1", title: "Prep \"quoted\" \\ café 🍳", isExpanded: false, createdDate: 1_795_482_096_752, order: "a0"),
            Section(id: "s2", title: "Bake", isExpanded: true, createdDate: 1_795_482_096_754, order: "a1"),
        ]
        let timers = [
            BoardTimer(
                id: "t1",
                sectionID: "s1",
                title: "Eggs",
                minutes: 7,
                seconds: 30,
                createdDate: 1_795_482_096_754,
                order: "a0",
                run: TimerRun(status: .paused, elapsed: 1_019)
            ),
            BoardTimer(
                id: "t2",
                sectionID: "s1",
                title: "Rye",
                minutes: 40,
                seconds: 5,
                createdDate: 1_795_482_096_756,
                order: "a1",
                run: TimerRun(status: .running, startedAt: 1_795_482_097_789, elapsed: 0)
            ),
        ]
        return try! Board(sections: sections, timers: timers)
    }()

    @Test func aDatabaseOfTheOldServerLoadsWithItsSnapshotLogAndLinks() async throws {
        let (store, _) = try Self.openCopy()
        let loaded = try #require(try await store.loadBoard(id: Self.boardID))
        #expect(loaded.info.title == "Format 1")
        #expect(loaded.revision == 9)
        #expect(loaded.content == Self.expected)
        #expect(loaded.access?.ownerHash.count == 32)
        #expect(loaded.recentChangesets.map(\.revision) == Array(1...9))
        #expect(loaded.recentChangesets.map(\.opID) == ["op-0", "op-1", "op-2", "op-3", nil, "op-4", "op-5", "op-6", "op-7"])
        // Revision 5 is the server's own (a timer that ran out): no client, no op.
        #expect(loaded.recentChangesets[4].clientID == nil)
        #expect(loaded.recentChangesets[4].changes == [.updateTimer("t3", TimerPatch(run: TimerRun(status: .finished, elapsed: 1_000)))])
    }

    /// The old server's rows are the format 1 golden bytes too: reading and writing them again
    /// gives back exactly what it wrote.
    @Test func everyRowOfTheOldServerIsFormat1ToTheByte() throws {
        let (_, path) = try Self.openCopy()
        let queue = try DatabaseQueue(path: path)
        let (changesets, snapshots) = try queue.read { db in
            (
                try Row.fetchAll(db, sql: "SELECT revision, changes, format FROM changeset ORDER BY revision"),
                try Row.fetchAll(db, sql: "SELECT revision, content, format FROM snapshot")
            )
        }
        #expect(changesets.count == 9 && snapshots.count == 1)
        for row in changesets {
            let text: String = row["changes"]
            #expect(row["format"] == 1)
            let changes = try StoredFormat.decodeChanges(text, format: row["format"], boardID: Self.boardID, revision: row["revision"])
            #expect(String(decoding: StoredFormat.encode(changes), as: UTF8.self) == text)
        }
        for row in snapshots {
            let text: String = row["content"]
            #expect(row["format"] == 1)
            let board = try StoredFormat.decodeBoard(text, format: row["format"], boardID: Self.boardID, revision: row["revision"])
            #expect(String(decoding: StoredFormat.encode(board), as: UTF8.self) == text)
        }
    }

    @Test func anOldDatabaseTakesNewRevisionsAndSnapshotsAndReadsThemBack() async throws {
        let (store, path) = try Self.openCopy()
        var board = Self.expected
        let rename = Change.updateSection("s1", SectionPatch(title: "After the upgrade"))
        try board.apply(rename)
        try await store.append(
            [StoredChangeset(boardID: Self.boardID, revision: 10, changes: [rename], clientID: "c", opID: "o", time: 1)],
            snapshot: board
        )
        let reopened = try SQLiteBoardStore(path: path)
        let loaded = try #require(try await reopened.loadBoard(id: Self.boardID))
        #expect(loaded.revision == 10)
        #expect(loaded.content == board)
        let formats = try await DatabaseQueue(path: path).read { db in
            try Int.fetchAll(db, sql: "SELECT format FROM changeset WHERE revision = 10 UNION ALL SELECT format FROM snapshot")
        }
        #expect(formats == [StoredFormat.current.rawValue, StoredFormat.current.rawValue])
    }

    /// A row the store cannot read fails the load with the board and the revision named.
    @Test func aDamagedRowFailsTheLoadAsACorruptStoreError() async throws {
        let (_, path) = try Self.openCopy()
        try await DatabaseQueue(path: path).write { db in
            try db.execute(sql: "UPDATE changeset SET changes = '[{\"update\":\"timer\"}]' WHERE revision = 7")
        }
        let store = try SQLiteBoardStore(path: path)
        await #expect {
            try await store.loadBoard(id: Self.boardID)
        } throws: { error in
            guard let error = error as? StoreError else { return false }
            return error.kind == .corrupt && error.boardID == Self.boardID && error.revision == 7
        }
    }

    @Test func aRowWrittenByANewerFormatFailsTheLoadByName() async throws {
        let (_, path) = try Self.openCopy()
        try await DatabaseQueue(path: path).write { db in
            try db.execute(sql: "UPDATE snapshot SET format = 99")
        }
        let store = try SQLiteBoardStore(path: path)
        await #expect {
            try await store.loadBoard(id: Self.boardID)
        } throws: { error in
            guard let error = error as? StoreError else { return false }
            return error.kind == .unsupportedFormat && error.boardID == Self.boardID && error.revision == 5
        }
    }
}
