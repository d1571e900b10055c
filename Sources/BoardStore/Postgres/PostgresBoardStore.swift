import BoardCore
import Foundation
import Logging
import PostgresNIO

/// The store of a cluster: every node on one PostgreSQL database, which is the shared log and,
/// through NOTIFY, the doorbell between nodes (see `PostgresChangeFeed`).
///
/// A revision is claimed by inserting (board, revision) under the changeset table's primary
/// key while moving the board from the revision before, in one statement (`AppendStatement`),
/// so two nodes can never both write revision r: the second finds the board moved and inserts
/// nothing (or, were the row there already, fails with a unique violation), reported as
/// `StoreError.revisionConflict`, and its node reloads. After the commit, PostgreSQL delivers
/// the append's `NOTIFY` (board and last revision) to every listening node; an append that
/// claimed nothing or rolled back sends none.
///
/// Rows hold the same stored format as SQLite's (`StoredFormat`), so a board moves between the
/// two stores by export and import without a second codec.
public final class PostgresBoardStore: BoardStore, StoreConnectionPool {
    /// The channel every append notifies: the payload is `<revision> <boardID>`.
    static let changesChannel = "timerboard_changes"

    let pool: PostgresPool
    private let retainedChangesets: Int64
    /// Bytes of stored changesets a load reads whole (`StoredLog.firstWholeRevision`).
    private let loadBytes: Int
    let logger: Logger

    /// The pool in use now (tests lease from it directly).
    var client: PostgresClient { pool.client }

    /// Connects, waits until the database answers, and migrates it.
    ///
    /// A database that does not answer yet (not started, unreachable) is waited for, with a
    /// warning: a node may start before its database. A database that answers and refuses
    /// (a wrong password, no such role or database, no right to connect, no right to create
    /// the tables) throws, in PostgreSQL's words: waiting would not change it.
    public init(location: PostgresLocation, retainedChangesets: Int = 1_000, loadBytes: Int = 16 << 20, logger: Logger) async throws {
        self.pool = await PostgresPool(location: location, logger: logger)
        self.retainedChangesets = Int64(retainedChangesets)
        self.loadBytes = loadBytes
        self.logger = logger
        do {
            try await Self.waitForDatabase(pool, logger: logger)
            try await Self.migrate(pool, logger: logger)
        } catch {
            await pool.close()
            throw error
        }
    }

    /// Returns once one connection gets in; throws at once when the database refuses it.
    private static func waitForDatabase(_ pool: PostgresPool, logger: Logger) async throws {
        var pause = Duration.milliseconds(250)
        var warned = false
        while true {
            do {
                try await pool.connectOnce()
                if warned { logger.notice("the database answers", metadata: ["tb.store": "\(pool.location)"]) }
                return
            } catch let failure as PostgresPool.RefusedOrAway {
                if failure.isRefusedLogin { throw StoreError(.unavailable, failure.description) }
                logger.log(
                    level: warned ? .info : .warning,
                    "waiting for the database",
                    metadata: ["tb.store": "\(pool.location)", "tb.error": "\(failure.description)"]
                )
                warned = true
            }
            try await Task.sleep(for: pause)
            pause = min(pause * 2, .seconds(5))
        }
    }

    /// Starts a pool (tests make their own clients).
    static func startRunning(_ client: PostgresClient) async -> Task<Void, Never> {
        await PostgresPool.startRunning(client)
    }

    /// Closes every connection and returns once they are closed; the store must not be used afterwards.
    public func close() async {
        await pool.close()
    }

    // MARK: The pool

    public var connectionsInUse: Int { pool.connectionsInUse }
    public var callsWaiting: Int { pool.callsWaiting }
    public var maximumConnections: Int { pool.location.maximumConnections }

    /// `SELECT 1`, within a second; when the pool cannot give a connection for it, asks the
    /// database with a connection of its own, and if that gets in, the pool is only waiting
    /// out its backoff: a new one replaces it (`PostgresPool.renew`) and is asked again.
    public func check() async throws {
        do {
            try await selectOne(within: .seconds(1))
        } catch {
            try Task.checkCancellation()
            do {
                try await pool.connectOnce()
            } catch let failure as PostgresPool.RefusedOrAway {
                throw StoreError(.unavailable, failure.description)
            }
            guard await pool.renew() else { throw error }
            logger.notice("the database answers again: new connections replace the ones that waited", metadata: ["tb.store": "\(pool.location)"])
            try await selectOne(within: .seconds(1))
        }
    }

    private func selectOne(within limit: Duration) async throws {
        let logger = logger
        try await withThrowingTaskGroup(of: Bool.self) { group in
            group.addTask { [pool] in
                try await pool.withConnection { try await $0.query("SELECT 1", logger: logger).collect() }
                return true
            }
            group.addTask {
                try await Task.sleep(for: limit)
                return false
            }
            defer { group.cancelAll() }
            // Cancelled, the waiting lease leaves the pool's queue at once.
            guard try await group.next() == true else {
                throw StoreError(.unavailable, "no connection to \(pool.location.host):\(pool.location.port) within \(limit)")
            }
        }
    }

    /// Runs `body` in one transaction on one pooled connection: committed when it returns,
    /// rolled back when it throws.
    func transaction<Result: Sendable>(
        readOnly: Bool = false,
        _ body: @escaping @Sendable (PostgresConnection) async throws -> Result
    ) async throws -> Result {
        let logger = logger
        return try await pool.withConnection { connection in
            // Repeatable read: a load sees the board row, its snapshot and its log as of one instant.
            try await connection.query(readOnly ? "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY" : "BEGIN", logger: logger)
            do {
                let result = try await body(connection)
                try await connection.query("COMMIT", logger: logger)
                return result
            } catch {
                _ = try? await connection.query("ROLLBACK", logger: logger)
                throw error
            }
        }
    }

    // MARK: Boards

    public func createBoard(_ info: BoardInfo, access: BoardAccess) async throws {
        let logger = logger
        let inserted = try await pool.withConnection { connection in
            try await connection.query(
                """
                INSERT INTO board (id, title, created_date, owner_hash, edit_hash, view_hash, edit_generation, view_generation)
                VALUES (\(info.id), \(info.title), \(info.createdDate), \(Data(access.ownerHash)), \(Data(access.editHash)),
                        \(Data(access.viewHash)), \(access.editGeneration), \(access.viewGeneration))
                ON CONFLICT (id) DO NOTHING
                RETURNING 1
                """,
                logger: logger
            ).collect().count
        }
        guard inserted == 1 else { throw StoreError(.duplicateBoard, "board \(info.id) exists") }
    }

    public func setAccess(_ access: BoardAccess, boardID: String) async throws {
        let logger = logger
        let updated = try await transaction { connection in
            let count = try await connection.query(
                """
                UPDATE board SET owner_hash = \(Data(access.ownerHash)), edit_hash = \(Data(access.editHash)),
                    view_hash = \(Data(access.viewHash)), edit_generation = \(access.editGeneration),
                    view_generation = \(access.viewGeneration)
                WHERE id = \(boardID) RETURNING 1
                """,
                logger: logger
            ).collect().count
            try await Self.notifyBoardChanged(boardID, connection, logger: logger)
            return count
        }
        guard updated == 1 else { throw StoreError(.boardNotFound, "no board \(boardID)") }
    }

    /// Rings every node about a change of the board's title, links or existence (the caller's
    /// transaction sends it at commit, or never if it rolls back).
    static func notifyBoardChanged(_ boardID: String, _ connection: PostgresConnection, logger: Logger) async throws {
        try await connection.query("SELECT pg_notify(\(changesChannel), \("board \(boardID)"))", logger: logger).collect()
    }

    public func renameBoard(id: String, title: String) async throws {
        let logger = logger
        let updated = try await transaction { connection in
            let count = try await connection.query("UPDATE board SET title = \(title) WHERE id = \(id) RETURNING 1", logger: logger).collect().count
            try await Self.notifyBoardChanged(id, connection, logger: logger)
            return count
        }
        guard updated == 1 else { throw StoreError(.boardNotFound, "no board \(id)") }
    }

    public func deleteBoard(id: String, deliveries: [WebhookDelivery]) async throws {
        let logger = logger
        // The log, the snapshot and the endpoints go with the board (ON DELETE CASCADE); the
        // deliveries are added first, while their endpoints are there.
        let deleted = try await transaction { connection in
            try await Self.insert(deliveries, connection, logger: logger)
            let count = try await connection.query("DELETE FROM board WHERE id = \(id) RETURNING 1", logger: logger).collect().count
            try await Self.notifyBoardChanged(id, connection, logger: logger)
            return count
        }
        guard deleted == 1 else { throw StoreError(.boardNotFound, "no board \(id)") }
    }

    public func boards(limit: Int) async throws -> [BoardInfo] {
        let logger = logger
        return try await pool.withConnection { connection in
            var boards: [BoardInfo] = []
            let rows = try await connection.query(
                "SELECT id, title, created_date FROM board ORDER BY created_date DESC, id LIMIT \(limit)",
                logger: logger
            )
            for try await (id, title, createdDate) in rows.decode((String, String, Int64).self) {
                boards.append(BoardInfo(id: id, title: title, createdDate: createdDate))
            }
            return boards
        }
    }

    public func loadBoard(id: String) async throws -> StoredBoard? {
        let retained = retainedChangesets
        let loadBytes = loadBytes
        let logger = logger
        return try await transaction(readOnly: true) { connection -> StoredBoard? in
            let boardRows = try await connection.query(
                """
                SELECT title, created_date, revision, owner_hash, edit_hash, view_hash, edit_generation, view_generation
                FROM board WHERE id = \(id)
                """,
                logger: logger
            )
            var found: (BoardInfo, BoardAccess?, Int64)?
            for try await (title, createdDate, revision, owner, edit, view, editGeneration, viewGeneration) in boardRows.decode(
                (String, Int64, Int64, Data?, Data?, Data?, Int, Int).self
            ) {
                let access = BoardAccess(ownerHash: owner, editHash: edit, viewHash: view, editGeneration: editGeneration, viewGeneration: viewGeneration)
                found = (BoardInfo(id: id, title: title, createdDate: createdDate), access, revision)
            }
            guard let (info, access, revision) = found else { return nil }

            var content = Board()
            var snapshotRevision: Int64 = 0
            let snapshotRows = try await connection.query(
                "SELECT revision, content, format FROM snapshot WHERE board_id = \(id)",
                logger: logger
            )
            for try await (revision, text, format) in snapshotRows.decode((Int64, String, Int).self) {
                snapshotRevision = revision
                content = try StoredFormat.decodeBoard(text, format: format, boardID: id, revision: revision)
            }
            let firstNeeded = min(snapshotRevision, revision - retained) + 1
            var sizes: [(revision: Int64, bytes: Int)] = []
            let sizeRows = try await connection.query(
                """
                SELECT revision, octet_length(changes) + coalesce(octet_length(undo), 0) FROM changeset
                WHERE board_id = \(id) AND revision >= \(firstNeeded) ORDER BY revision DESC
                """,
                logger: logger
            )
            for try await (revision, bytes) in sizeRows.decode((Int64, Int32).self) { sizes.append((revision, Int(bytes))) }
            let firstWhole = StoredLog.firstWholeRevision(sizes: sizes, budget: loadBytes, snapshotRevision: snapshotRevision)
            var olderEdits: [StoredEditID] = []
            let editRows = try await connection.query(
                """
                SELECT revision, client_id, op_id FROM changeset
                WHERE board_id = \(id) AND revision >= \(firstNeeded) AND revision < \(firstWhole)
                AND client_id IS NOT NULL AND op_id IS NOT NULL ORDER BY revision
                """,
                logger: logger
            )
            for try await (revision, clientID, opID) in editRows.decode((Int64, String, String).self) {
                olderEdits.append(StoredEditID(revision: revision, clientID: clientID, opID: opID))
            }
            let log = try await Self.changesets(of: id, from: max(firstNeeded, firstWhole), connection, logger: logger)
            return try StoredLog.board(
                info: info,
                access: access,
                snapshot: content,
                snapshotRevision: snapshotRevision,
                revision: revision,
                log: log,
                olderEdits: olderEdits,
                retained: retained,
                webhooks: try await Self.webhooks(connection.query(Self.webhookQuery(boardID: id), logger: logger))
            )
        }
    }

    public func changesets(boardID: String, after revision: Int64) async throws -> [StoredChangeset]? {
        let logger = logger
        return try await transaction(readOnly: true) { connection -> [StoredChangeset]? in
            let log = try await Self.changesets(of: boardID, from: revision + 1, connection, logger: logger)
            let current = try await connection.query("SELECT revision FROM board WHERE id = \(boardID)", logger: logger)
            var last: Int64?
            for try await value in current.decode(Int64.self) { last = value }
            guard let last else { return nil }
            // Pruned past `revision` (only a snapshot has it now): the caller loads the board instead.
            let complete = StoredLog.holdsEvery(log, after: revision, through: last)
            return complete ? log : nil
        }
    }

    public func history(boardID: String, before: Int64?, limit: Int) async throws -> [StoredChangeset] {
        let query: PostgresQuery = """
            SELECT revision, changes, format, client_id, op_id, time, author, undo FROM changeset
            WHERE board_id = \(boardID) AND revision < \(before ?? Int64.max) ORDER BY revision DESC LIMIT \(limit)
            """
        return try await transaction(readOnly: true) { [logger] connection in
            try await Self.changesets(of: boardID, rows: connection.query(query, logger: logger))
        }
    }

    private static func changesets(
        of boardID: String,
        from first: Int64,
        _ connection: PostgresConnection,
        logger: Logger
    ) async throws
        -> [StoredChangeset]
    {
        let rows = try await connection.query(
            """
            SELECT revision, changes, format, client_id, op_id, time, author, undo FROM changeset
            WHERE board_id = \(boardID) AND revision >= \(first) ORDER BY revision
            """,
            logger: logger
        )
        return try await changesets(of: boardID, rows: rows)
    }

    /// Changesets of `boardID` from rows of the columns the two queries above select.
    private static func changesets(of boardID: String, rows: PostgresRowSequence) async throws -> [StoredChangeset] {
        var log: [StoredChangeset] = []
        for try await (revision, changes, format, clientID, opID, time, author, undo) in rows.decode(
            (Int64, String, Int, String?, String?, Int64, String?, String?).self
        ) {
            log.append(
                StoredChangeset(
                    boardID: boardID,
                    revision: revision,
                    changes: try StoredFormat.decodeChanges(changes, format: format, boardID: boardID, revision: revision),
                    clientID: clientID,
                    opID: opID,
                    time: time,
                    author: author,
                    undo: try undo.map { try StoredFormat.decodeChanges($0, format: format, boardID: boardID, revision: revision) }
                )
            )
        }
        return log
    }

    // MARK: Appends

    public func append(_ changesets: [StoredChangeset], snapshot: Board?, deliveries: [WebhookDelivery]) async throws {
        guard let first = changesets.first, let last = changesets.last else { return }
        let boardID = first.boardID
        guard changesets.allSatisfy({ $0.boardID == boardID }), changesets.enumerated().allSatisfy({ $1.revision == first.revision + Int64($0) })
        else {
            throw StoreError(.revisionConflict, "board \(boardID): the changesets of one append must follow each other")
        }
        let claim = AppendStatement(changesets, boardID: boardID, notification: "\(last.revision) \(boardID)")
        let retained = retainedChangesets
        let logger = logger
        let format = StoredFormat.current.rawValue
        guard snapshot != nil || !deliveries.isEmpty else {
            // One statement is a transaction of its own: one round trip for the whole append.
            return try await pool.withConnection { connection in
                try await Self.claim(claim, first: first.revision, connection, logger: logger)
            }
        }
        try await transaction { connection in
            try await Self.claim(claim, first: first.revision, connection, logger: logger)
            try await Self.insert(deliveries, connection, logger: logger)
            guard let snapshot else { return }
            let content = String(decoding: StoredFormat.encode(snapshot), as: UTF8.self)
            try await connection.query(
                """
                INSERT INTO snapshot (board_id, revision, content, format) VALUES (\(boardID), \(last.revision), \(content), \(format))
                ON CONFLICT (board_id) DO UPDATE SET revision = excluded.revision, content = excluded.content, format = excluded.format
                WHERE snapshot.revision < excluded.revision
                """,
                logger: logger
            )
            try await connection.query(
                "DELETE FROM changeset WHERE board_id = \(boardID) AND revision <= \(last.revision - retained)",
                logger: logger
            )
        }
    }

    /// Runs the append's claim; throws `revisionConflict` or `boardNotFound` when it claimed nothing.
    private static func claim(_ claim: AppendStatement, first: Int64, _ connection: PostgresConnection, logger: Logger) async throws {
        let boardID = claim.boardID
        do {
            guard try await claimed(connection.execute(claim, logger: logger)) == claim.revisions.count else {
                throw try await notClaimed(boardID, first: first, connection.query("SELECT 1 FROM board WHERE id = \(boardID)", logger: logger))
            }
        } catch let error as PSQLError where error.serverInfo?[.sqlState] == PostgresError.Code.uniqueViolation.raw {
            throw StoreError(.revisionConflict, "board \(boardID): another node wrote revision \(first) first")
        } catch let error as PSQLError where error.serverInfo?[.sqlState] == PostgresError.Code.foreignKeyViolation.raw {
            throw StoreError(.boardNotFound, "no board \(boardID)")
        }
    }

    /// How many changesets the claim inserted: all of them, or none when the board was not at
    /// the revision before them.
    private static func claimed<Rows: AsyncSequence>(_ rows: Rows) async throws -> Int where Rows.Element == Int64 {
        var inserted: Int64 = 0
        for try await count in rows { inserted = count }
        return Int(inserted)
    }

    /// Why nothing was claimed: the board is gone, or it is not at the revision before `first`.
    private static func notClaimed(_ boardID: String, first: Int64, _ boardRows: PostgresRowSequence) async throws -> StoreError {
        guard try await boardRows.collect().count == 1 else { return StoreError(.boardNotFound, "no board \(boardID)") }
        return StoreError(.revisionConflict, "board \(boardID) is not at revision \(first - 1); cannot write \(first)")
    }
}

/// An append's claim as one statement, so that it costs one round trip and no BEGIN or COMMIT
/// of its own: it moves `board.revision` from the revision before the changesets to their last,
/// inserts each (board, revision) under the changeset table's primary key only if the board
/// moved, and rings the other nodes (`pg_notify`, delivered at commit) only if it moved.
///
/// Two nodes claiming the same revision: the second one's UPDATE waits for the first one's row
/// lock, then finds the board past its revision and moves nothing (`StoreError.revisionConflict`);
/// a (board, revision) that is somehow in the log already still fails the insert with a unique
/// violation, which rolls the whole statement back, NOTIFY included. Prepared once per connection.
private struct AppendStatement: PostgresPreparedStatement {
    static let name = "timerboard_append_v2"
    static let sql = """
        WITH moved AS (
            UPDATE board SET revision = $2 WHERE id = $1 AND revision = $3
            RETURNING pg_notify('\(PostgresBoardStore.changesChannel)', $4)
        ), inserted AS (
            INSERT INTO changeset (board_id, revision, changes, format, client_id, op_id, time, author, undo)
            SELECT $1, c.revision, c.changes, $5, CASE WHEN c.has_client THEN c.client_id END, CASE WHEN c.has_op THEN c.op_id END, c.time,
                CASE WHEN c.has_author THEN c.author END, CASE WHEN c.has_undo THEN c.undo END
            FROM moved, unnest($6::int8[], $7::text[], $8::text[], $9::bool[], $10::text[], $11::bool[], $12::int8[], $13::text[], $14::bool[],
                $15::text[], $16::bool[])
                AS c (revision, changes, client_id, has_client, op_id, has_op, time, author, has_author, undo, has_undo)
            RETURNING 1
        )
        SELECT count(*) FROM inserted
        """
    typealias Row = Int64

    let boardID: String
    let last: Int64
    let before: Int64
    let notification: String
    let revisions: [Int64]
    let changes: [String]
    // postgres-nio has no arrays of optionals: a NULL is "" with its flag false.
    let clientIDs: [String]
    let hasClientIDs: [Bool]
    let opIDs: [String]
    let hasOpIDs: [Bool]
    let times: [Int64]
    let authors: [String]
    let hasAuthors: [Bool]
    let undos: [String]
    let hasUndos: [Bool]

    init(_ changesets: [StoredChangeset], boardID: String, notification: String) {
        self.boardID = boardID
        self.last = changesets.last?.revision ?? 0
        self.before = (changesets.first?.revision ?? 1) - 1
        self.notification = notification
        revisions = changesets.map(\.revision)
        changes = changesets.map { String(decoding: StoredFormat.encode($0.changes), as: UTF8.self) }
        clientIDs = changesets.map { $0.clientID ?? "" }
        hasClientIDs = changesets.map { $0.clientID != nil }
        opIDs = changesets.map { $0.opID ?? "" }
        hasOpIDs = changesets.map { $0.opID != nil }
        times = changesets.map(\.time)
        authors = changesets.map { $0.author ?? "" }
        hasAuthors = changesets.map { $0.author != nil }
        undos = changesets.map { $0.undo.map { String(decoding: StoredFormat.encode($0), as: UTF8.self) } ?? "" }
        hasUndos = changesets.map { $0.undo != nil }
    }

    func makeBindings() throws -> PostgresBindings {
        var bindings = PostgresBindings(capacity: 16)
        bindings.append(boardID)
        bindings.append(last)
        bindings.append(before)
        bindings.append(notification)
        bindings.append(StoredFormat.current.rawValue)
        bindings.append(revisions)
        bindings.append(changes)
        bindings.append(clientIDs)
        bindings.append(hasClientIDs)
        bindings.append(opIDs)
        bindings.append(hasOpIDs)
        bindings.append(times)
        bindings.append(authors)
        bindings.append(hasAuthors)
        bindings.append(undos)
        bindings.append(hasUndos)
        return bindings
    }

    func decodeRow(_ row: PostgresRow) throws -> Row {
        try row.decode(Int64.self)
    }
}
