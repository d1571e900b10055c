import BoardCore
import Foundation
import GRDB
import TimerBoardConcurrency

/// The default store: one SQLite file in WAL mode with `synchronous = FULL`, so an appended
/// changeset survives a crash of the process and of the machine.
///
/// Appends that arrive while a transaction is being written wait and go into the next one
/// together (group commit): durability costs one fsync per batch, not per edit.
public final class SQLiteBoardStore: BoardStore {
    let pool: DatabasePool
    /// How many changesets per board the log keeps beyond what replay needs, for resume.
    private let retainedChangesets: Int64
    /// Bytes of stored changesets a load reads whole (`StoredLog.firstWholeRevision`).
    private let loadBytes: Int

    private struct PendingAppend: Sendable {
        let changesets: [StoredChangeset]
        let snapshot: Board?
        let deliveries: [WebhookDelivery]
        let continuation: CheckedContinuation<Void, any Error>
    }

    /// The one writer: every append waiting when it starts a transaction goes into it.
    private let writer: QueueWorker<PendingAppend>

    /// Opens (creating when needed) the database at `path` and migrates it.
    public init(path: String, retainedChangesets: Int = 1_000, loadBytes: Int = 16 << 20) throws {
        var configuration = Configuration()
        // Another process may write the file too (`timerboard import` next to a running server):
        // a writer waits for the other's transaction instead of failing at once.
        configuration.busyMode = .timeout(10)
        configuration.prepareDatabase { db in
            try db.execute(sql: "PRAGMA synchronous = FULL")
            // A deleted board's pages are zeroed, not left readable in free pages for anyone
            // with a copy of the file (docs/security.md).
            try db.execute(sql: "PRAGMA secure_delete = ON")
        }
        let pool = try DatabasePool(path: path, configuration: configuration)
        self.pool = pool
        let retained = Int64(retainedChangesets)
        self.retainedChangesets = retained
        self.loadBytes = loadBytes
        writer = QueueWorker { batch in await Self.write(batch, to: pool, retained: retained) }
        try Self.migrator.migrate(pool)
    }

    /// Closes the database. Everything appended is durable already; nothing may be called after.
    /// The write-ahead log is copied into the database file and emptied first, so a stopped
    /// server leaves one whole file: copying it alone, or moving it aside and deleting the
    /// `-wal` as a restore does (deploy/README.md), loses nothing.
    /// Not cancellable (a stop whose task was cancelled closes all the same), and a checkpoint
    /// that fails (a reader still open) leaves the WAL to the next start, as a crash would.
    public func close() async throws {
        checkpointAll()
        try pool.close()
    }

    /// Synchronous, so a cancelled task does not skip it.
    private func checkpointAll() {
        try? pool.writeWithoutTransaction { db in
            _ = try db.checkpoint(.truncate)
        }
    }

    // Migrations are named and never edited once shipped.
    private static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1: boards, changesets, snapshots") { db in
            try db.execute(
                sql: """
                    CREATE TABLE board (
                        id TEXT PRIMARY KEY NOT NULL,
                        title TEXT NOT NULL,
                        createdDate INTEGER NOT NULL,
                        revision INTEGER NOT NULL DEFAULT 0
                    );
                    CREATE INDEX board_createdDate ON board(createdDate);
                    CREATE TABLE changeset (
                        boardID TEXT NOT NULL REFERENCES board(id) ON DELETE CASCADE,
                        revision INTEGER NOT NULL,
                        changes TEXT NOT NULL,
                        clientID TEXT,
                        opID TEXT,
                        time INTEGER NOT NULL,
                        PRIMARY KEY (boardID, revision)
                    ) WITHOUT ROWID;
                    CREATE TABLE snapshot (
                        boardID TEXT PRIMARY KEY NOT NULL REFERENCES board(id) ON DELETE CASCADE,
                        revision INTEGER NOT NULL,
                        content TEXT NOT NULL
                    );
                    """
            )
        }
        migrator.registerMigration("v2: link secrets, hashed") { db in
            try db.execute(
                sql: """
                    ALTER TABLE board ADD COLUMN ownerHash BLOB;
                    ALTER TABLE board ADD COLUMN editHash BLOB;
                    ALTER TABLE board ADD COLUMN viewHash BLOB;
                    ALTER TABLE board ADD COLUMN editGeneration INTEGER NOT NULL DEFAULT 0;
                    ALTER TABLE board ADD COLUMN viewGeneration INTEGER NOT NULL DEFAULT 0;
                    """
            )
        }
        // Rows from before this migration hold format 1: it is the JSON they were written in.
        migrator.registerMigration("v3: stored format per changeset and snapshot") { db in
            try db.execute(
                sql: """
                    ALTER TABLE changeset ADD COLUMN format INTEGER NOT NULL DEFAULT 1;
                    ALTER TABLE snapshot ADD COLUMN format INTEGER NOT NULL DEFAULT 1;
                    """
            )
        }
        // Who made each changeset and what it replaced: the board's history, and undo across restarts.
        migrator.registerMigration("v4: the author of each changeset and what it replaced") { db in
            try db.execute(
                sql: """
                    ALTER TABLE changeset ADD COLUMN author TEXT;
                    ALTER TABLE changeset ADD COLUMN undo TEXT;
                    """
            )
        }
        // Endpoints go with their board, attempts with their endpoint; deliveries outlive both
        // (they hold their URL and secret), so they have no foreign key.
        migrator.registerMigration("v5: webhooks") { db in
            try db.execute(
                sql: """
                    CREATE TABLE webhook (
                        id TEXT PRIMARY KEY NOT NULL,
                        boardID TEXT NOT NULL REFERENCES board(id) ON DELETE CASCADE,
                        url TEXT NOT NULL,
                        secret TEXT NOT NULL,
                        events TEXT NOT NULL,
                        createdAt INTEGER NOT NULL,
                        enabled INTEGER NOT NULL DEFAULT 1,
                        disabledReason TEXT,
                        failingSince INTEGER
                    );
                    CREATE INDEX webhook_boardID ON webhook(boardID);
                    CREATE TABLE webhook_attempt (
                        webhookID TEXT NOT NULL REFERENCES webhook(id) ON DELETE CASCADE,
                        messageID TEXT NOT NULL,
                        event TEXT NOT NULL,
                        time INTEGER NOT NULL,
                        status INTEGER,
                        error TEXT,
                        durationMs INTEGER NOT NULL
                    );
                    CREATE INDEX webhook_attempt_webhookID ON webhook_attempt(webhookID, time);
                    CREATE TABLE webhook_delivery (
                        id TEXT PRIMARY KEY NOT NULL,
                        webhookID TEXT NOT NULL,
                        boardID TEXT NOT NULL,
                        url TEXT NOT NULL,
                        secret TEXT NOT NULL,
                        event TEXT NOT NULL,
                        payload TEXT NOT NULL,
                        createdAt INTEGER NOT NULL,
                        nextAttemptAt INTEGER NOT NULL,
                        attempts INTEGER NOT NULL DEFAULT 0,
                        lockedUntil INTEGER,
                        coalesceKey TEXT UNIQUE
                    );
                    CREATE INDEX webhook_delivery_due ON webhook_delivery(nextAttemptAt);
                    CREATE INDEX webhook_delivery_webhookID ON webhook_delivery(webhookID);
                    CREATE TABLE webhook_once (
                        key TEXT PRIMARY KEY NOT NULL,
                        keepUntil INTEGER NOT NULL
                    ) WITHOUT ROWID;
                    CREATE INDEX webhook_once_keepUntil ON webhook_once(keepUntil);
                    """
            )
        }
        return migrator
    }

    // MARK: Boards

    public func createBoard(_ info: BoardInfo, access: BoardAccess) async throws {
        try await pool.write { db in
            let exists = try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM board WHERE id = ?)", arguments: [info.id]) ?? false
            guard !exists else { throw StoreError(.duplicateBoard, "board \(info.id) exists") }
            try db.execute(
                sql: "INSERT INTO board (id, title, createdDate, revision) VALUES (?, ?, ?, 0)",
                arguments: [info.id, info.title, info.createdDate]
            )
            try Self.write(access, boardID: info.id, db)
        }
    }

    public func setAccess(_ access: BoardAccess, boardID: String) async throws {
        try await pool.write { db in try Self.write(access, boardID: boardID, db) }
    }

    private static func write(_ access: BoardAccess, boardID: String, _ db: Database) throws {
        try db.execute(
            sql: "UPDATE board SET ownerHash = ?, editHash = ?, viewHash = ?, editGeneration = ?, viewGeneration = ? WHERE id = ?",
            arguments: [
                Data(access.ownerHash), Data(access.editHash), Data(access.viewHash), access.editGeneration, access.viewGeneration, boardID,
            ]
        )
        guard db.changesCount == 1 else { throw StoreError(.boardNotFound, "no board \(boardID)") }
    }

    public func renameBoard(id: String, title: String) async throws {
        try await pool.write { db in
            try db.execute(sql: "UPDATE board SET title = ? WHERE id = ?", arguments: [title, id])
            guard db.changesCount == 1 else { throw StoreError(.boardNotFound, "no board \(id)") }
        }
    }

    public func deleteBoard(id: String, deliveries: [WebhookDelivery]) async throws {
        try await pool.write { db in
            // The endpoints are still there, so the board's last deliveries find them enabled.
            try Self.insert(deliveries, db)
            try db.execute(sql: "DELETE FROM webhook WHERE boardID = ?", arguments: [id])
            try db.execute(sql: "DELETE FROM changeset WHERE boardID = ?", arguments: [id])
            try db.execute(sql: "DELETE FROM snapshot WHERE boardID = ?", arguments: [id])
            try db.execute(sql: "DELETE FROM board WHERE id = ?", arguments: [id])
            guard db.changesCount == 1 else { throw StoreError(.boardNotFound, "no board \(id)") }
        }
    }

    public func boards(limit: Int) async throws -> [BoardInfo] {
        try await pool.read { db in
            try Row.fetchAll(db, sql: "SELECT id, title, createdDate FROM board ORDER BY createdDate DESC, id LIMIT ?", arguments: [limit])
                .map { BoardInfo(id: $0["id"], title: $0["title"], createdDate: $0["createdDate"]) }
        }
    }

    public func loadBoard(id: String) async throws -> StoredBoard? {
        let retained = retainedChangesets
        let loadBytes = loadBytes
        return try await pool.read { db -> StoredBoard? in
            guard
                let row = try Row.fetchOne(
                    db,
                    sql: """
                        SELECT id, title, createdDate, revision, ownerHash, editHash, viewHash, editGeneration, viewGeneration
                        FROM board WHERE id = ?
                        """,
                    arguments: [id]
                )
            else { return nil }
            let info = BoardInfo(id: row["id"], title: row["title"], createdDate: row["createdDate"])
            let access = BoardAccess(
                ownerHash: row["ownerHash"] as Data?,
                editHash: row["editHash"] as Data?,
                viewHash: row["viewHash"] as Data?,
                editGeneration: row["editGeneration"],
                viewGeneration: row["viewGeneration"]
            )
            let revision: Int64 = row["revision"]

            var content = Board()
            var snapshotRevision: Int64 = 0
            if let snapshot = try Row.fetchOne(db, sql: "SELECT revision, content, format FROM snapshot WHERE boardID = ?", arguments: [id]) {
                snapshotRevision = snapshot["revision"]
                content = try StoredFormat.decodeBoard(snapshot["content"], format: snapshot["format"], boardID: id, revision: snapshotRevision)
            }
            let firstNeeded = min(snapshotRevision, revision - retained) + 1
            let sizes = try Row.fetchAll(
                db,
                sql: "SELECT revision, length(changes) + ifnull(length(undo), 0) FROM changeset WHERE boardID = ? AND revision >= ? ORDER BY revision DESC",
                arguments: [id, firstNeeded]
            ).map { (revision: $0[0] as Int64, bytes: $0[1] as Int) }
            let firstWhole = StoredLog.firstWholeRevision(sizes: sizes, budget: loadBytes, snapshotRevision: snapshotRevision)
            let olderEdits = try Row.fetchAll(
                db,
                sql: "SELECT revision, clientID, opID FROM changeset WHERE boardID = ? AND revision >= ? AND revision < ? AND clientID IS NOT NULL AND opID IS NOT NULL ORDER BY revision",
                arguments: [id, firstNeeded, firstWhole]
            ).map { StoredEditID(revision: $0[0], clientID: $0[1], opID: $0[2]) }
            return try StoredLog.board(
                info: info,
                access: access,
                snapshot: content,
                snapshotRevision: snapshotRevision,
                revision: revision,
                log: try Self.changesets(of: id, from: max(firstNeeded, firstWhole), db),
                olderEdits: olderEdits,
                retained: retained,
                webhooks: try Self.webhooks(of: id, db)
            )
        }
    }

    public func changesets(boardID: String, after revision: Int64) async throws -> [StoredChangeset]? {
        try await pool.read { db -> [StoredChangeset]? in
            guard let last = try Int64.fetchOne(db, sql: "SELECT revision FROM board WHERE id = ?", arguments: [boardID]) else { return nil }
            let log = try Self.changesets(of: boardID, from: revision + 1, db)
            // Pruned past `revision` (only a snapshot has it now): the caller loads the board instead.
            let complete = StoredLog.holdsEvery(log, after: revision, through: last)
            return complete ? log : nil
        }
    }

    public func history(boardID: String, before: Int64?, limit: Int) async throws -> [StoredChangeset] {
        try await pool.read { db in
            try Self.changesets(
                of: boardID,
                where: "revision < ? ORDER BY revision DESC LIMIT ?",
                [before ?? Int64.max, Int64(limit)],
                db
            )
        }
    }

    /// The board's stored changesets from revision `first` on, in order.
    private static func changesets(of boardID: String, from first: Int64, _ db: Database) throws -> [StoredChangeset] {
        try changesets(of: boardID, where: "revision >= ? ORDER BY revision", [first], db)
    }

    /// The board's stored changesets that the rest of the query (`condition`, after the board's
    /// id) selects, in its order.
    private static func changesets(of boardID: String, where condition: String, _ arguments: [Int64], _ db: Database) throws -> [StoredChangeset] {
        try Row.fetchAll(
            db,
            sql: "SELECT revision, changes, format, clientID, opID, time, author, undo FROM changeset WHERE boardID = ? AND " + condition,
            arguments: StatementArguments([boardID] + arguments.map { $0 as any DatabaseValueConvertible })
        ).map { row in
            let revision: Int64 = row["revision"]
            return StoredChangeset(
                boardID: boardID,
                revision: revision,
                changes: try StoredFormat.decodeChanges(row["changes"], format: row["format"], boardID: boardID, revision: revision),
                clientID: row["clientID"],
                opID: row["opID"],
                time: row["time"],
                author: row["author"],
                undo: try (row["undo"] as String?).map {
                    try StoredFormat.decodeChanges($0, format: row["format"], boardID: boardID, revision: revision)
                }
            )
        }
    }

    // MARK: Appends, with group commit

    public func append(_ changesets: [StoredChangeset], snapshot: Board?, deliveries: [WebhookDelivery]) async throws {
        guard !changesets.isEmpty else { return }
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            writer.enqueue(PendingAppend(changesets: changesets, snapshot: snapshot, deliveries: deliveries, continuation: continuation))
        }
    }

    /// Writes a batch of appends in one transaction, each board's in a savepoint of its own, so
    /// one failing board does not fail the others.
    private static func write(_ batch: [PendingAppend], to pool: DatabasePool, retained: Int64) async {
        do {
            let results = try await pool.write { db in
                batch.map { entry -> Result<Void, any Error> in
                    Result {
                        try db.inSavepoint {
                            try Self.insert(entry.changesets, snapshot: entry.snapshot, retained: retained, db)
                            try Self.insert(entry.deliveries, db)
                            return .commit
                        }
                    }
                }
            }
            for (entry, result) in zip(batch, results) { entry.continuation.resume(with: result) }
        } catch {
            for entry in batch { entry.continuation.resume(throwing: error) }
        }
    }

    /// Writes one append: the board's next changesets in order, then its snapshot if any.
    ///
    /// Statements come from the connection's cache: preparing three statements for every
    /// changeset was a tenth of the server's time with edits pipelined. The board's revision is
    /// read and written once per append, not once per changeset.
    private static func insert(_ changesets: [StoredChangeset], snapshot: Board?, retained: Int64, _ db: Database) throws {
        guard let first = changesets.first else { return }
        let boardID = first.boardID
        guard let current = try Int64.fetchOne(db.cachedStatement(sql: "SELECT revision FROM board WHERE id = ?"), arguments: [boardID]) else {
            throw StoreError(.boardNotFound, "no board \(boardID)")
        }
        let insertChangeset = try db.cachedStatement(
            sql: "INSERT INTO changeset (boardID, revision, changes, format, clientID, opID, time, author, undo) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)"
        )
        var last = current
        for changeset in changesets {
            guard changeset.boardID == boardID, changeset.revision == last + 1 else {
                throw StoreError(
                    .revisionConflict,
                    "board \(boardID) is at revision \(last); cannot write \(changeset.revision) of \(changeset.boardID)"
                )
            }
            try insertChangeset.execute(arguments: [
                boardID, changeset.revision, String(decoding: StoredFormat.encode(changeset.changes), as: UTF8.self),
                StoredFormat.current.rawValue, changeset.clientID, changeset.opID, changeset.time, changeset.author,
                changeset.undo.map { String(decoding: StoredFormat.encode($0), as: UTF8.self) },
            ])
            last = changeset.revision
        }
        try db.cachedStatement(sql: "UPDATE board SET revision = ? WHERE id = ?").execute(arguments: [last, boardID])
        if let snapshot {
            try db.cachedStatement(sql: "INSERT OR REPLACE INTO snapshot (boardID, revision, content, format) VALUES (?, ?, ?, ?)").execute(
                arguments: [boardID, last, String(decoding: StoredFormat.encode(snapshot), as: UTF8.self), StoredFormat.current.rawValue]
            )
            // The snapshot replaces the log up to here for replay; keep the tail for resume.
            try db.cachedStatement(sql: "DELETE FROM changeset WHERE boardID = ? AND revision <= ?").execute(arguments: [boardID, last - retained])
        }
    }
}
