import Foundation
import GRDB

/// Webhook endpoints, their attempts and the outbox of deliveries, in the board's SQLite file.
extension SQLiteBoardStore {
    public func createWebhook(_ endpoint: WebhookEndpoint, limit: Int) async throws {
        try await pool.write { db in
            guard try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM board WHERE id = ?)", arguments: [endpoint.boardID]) == true else {
                throw StoreError(.boardNotFound, "no board \(endpoint.boardID)")
            }
            let count = try Int.fetchOne(db, sql: "SELECT count(*) FROM webhook WHERE boardID = ?", arguments: [endpoint.boardID]) ?? 0
            guard count < limit else {
                throw StoreError(.limitReached, boardID: endpoint.boardID, revision: nil, "a board has at most \(limit) webhook endpoints")
            }
            try db.execute(
                sql: """
                    INSERT INTO webhook (id, boardID, url, secret, events, createdAt, enabled, disabledReason, failingSince)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """,
                arguments: [
                    endpoint.id, endpoint.boardID, endpoint.url, endpoint.secret, endpoint.events.joined(separator: ","), endpoint.createdAt,
                    endpoint.enabled, endpoint.disabledReason, endpoint.failingSince,
                ]
            )
        }
    }

    public func deleteWebhook(id: String, boardID: String) async throws -> Bool {
        try await pool.write { db in
            try db.execute(sql: "DELETE FROM webhook WHERE id = ? AND boardID = ?", arguments: [id, boardID])
            guard db.changesCount == 1 else { return false }
            try db.execute(sql: "DELETE FROM webhook_attempt WHERE webhookID = ?", arguments: [id])
            try db.execute(sql: "DELETE FROM webhook_delivery WHERE webhookID = ?", arguments: [id])
            return true
        }
    }

    public func webhooks(boardID: String) async throws -> [WebhookReport] {
        try await pool.read { db in
            try Self.webhooks(of: boardID, db).map { endpoint in
                let attempts = try Row.fetchAll(
                    db,
                    sql: """
                        SELECT messageID, event, time, status, error, durationMs FROM webhook_attempt
                        WHERE webhookID = ? ORDER BY time DESC, rowid DESC LIMIT ?
                        """,
                    arguments: [endpoint.id, webhookAttemptsKept]
                ).map { row in
                    WebhookAttempt(
                        webhookID: endpoint.id,
                        messageID: row["messageID"],
                        event: row["event"],
                        time: row["time"],
                        status: row["status"],
                        error: row["error"],
                        durationMs: row["durationMs"]
                    )
                }
                return WebhookReport(endpoint: endpoint, attempts: attempts)
            }
        }
    }

    public func boardsWithWebhooks() async throws -> [String] {
        try await pool.read { db in try String.fetchAll(db, sql: "SELECT DISTINCT boardID FROM webhook WHERE enabled = 1 ORDER BY boardID") }
    }

    public func enqueue(_ deliveries: [WebhookDelivery]) async throws {
        guard !deliveries.isEmpty else { return }
        try await pool.write { db in try Self.insert(deliveries, db) }
    }

    public func claimDeliveries(now: Int64, limit: Int, leaseUntil: Int64) async throws -> [WebhookDelivery] {
        try await pool.write { db in
            try db.execute(sql: "DELETE FROM webhook_once WHERE keepUntil < ?", arguments: [now])
            return try Row.fetchAll(
                db,
                sql: """
                    UPDATE webhook_delivery SET lockedUntil = ?, coalesceKey = NULL
                    WHERE id IN (
                        SELECT id FROM webhook_delivery WHERE nextAttemptAt <= ? AND (lockedUntil IS NULL OR lockedUntil <= ?)
                        ORDER BY nextAttemptAt, id LIMIT ?
                    )
                    RETURNING id, webhookID, boardID, url, secret, event, payload, createdAt, nextAttemptAt, attempts
                    """,
                arguments: [leaseUntil, now, now, limit]
            ).map { row in
                WebhookDelivery(
                    id: row["id"],
                    webhookID: row["webhookID"],
                    boardID: row["boardID"],
                    url: row["url"],
                    secret: row["secret"],
                    event: row["event"],
                    payload: row["payload"],
                    createdAt: row["createdAt"],
                    nextAttemptAt: row["nextAttemptAt"],
                    attempts: row["attempts"]
                )
            }.sorted { ($0.nextAttemptAt, $0.id) < ($1.nextAttemptAt, $1.id) }
        }
    }

    public func nextDeliveryTime() async throws -> Int64? {
        try await pool.read { db in
            try Int64.fetchOne(db, sql: "SELECT min(max(nextAttemptAt, COALESCE(lockedUntil, 0))) FROM webhook_delivery")
        }
    }

    public func recordAttempt(
        _ attempt: WebhookAttempt,
        of delivery: WebhookDelivery,
        outcome: WebhookAttemptOutcome
    ) async throws
        -> WebhookEndpoint?
    {
        try await pool.write { db -> WebhookEndpoint? in
            switch outcome {
            case .delivered, .failed:
                try db.execute(sql: "DELETE FROM webhook_delivery WHERE id = ?", arguments: [delivery.id])
            case .retry(let instant):
                try db.execute(
                    sql: "UPDATE webhook_delivery SET attempts = attempts + 1, nextAttemptAt = ?, lockedUntil = NULL WHERE id = ?",
                    arguments: [instant, delivery.id]
                )
            }
            guard try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM webhook WHERE id = ?)", arguments: [delivery.webhookID]) == true else {
                return nil
            }
            try db.execute(
                sql: "INSERT INTO webhook_attempt (webhookID, messageID, event, time, status, error, durationMs) VALUES (?, ?, ?, ?, ?, ?, ?)",
                arguments: [delivery.webhookID, attempt.messageID, attempt.event, attempt.time, attempt.status, attempt.error, attempt.durationMs]
            )
            try db.execute(
                sql: """
                    DELETE FROM webhook_attempt WHERE webhookID = ? AND rowid NOT IN (
                        SELECT rowid FROM webhook_attempt WHERE webhookID = ? ORDER BY time DESC, rowid DESC LIMIT ?
                    )
                    """,
                arguments: [delivery.webhookID, delivery.webhookID, webhookAttemptsKept]
            )
            if outcome == .delivered {
                try db.execute(sql: "UPDATE webhook SET failingSince = NULL WHERE id = ?", arguments: [delivery.webhookID])
            } else {
                try db.execute(
                    sql: "UPDATE webhook SET failingSince = COALESCE(failingSince, ?) WHERE id = ?",
                    arguments: [attempt.time, delivery.webhookID]
                )
            }
            return try Self.webhooks(db, where: "id = ?", [delivery.webhookID]).first
        }
    }

    public func disableWebhook(id: String, boardID: String, reason: String) async throws {
        try await pool.write { db in
            try db.execute(sql: "UPDATE webhook SET enabled = 0, disabledReason = ? WHERE id = ? AND boardID = ?", arguments: [reason, id, boardID])
            try db.execute(sql: "DELETE FROM webhook_delivery WHERE webhookID = ?", arguments: [id])
        }
    }

    public func pendingDeliveryCount() async throws -> Int {
        try await pool.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM webhook_delivery") ?? 0 }
    }

    /// One node uses the file: a lease still held belongs to a process that is gone.
    public func releaseAbandonedLeases() async throws {
        try await pool.write { db in try db.execute(sql: "UPDATE webhook_delivery SET lockedUntil = NULL WHERE lockedUntil IS NOT NULL") }
    }

    // MARK: Rows

    static func webhooks(of boardID: String, _ db: Database) throws -> [WebhookEndpoint] {
        try webhooks(db, where: "boardID = ?", [boardID])
    }

    private static func webhooks(_ db: Database, where condition: String, _ arguments: StatementArguments) throws -> [WebhookEndpoint] {
        try Row.fetchAll(
            db,
            sql: """
                SELECT id, boardID, url, secret, events, createdAt, enabled, disabledReason, failingSince
                FROM webhook WHERE \(condition) ORDER BY createdAt, id
                """,
            arguments: arguments
        ).map { row in
            WebhookEndpoint(
                id: row["id"],
                boardID: row["boardID"],
                url: row["url"],
                secret: row["secret"],
                events: (row["events"] as String).split(separator: ",").map(String.init),
                createdAt: row["createdAt"],
                enabled: row["enabled"],
                disabledReason: row["disabledReason"],
                failingSince: row["failingSince"]
            )
        }
    }

    /// Adds deliveries to the outbox: one whose `onceKey` was used is left out, one whose
    /// endpoint is gone or disabled too, and one whose `coalesceKey` waits already replaces
    /// that one's payload.
    static func insert(_ deliveries: [WebhookDelivery], _ db: Database) throws {
        for delivery in deliveries {
            if let key = delivery.onceKey {
                try db.cachedStatement(sql: "INSERT INTO webhook_once (key, keepUntil) VALUES (?, ?) ON CONFLICT (key) DO NOTHING")
                    .execute(arguments: [key, delivery.onceUntil])
                guard db.changesCount == 1 else { continue }
            }
            try db.cachedStatement(
                sql: """
                    INSERT INTO webhook_delivery (id, webhookID, boardID, url, secret, event, payload, createdAt, nextAttemptAt, attempts, coalesceKey)
                    SELECT ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ? WHERE EXISTS (SELECT 1 FROM webhook WHERE id = ? AND enabled = 1)
                    ON CONFLICT (coalesceKey) DO UPDATE SET payload = excluded.payload
                    """
            ).execute(arguments: [
                delivery.id, delivery.webhookID, delivery.boardID, delivery.url, delivery.secret, delivery.event, delivery.payload,
                delivery.createdAt, delivery.nextAttemptAt, delivery.attempts, delivery.coalesceKey, delivery.webhookID,
            ])
        }
    }
}
