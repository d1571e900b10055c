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
public final class PostgresBoardStore: BoardStore {
    /// The channel every append notifies: the payload is `<revision> <boardID>`.
    static let changesChannel = "timerboard_changes"

    let client: PostgresClient
    private let runTask: Task<Void, Never>
    private let retainedChangesets: Int64
    let logger: Logger

    /// Connects (the pool runs until `close`), waits until the database answers, and migrates it.
    public init(location: PostgresLocation, retainedChangesets: Int = 1_000, logger: Logger) async throws {
        let client = PostgresClient(configuration: location.clientConfiguration, backgroundLogger: logger)
        self.client = client
        self.runTask = await Self.startRunning(client)
        self.retainedChangesets = Int64(retainedChangesets)
        self.logger = logger
        do {
            try await Self.migrate(client, logger: logger)
        } catch {
            runTask.cancel()
            throw error
        }
    }

    /// Starts the pool and returns once its task has begun. The task calls `run()` right after it
    /// signals, on its own thread (`run()` is nonisolated: no hop), and `run()` marks the pool as
    /// running first thing, so the migrations' first lease finds it running. Leased sooner, it
    /// would wait all the same, but PostgresNIO logs a warning: it did at most starts.
    static func startRunning(_ client: PostgresClient) async -> Task<Void, Never> {
        let (started, signal) = AsyncStream<Void>.makeStream()
        let task = Task {
            signal.finish()
            await client.run()
        }
        for await _ in started {}
        return task
    }

    /// Closes every connection and returns once they are closed; the store must not be used afterwards.
    public func close() async {
        runTask.cancel()
        await runTask.value
    }

    deinit {
        runTask.cancel()
    }

    // MARK: Schema

    /// Migrations by name, applied once each, in order, under an advisory lock so that nodes
    /// starting together do not race. Never edited once shipped.
    private static let migrations: [(name: String, sql: [PostgresQuery])] = [
        (
            "v1: boards, changesets, snapshots",
            [
                """
                CREATE TABLE board (
                    id TEXT PRIMARY KEY,
                    title TEXT NOT NULL,
                    created_date BIGINT NOT NULL,
                    revision BIGINT NOT NULL DEFAULT 0,
                    owner_hash BYTEA,
                    edit_hash BYTEA,
                    view_hash BYTEA,
                    edit_generation INTEGER NOT NULL DEFAULT 0,
                    view_generation INTEGER NOT NULL DEFAULT 0
                )
                """,
                "CREATE INDEX board_created_date ON board (created_date)",
                """
                CREATE TABLE changeset (
                    board_id TEXT NOT NULL REFERENCES board (id) ON DELETE CASCADE,
                    revision BIGINT NOT NULL,
                    changes TEXT NOT NULL,
                    format INTEGER NOT NULL,
                    client_id TEXT,
                    op_id TEXT,
                    time BIGINT NOT NULL,
                    PRIMARY KEY (board_id, revision)
                )
                """,
                """
                CREATE TABLE snapshot (
                    board_id TEXT PRIMARY KEY REFERENCES board (id) ON DELETE CASCADE,
                    revision BIGINT NOT NULL,
                    content TEXT NOT NULL,
                    format INTEGER NOT NULL
                )
                """,
            ]
        ),
        // Endpoints go with their board, attempts with their endpoint; deliveries outlive both
        // (they hold their URL and secret), so they have no foreign key.
        (
            "v2: webhooks",
            [
                """
                CREATE TABLE webhook (
                    id TEXT PRIMARY KEY,
                    board_id TEXT NOT NULL REFERENCES board (id) ON DELETE CASCADE,
                    url TEXT NOT NULL,
                    secret TEXT NOT NULL,
                    events TEXT NOT NULL,
                    created_at BIGINT NOT NULL,
                    enabled BOOLEAN NOT NULL DEFAULT TRUE,
                    disabled_reason TEXT,
                    failing_since BIGINT
                )
                """,
                "CREATE INDEX webhook_board_id ON webhook (board_id)",
                """
                CREATE TABLE webhook_attempt (
                    id BIGSERIAL PRIMARY KEY,
                    webhook_id TEXT NOT NULL REFERENCES webhook (id) ON DELETE CASCADE,
                    message_id TEXT NOT NULL,
                    event TEXT NOT NULL,
                    time BIGINT NOT NULL,
                    status INTEGER,
                    error TEXT,
                    duration_ms BIGINT NOT NULL
                )
                """,
                "CREATE INDEX webhook_attempt_webhook_id ON webhook_attempt (webhook_id, time)",
                """
                CREATE TABLE webhook_delivery (
                    id TEXT PRIMARY KEY,
                    webhook_id TEXT NOT NULL,
                    board_id TEXT NOT NULL,
                    url TEXT NOT NULL,
                    secret TEXT NOT NULL,
                    event TEXT NOT NULL,
                    payload TEXT NOT NULL,
                    created_at BIGINT NOT NULL,
                    next_attempt_at BIGINT NOT NULL,
                    attempts INTEGER NOT NULL DEFAULT 0,
                    locked_until BIGINT,
                    coalesce_key TEXT UNIQUE
                )
                """,
                "CREATE INDEX webhook_delivery_due ON webhook_delivery (next_attempt_at)",
                "CREATE INDEX webhook_delivery_webhook_id ON webhook_delivery (webhook_id)",
                "CREATE TABLE webhook_once (key TEXT PRIMARY KEY, keep_until BIGINT NOT NULL)",
                "CREATE INDEX webhook_once_keep_until ON webhook_once (keep_until)",
            ]
        ),
    ]

    private static func migrate(_ client: PostgresClient, logger: Logger) async throws {
        try await client.withConnection { connection in
            try await connection.query("BEGIN", logger: logger)
            do {
                // Any constant shared by all nodes; the lock ends with the transaction.
                try await connection.query("SELECT pg_advisory_xact_lock(7262736173)", logger: logger)
                try await connection.query("CREATE TABLE IF NOT EXISTS timerboard_migration (name TEXT PRIMARY KEY)", logger: logger)
                var applied = Set<String>()
                for try await name in try await connection.query("SELECT name FROM timerboard_migration", logger: logger).decode(String.self) {
                    applied.insert(name)
                }
                for migration in migrations where !applied.contains(migration.name) {
                    for statement in migration.sql { try await connection.query(statement, logger: logger) }
                    try await connection.query("INSERT INTO timerboard_migration (name) VALUES (\(migration.name))", logger: logger)
                }
                try await connection.query("COMMIT", logger: logger)
            } catch {
                _ = try? await connection.query("ROLLBACK", logger: logger)
                throw error
            }
        }
    }

    /// Runs `body` in one transaction on one pooled connection: committed when it returns,
    /// rolled back when it throws.
    func transaction<Result: Sendable>(
        readOnly: Bool = false,
        _ body: @Sendable (PostgresConnection) async throws -> Result
    ) async throws -> Result {
        let logger = logger
        return try await client.withConnection { connection in
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
        let inserted = try await client.query(
            """
            INSERT INTO board (id, title, created_date, owner_hash, edit_hash, view_hash, edit_generation, view_generation)
            VALUES (\(info.id), \(info.title), \(info.createdDate), \(Data(access.ownerHash)), \(Data(access.editHash)),
                    \(Data(access.viewHash)), \(access.editGeneration), \(access.viewGeneration))
            ON CONFLICT (id) DO NOTHING
            RETURNING 1
            """,
            logger: logger
        ).collect().count
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
        var boards: [BoardInfo] = []
        let rows = try await client.query(
            "SELECT id, title, created_date FROM board ORDER BY created_date DESC, id LIMIT \(limit)",
            logger: logger
        )
        for try await (id, title, createdDate) in rows.decode((String, String, Int64).self) {
            boards.append(BoardInfo(id: id, title: title, createdDate: createdDate))
        }
        return boards
    }

    public func loadBoard(id: String) async throws -> StoredBoard? {
        let retained = retainedChangesets
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
                var access: BoardAccess?
                if let owner, let edit, let view {
                    access = BoardAccess(
                        ownerHash: Array(owner),
                        editHash: Array(edit),
                        viewHash: Array(view),
                        editGeneration: editGeneration,
                        viewGeneration: viewGeneration
                    )
                }
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
            let log = try await Self.changesets(of: id, from: firstNeeded, connection, logger: logger)
            return try StoredLog.board(
                info: info,
                access: access,
                snapshot: content,
                snapshotRevision: snapshotRevision,
                revision: revision,
                log: log,
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
            SELECT revision, changes, format, client_id, op_id, time FROM changeset
            WHERE board_id = \(boardID) AND revision >= \(first) ORDER BY revision
            """,
            logger: logger
        )
        var log: [StoredChangeset] = []
        for try await (revision, changes, format, clientID, opID, time) in rows.decode((Int64, String, Int, String?, String?, Int64).self) {
            log.append(
                StoredChangeset(
                    boardID: boardID,
                    revision: revision,
                    changes: try StoredFormat.decodeChanges(changes, format: format, boardID: boardID, revision: revision),
                    clientID: clientID,
                    opID: opID,
                    time: time
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
        do {
            guard snapshot != nil || !deliveries.isEmpty else {
                // One statement is a transaction of its own: one round trip for the whole append.
                guard try await Self.claimed(client.execute(claim, logger: logger)) == changesets.count else {
                    throw try await Self.notClaimed(
                        boardID,
                        first: first.revision,
                        client.query("SELECT 1 FROM board WHERE id = \(boardID)", logger: logger)
                    )
                }
                return
            }
            try await transaction { connection in
                guard try await Self.claimed(connection.execute(claim, logger: logger)) == changesets.count else {
                    throw try await Self.notClaimed(
                        boardID,
                        first: first.revision,
                        connection.query("SELECT 1 FROM board WHERE id = \(boardID)", logger: logger)
                    )
                }
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
        } catch let error as PSQLError where error.serverInfo?[.sqlState] == PostgresError.Code.uniqueViolation.raw {
            throw StoreError(.revisionConflict, "board \(boardID): another node wrote revision \(first.revision) first")
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
    static let name = "timerboard_append_v1"
    static let sql = """
        WITH moved AS (
            UPDATE board SET revision = $2 WHERE id = $1 AND revision = $3
            RETURNING pg_notify('\(PostgresBoardStore.changesChannel)', $4)
        ), inserted AS (
            INSERT INTO changeset (board_id, revision, changes, format, client_id, op_id, time)
            SELECT $1, c.revision, c.changes, $5, CASE WHEN c.has_client THEN c.client_id END, CASE WHEN c.has_op THEN c.op_id END, c.time
            FROM moved, unnest($6::int8[], $7::text[], $8::text[], $9::bool[], $10::text[], $11::bool[], $12::int8[])
                AS c (revision, changes, client_id, has_client, op_id, has_op, time)
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
    }

    func makeBindings() throws -> PostgresBindings {
        var bindings = PostgresBindings(capacity: 12)
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
        return bindings
    }

    func decodeRow(_ row: PostgresRow) throws -> Row {
        try row.decode(Int64.self)
    }
}
