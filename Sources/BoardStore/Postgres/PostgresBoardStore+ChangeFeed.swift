import Logging
import PostgresNIO

extension PostgresBoardStore: BoardChangeFeed {
    /// Keeps one pooled connection LISTENing on the changes channel, and another one again
    /// whenever it drops (after a short, growing pause): a node outlives a database restart.
    public func followChanges(_ handle: @Sendable (BoardChangeEvent) async -> Void) async {
        var pause = Duration.milliseconds(100)
        while !Task.isCancelled {
            do {
                try await client.withConnection { connection in
                    try await connection.listen(on: Self.changesChannel) { notifications in
                        pause = .milliseconds(100)
                        await handle(.listening)
                        for try await notification in notifications {
                            guard let event = Self.event(fromPayload: notification.payload) else { continue }
                            await handle(event)
                        }
                    }
                }
            } catch {
                if Task.isCancelled { return }
                logger.warning("lost the database's change notifications; listening again", metadata: ["tb.error": "\(String(reflecting: error))"])
            }
            if Task.isCancelled { return }
            await handle(.lost)
            try? await Task.sleep(for: pause)
            pause = min(pause * 2, .seconds(2))
        }
    }

    /// `<revision> <boardID>`, as `append` sends it.
    static func event(fromPayload payload: String) -> BoardChangeEvent? {
        guard let space = payload.firstIndex(of: " "), let revision = Int64(payload[..<space]) else { return nil }
        let boardID = String(payload[payload.index(after: space)...])
        guard !boardID.isEmpty else { return nil }
        return .appended(boardID: boardID, revision: revision)
    }
}
