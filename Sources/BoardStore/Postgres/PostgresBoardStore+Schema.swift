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
        // Endpoints go with their board, attempts with their endpoint; deliveries outlive both
        // (they hold their URL and secret), so they have no foreign key.
        (
            "v3: webhooks",
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
