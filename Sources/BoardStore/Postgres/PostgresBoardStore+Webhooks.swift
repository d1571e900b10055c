import Logging
import PostgresNIO

/// Webhook endpoints, their attempts and the outbox of deliveries, shared by every node: a
/// delivery is leased by one node at a time (`FOR UPDATE SKIP LOCKED`, then `locked_until`), so
/// each is sent by one node, not once per node. A change of a board's endpoints rings the other
/// nodes (`board <id>`), whose rooms read them again.
extension PostgresBoardStore {
    public func createWebhook(_ endpoint: WebhookEndpoint, limit: Int) async throws {
        let logger = logger
        try await transaction { connection in
            // The board's row, locked: two nodes adding endpoints at once count one after the other.
            let board = try await connection.query("SELECT 1 FROM board WHERE id = \(endpoint.boardID) FOR UPDATE", logger: logger).collect()
            guard board.count == 1 else { throw StoreError(.boardNotFound, "no board \(endpoint.boardID)") }
            var count = 0
            for try await value in try await connection.query("SELECT count(*) FROM webhook WHERE board_id = \(endpoint.boardID)", logger: logger)
                .decode(Int.self)
            {
                count = value
            }
            guard count < limit else {
                throw StoreError(.limitReached, boardID: endpoint.boardID, revision: nil, "a board has at most \(limit) webhook endpoints")
            }
            try await connection.query(
                """
                INSERT INTO webhook (id, board_id, url, secret, events, created_at, enabled, disabled_reason, failing_since)
                VALUES (\(endpoint.id), \(endpoint.boardID), \(endpoint.url), \(endpoint.secret), \(endpoint.events.joined(separator: ",")),
                        \(endpoint.createdAt), \(endpoint.enabled), \(endpoint.disabledReason), \(endpoint.failingSince))
                """,
                logger: logger
            )
            try await Self.notifyBoardChanged(endpoint.boardID, connection, logger: logger)
        }
    }

    public func deleteWebhook(id: String, boardID: String) async throws -> Bool {
        let logger = logger
        return try await transaction { connection in
            // Its attempts go with it (ON DELETE CASCADE).
            let deleted = try await connection.query("DELETE FROM webhook WHERE id = \(id) AND board_id = \(boardID) RETURNING 1", logger: logger)
                .collect().count
            guard deleted == 1 else { return false }
            try await connection.query("DELETE FROM webhook_delivery WHERE webhook_id = \(id)", logger: logger)
            try await Self.notifyBoardChanged(boardID, connection, logger: logger)
            return true
        }
    }

    public func webhooks(boardID: String) async throws -> [WebhookReport] {
        let logger = logger
        return try await transaction(readOnly: true) { connection in
            var reports: [WebhookReport] = []
            for endpoint in try await Self.webhooks(connection.query(Self.webhookQuery(boardID: boardID), logger: logger)) {
                let rows = try await connection.query(
                    """
                    SELECT message_id, event, time, status, error, duration_ms FROM webhook_attempt
                    WHERE webhook_id = \(endpoint.id) ORDER BY time DESC, id DESC LIMIT \(webhookAttemptsKept)
                    """,
                    logger: logger
                )
                var attempts: [WebhookAttempt] = []
                for try await (messageID, event, time, status, error, duration) in rows.decode((String, String, Int64, Int?, String?, Int64).self) {
                    attempts.append(
                        WebhookAttempt(
                            webhookID: endpoint.id,
                            messageID: messageID,
                            event: event,
                            time: time,
                            status: status,
                            error: error,
                            durationMs: duration
                        )
                    )
                }
                reports.append(WebhookReport(endpoint: endpoint, attempts: attempts))
            }
            return reports
        }
    }

    public func boardsWithWebhooks() async throws -> [String] {
        let logger = logger
        return try await pool.withConnection { connection in
            var boards: [String] = []
            for try await id in try await connection.query("SELECT DISTINCT board_id FROM webhook WHERE enabled ORDER BY board_id", logger: logger)
                .decode(String.self)
            {
                boards.append(id)
            }
            return boards
        }
    }

    public func enqueue(_ deliveries: [WebhookDelivery]) async throws {
        guard !deliveries.isEmpty else { return }
        let logger = logger
        try await transaction { connection in try await Self.insert(deliveries, connection, logger: logger) }
    }

    public func claimDeliveries(now: Int64, limit: Int, leaseUntil: Int64) async throws -> [WebhookDelivery] {
        let logger = logger
        return try await pool.withConnection { connection in
            try await Self.claimDeliveries(now: now, limit: limit, leaseUntil: leaseUntil, on: connection, logger: logger)
        }
    }

    private static func claimDeliveries(
        now: Int64,
        limit: Int,
        leaseUntil: Int64,
        on connection: PostgresConnection,
        logger: Logger
    ) async throws -> [WebhookDelivery] {
        try await connection.query("DELETE FROM webhook_once WHERE keep_until < \(now)", logger: logger)
        // Rows another node is claiming right now are skipped, not waited for; the lease then
        // keeps them from every other claim until it runs out.
        let rows = try await connection.query(
            """
            UPDATE webhook_delivery SET locked_until = \(leaseUntil), coalesce_key = NULL
            WHERE id IN (
                SELECT id FROM webhook_delivery WHERE next_attempt_at <= \(now) AND (locked_until IS NULL OR locked_until <= \(now))
                ORDER BY next_attempt_at, id LIMIT \(limit) FOR UPDATE SKIP LOCKED
            )
            RETURNING id, webhook_id, board_id, url, secret, event, payload, created_at, next_attempt_at, attempts
            """,
            logger: logger
        )
        var claimed: [WebhookDelivery] = []
        for try await (id, webhookID, boardID, url, secret, event, payload, createdAt, nextAttemptAt, attempts) in rows.decode(
            (String, String, String, String, String, String, String, Int64, Int64, Int).self
        ) {
            claimed.append(
                WebhookDelivery(
                    id: id,
                    webhookID: webhookID,
                    boardID: boardID,
                    url: url,
                    secret: secret,
                    event: event,
                    payload: payload,
                    createdAt: createdAt,
                    nextAttemptAt: nextAttemptAt,
                    attempts: attempts
                )
            )
        }
        return claimed.sorted { ($0.nextAttemptAt, $0.id) < ($1.nextAttemptAt, $1.id) }
    }

    public func nextDeliveryTime() async throws -> Int64? {
        let logger = logger
        return try await pool.withConnection { connection in
            var next: Int64?
            let rows = try await connection.query(
                "SELECT min(GREATEST(next_attempt_at, COALESCE(locked_until, 0))) FROM webhook_delivery",
                logger: logger
            )
            for try await value in rows.decode(Int64?.self) { next = value }
            return next
        }
    }

    public func recordAttempt(
        _ attempt: WebhookAttempt,
        of delivery: WebhookDelivery,
        outcome: WebhookAttemptOutcome
    ) async throws
        -> WebhookEndpoint?
    {
        let logger = logger
        return try await transaction { connection -> WebhookEndpoint? in
            switch outcome {
            case .delivered, .failed:
                try await connection.query("DELETE FROM webhook_delivery WHERE id = \(delivery.id)", logger: logger)
            case .retry(let instant):
                try await connection.query(
                    "UPDATE webhook_delivery SET attempts = attempts + 1, next_attempt_at = \(instant), locked_until = NULL WHERE id = \(delivery.id)",
                    logger: logger
                )
            }
            // A success ends the endpoint's run of failures; a failure starts one if none runs.
            let update: PostgresQuery =
                outcome == .delivered
                ? """
                UPDATE webhook SET failing_since = NULL WHERE id = \(delivery.webhookID)
                RETURNING id, board_id, url, secret, events, created_at, enabled, disabled_reason, failing_since
                """
                : """
                UPDATE webhook SET failing_since = COALESCE(failing_since, \(attempt.time)) WHERE id = \(delivery.webhookID)
                RETURNING id, board_id, url, secret, events, created_at, enabled, disabled_reason, failing_since
                """
            let endpoints = try await Self.webhooks(connection.query(update, logger: logger))
            guard let endpoint = endpoints.first else { return nil }
            try await connection.query(
                """
                INSERT INTO webhook_attempt (webhook_id, message_id, event, time, status, error, duration_ms)
                VALUES (\(endpoint.id), \(attempt.messageID), \(attempt.event), \(attempt.time), \(attempt.status), \(attempt.error), \(attempt.durationMs))
                """,
                logger: logger
            )
            try await connection.query(
                """
                DELETE FROM webhook_attempt WHERE webhook_id = \(endpoint.id) AND id NOT IN (
                    SELECT id FROM webhook_attempt WHERE webhook_id = \(endpoint.id) ORDER BY time DESC, id DESC LIMIT \(webhookAttemptsKept)
                )
                """,
                logger: logger
            )
            return endpoint
        }
    }

    public func disableWebhook(id: String, boardID: String, reason: String) async throws {
        let logger = logger
        try await transaction { connection in
            try await connection.query(
                "UPDATE webhook SET enabled = FALSE, disabled_reason = \(reason) WHERE id = \(id) AND board_id = \(boardID)",
                logger: logger
            )
            try await connection.query("DELETE FROM webhook_delivery WHERE webhook_id = \(id)", logger: logger)
            try await Self.notifyBoardChanged(boardID, connection, logger: logger)
        }
    }

    public func pendingDeliveryCount() async throws -> Int {
        let logger = logger
        return try await pool.withConnection { connection in
            var count = 0
            for try await value in try await connection.query("SELECT count(*) FROM webhook_delivery", logger: logger).decode(Int.self) {
                count = value
            }
            return count
        }
    }

    /// Another node may be sending what it leased: its leases run out by themselves.
    public func releaseAbandonedLeases() async throws {}

    // MARK: Rows

    static func webhookQuery(boardID: String) -> PostgresQuery {
        """
        SELECT id, board_id, url, secret, events, created_at, enabled, disabled_reason, failing_since
        FROM webhook WHERE board_id = \(boardID) ORDER BY created_at, id
        """
    }

    static func webhooks(_ rows: PostgresRowSequence) async throws -> [WebhookEndpoint] {
        var endpoints: [WebhookEndpoint] = []
        for try await (id, boardID, url, secret, events, createdAt, enabled, reason, failingSince) in rows.decode(
            (String, String, String, String, String, Int64, Bool, String?, Int64?).self
        ) {
            endpoints.append(
                WebhookEndpoint(
                    id: id,
                    boardID: boardID,
                    url: url,
                    secret: secret,
                    events: events.split(separator: ",").map(String.init),
                    createdAt: createdAt,
                    enabled: enabled,
                    disabledReason: reason,
                    failingSince: failingSince
                )
            )
        }
        return endpoints
    }

    /// Adds deliveries to the outbox, with the rules of `BoardStore.append`.
    static func insert(_ deliveries: [WebhookDelivery], _ connection: PostgresConnection, logger: Logger) async throws {
        for delivery in deliveries {
            if let key = delivery.onceKey {
                let fresh = try await connection.query(
                    "INSERT INTO webhook_once (key, keep_until) VALUES (\(key), \(delivery.onceUntil)) ON CONFLICT (key) DO NOTHING RETURNING 1",
                    logger: logger
                ).collect()
                guard fresh.count == 1 else { continue }
            }
            try await connection.query(
                """
                INSERT INTO webhook_delivery (id, webhook_id, board_id, url, secret, event, payload, created_at, next_attempt_at, attempts, coalesce_key)
                SELECT \(delivery.id), \(delivery.webhookID), \(delivery.boardID), \(delivery.url), \(delivery.secret), \(delivery.event),
                       \(delivery.payload), \(delivery.createdAt), \(delivery.nextAttemptAt), \(delivery.attempts), \(delivery.coalesceKey)
                WHERE EXISTS (SELECT 1 FROM webhook WHERE id = \(delivery.webhookID) AND enabled)
                ON CONFLICT (coalesce_key) DO UPDATE SET payload = excluded.payload
                """,
                logger: logger
            )
        }
    }
}
