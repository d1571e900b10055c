import Foundation
import Logging
import PostgresNIO
import Testing

@testable import BoardStore

/// `--store-connections`: the most connections one node's store opens to PostgreSQL, counted by
/// PostgreSQL itself while more queries wait than the pool may serve at once.
@Suite struct PostgresPoolSizeTests {
    @Test(arguments: [3, 6])
    func aStoreOpensAsManyConnectionsAsItsLocationAllowsAndNoMore(_ maximum: Int) async throws {
        let name = "pool_\(UUID().uuidString.replacingOccurrences(of: "-", with: "_").lowercased())"
        var location = try await ScratchPostgres.database(name)
        location.maximumConnections = maximum
        let store = try await PostgresBoardStore(location: location, logger: Logger(label: "test"))

        // Ten leases at once, each holding its connection a second and then counting the
        // database's connections from it: more wait than the pool may serve, so it opens all it
        // may, and the later leases run on connections the earlier ones opened.
        let counts = try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<10 {
                group.addTask {
                    try await store.client.withConnection { connection in
                        _ = try await connection.query("SELECT pg_sleep(1)", logger: store.logger).collect()
                        let rows = try await connection.query(
                            "SELECT count(*)::int FROM pg_stat_activity WHERE datname = current_database()",
                            logger: store.logger
                        )
                        for try await count in rows.decode(Int.self) { return count }
                        return 0
                    }
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        await store.close()
        #expect(counts.max() == maximum)
    }
}
