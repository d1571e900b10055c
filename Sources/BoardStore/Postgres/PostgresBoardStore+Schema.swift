import Logging
import PostgresNIO

extension PostgresBoardStore {
    // MARK: Schema

    /// Migrations by name, applied once each, in order, under an advisory lock so that nodes
    /// starting together do not race. Never edited once shipped.
    static let migrations: [(name: String, sql: [PostgresQuery])] = [
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
        (
            "v2: the author of each changeset and what it replaced",
            ["ALTER TABLE changeset ADD COLUMN author TEXT", "ALTER TABLE changeset ADD COLUMN undo TEXT"]
        ),
    ]

    static func migrate(_ pool: PostgresPool, logger: Logger) async throws {
        try await pool.withConnection { connection in
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
}
