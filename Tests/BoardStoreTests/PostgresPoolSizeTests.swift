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
        defer { store.close() }

        // Ten queries that each hold a connection for a second, all at once: the pool works
        // through them for a few seconds, at its most connections from soon after the start.
        let queries = Task {
            try await withThrowingTaskGroup(of: Void.self) { group in
                for _ in 0..<10 {
                    group.addTask { _ = try await store.client.query("SELECT pg_sleep(1)").collect() }
                }
                try await group.waitForAll()
            }
        }
        // The most connections seen in its first 1.5 s (the ten queries take two seconds or more),
        // asked from a client on another database, which PostgreSQL does not count among them.
        let observerLocation = try await ScratchPostgres.database("postgres")
        let observer = PostgresClient(configuration: observerLocation.testClientConfiguration, backgroundLogger: Logger(label: "test"))
        let observing = await PostgresBoardStore.startRunning(observer)
        defer { observing.cancel() }
        var most = 0
        for _ in 0..<30 {
            most = max(most, try await connectionCount(to: name, asking: observer))
            try await Task.sleep(for: .milliseconds(50))
        }
        try await queries.value
        #expect(most == maximum)
    }

    /// The connections PostgreSQL holds open to database `name`.
    private func connectionCount(to name: String, asking client: PostgresClient) async throws -> Int {
        let rows = try await client.query("SELECT count(*)::int FROM pg_stat_activity WHERE datname = \(name)")
        for try await count in rows.decode(Int.self) { return count }
        return 0
    }
}
