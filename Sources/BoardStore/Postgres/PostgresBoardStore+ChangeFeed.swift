import Logging
import PostgresNIO

extension PostgresBoardStore: BoardChangeFeed {
    /// Keeps one pooled connection LISTENing on the changes and presence channels, and another one again
    /// whenever it drops (after a short, growing pause): a node outlives a database restart.
    public func followChanges(_ handle: @Sendable (BoardChangeEvent) async -> Void) async {
        var pause = Duration.milliseconds(100)
        while !Task.isCancelled {
            do {
                try await pool.withConnectionUnboundedWait { connection in
                    try await connection.listen(on: Self.changesChannel) { changes in
                        try await connection.listen(on: Self.presenceChannel) { presence in
                            pause = .milliseconds(100)
                            await handle(.listening)
                            // Both channels into one ordered stream of events for `handle`.
                            let (events, sink) = AsyncThrowingStream.makeStream(of: BoardChangeEvent.self)
                            try await withThrowingTaskGroup(of: Void.self) { group in
                                // A channel that ends or fails (the connection dropped) ends the stream with it.
                                group.addTask {
                                    do {
                                        for try await notification in changes {
                                            if let event = Self.event(fromPayload: notification.payload) { sink.yield(event) }
                                        }
                                        sink.finish()
                                    } catch {
                                        sink.finish(throwing: error)
                                    }
                                }
                                group.addTask {
                                    do {
                                        for try await notification in presence {
                                            if let event = Self.presenceEvent(fromPayload: notification.payload) { sink.yield(event) }
                                        }
                                        sink.finish()
                                    } catch {
                                        sink.finish(throwing: error)
                                    }
                                }
                                do {
                                    for try await event in events { await handle(event) }
                                } catch {
                                    group.cancelAll()
                                    throw error
                                }
                                group.cancelAll()
                            }
                        }
                    }
                }
            } catch {
                if Task.isCancelled { return }
                logger.warning("lost the database's change notifications; listening again", metadata: ["tb.error": "\(error)"])
            }
            if Task.isCancelled { return }
            await handle(.lost)
            try? await Task.sleep(for: pause)
            pause = min(pause * 2, .seconds(2))
        }
    }

    /// The channel of presence: `<boardID> <payload>`.
    static let presenceChannel = "timerboard_presence"

    /// PostgreSQL refuses a notification payload of 8,000 bytes or more.
    public static let presencePayloadLimit = 7_900

    public func publishPresence(boardID: String, payload: String) async throws {
        let message = "\(boardID) \(payload)"
        guard message.utf8.count <= Self.presencePayloadLimit else {
            throw StoreError(.corrupt, boardID: boardID, revision: nil, "a presence message of \(message.utf8.count) bytes is over the limit")
        }
        let logger = logger
        try await pool.withConnection { connection in
            _ = try await connection.query("SELECT pg_notify(\(Self.presenceChannel), \(message))", logger: logger).collect()
        }
    }

    static func presenceEvent(fromPayload payload: String) -> BoardChangeEvent? {
        guard let space = payload.firstIndex(of: " ") else { return nil }
        let boardID = String(payload[..<space])
        guard !boardID.isEmpty else { return nil }
        return .presence(boardID: boardID, payload: String(payload[payload.index(after: space)...]))
    }

    /// `<revision> <boardID>`, as `append` sends it, or `board <boardID>` for a change of its
    /// title, links or existence.
    static func event(fromPayload payload: String) -> BoardChangeEvent? {
        guard let space = payload.firstIndex(of: " ") else { return nil }
        let boardID = String(payload[payload.index(after: space)...])
        guard !boardID.isEmpty else { return nil }
        if payload[..<space] == "board" { return .boardChanged(boardID: boardID) }
        guard let revision = Int64(payload[..<space]) else { return nil }
        return .appended(boardID: boardID, revision: revision)
    }
}
