import BoardCore
import BoardStore
import Foundation
import Logging
import Synchronization
import Testing

/// What the PostgreSQL store costs the node per append, on a real PostgreSQL server.
@Suite struct PostgresBoardStoreTests {
    /// Counts the round trips of a store's connections: PostgreSQL ends the answer to every
    /// request (a query, or an extended-protocol Sync) with one ReadyForQuery, which postgres-nio
    /// logs at trace level on the store's logger.
    final class RoundTrips: LogHandler, @unchecked Sendable {
        private let count = Atomic<Int>(0)
        var value: Int { count.load(ordering: .relaxed) }

        var logLevel: Logger.Level = .trace
        var metadata: Logger.Metadata = [:]
        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(
            level: Logger.Level,
            message: Logger.Message,
            metadata: Logger.Metadata?,
            source: String,
            file: String,
            function: String,
            line: UInt
        ) {
            guard let metadata, metadata.values.contains(where: { "\($0)".hasPrefix(".readyForQuery") }) else { return }
            count.add(1, ordering: .relaxed)
        }
    }

    /// An append without a snapshot is one statement, in one round trip: its claim, the move of
    /// the board's revision and the NOTIFY together, however many changesets it holds (it was
    /// BEGIN, one INSERT per changeset, UPDATE, NOTIFY and COMMIT, each a round trip: 15 counted
    /// for these 10).
    @Test func anAppendOfManyChangesetsIsOneRoundTrip() async throws {
        let name = "trips_\(UUID().uuidString.replacingOccurrences(of: "-", with: "_").lowercased())"
        let trips = RoundTrips()
        let store = try await PostgresBoardStore(location: ScratchPostgres.database(name), logger: Logger(label: "test") { _ in trips })
        try await store.createBoard(BoardInfo(id: "b", title: "B", createdDate: 1), access: BoardStoreContractTests.access)
        // The first append on a connection also prepares the statement there.
        try await store.append([BoardStoreContractTests.changeset("b", 1, [BoardStoreContractTests.addSection("s")])], snapshot: nil)

        let before = trips.value
        let batch = (Int64(2)...11).map { revision in
            BoardStoreContractTests.changeset("b", revision, [.updateSection("s", SectionPatch(title: "T\(revision)"))], op: "op\(revision)")
        }
        try await store.append(batch, snapshot: nil)
        #expect(trips.value - before == 1)

        let loaded = try #require(try await store.loadBoard(id: "b"))
        #expect(loaded.revision == 11)
        #expect(loaded.content.sections["s"]?.title == "T11")
        #expect(loaded.recentChangesets.map(\.opID) == [nil] + (2...11).map { "op\($0)" })
        #expect(loaded.recentChangesets.map(\.clientID) == [nil] + Array(repeating: "c1", count: 10))
        #expect(loaded.recentChangesets.map(\.time) == (1...11).map { 1_000 + Int64($0) })
    }
}
