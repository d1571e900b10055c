import BoardCore
import BoardStore
import Foundation
import Logging
import Testing

/// The doorbell between nodes, on a real PostgreSQL server.
@Suite struct PostgresChangeFeedTests {
    /// Collects a feed's events for a test to wait on.
    actor Events {
        private(set) var all: [BoardChangeEvent] = []
        func add(_ event: BoardChangeEvent) { all.append(event) }

        /// Waits (up to 10 s) until `done` holds for the events so far.
        func wait(until done: ([BoardChangeEvent]) -> Bool) async throws -> [BoardChangeEvent] {
            for _ in 0..<1_000 where !done(all) { try await Task.sleep(for: .milliseconds(10)) }
            return all
        }
    }

    static func open(_ name: String) async throws -> PostgresBoardStore {
        try await PostgresBoardStore(location: ScratchPostgres.database(name), logger: Logger(label: "test"))
    }

    @Test func anAppendRingsEveryListenerOnceCommittedAndAConflictRingsNone() async throws {
        let name = "feed_\(UUID().uuidString.replacingOccurrences(of: "-", with: "_").lowercased())"
        let writer = try await Self.open(name)
        let listener = try await Self.open(name)
        let events = Events()
        let follow = Task { await listener.followChanges { await events.add($0) } }
        defer { follow.cancel() }
        _ = try await events.wait { $0.contains(.listening) }

        try await writer.createBoard(BoardInfo(id: "b", title: "B", createdDate: 1), access: BoardStoreContractTests.access)
        let section = BoardStoreContractTests.addSection("s")
        try await writer.append(
            [BoardStoreContractTests.changeset("b", 1, [section]), BoardStoreContractTests.changeset("b", 2, [.deleteSection("s")])],
            snapshot: nil
        )
        await #expect(throws: StoreError.self) {
            try await writer.append([BoardStoreContractTests.changeset("b", 2, [section])], snapshot: nil)
        }
        try await writer.append([BoardStoreContractTests.changeset("b", 3, [section])], snapshot: nil)
        let seen = try await events.wait { $0.contains(.appended(boardID: "b", revision: 3)) }
        // One ring per committed append, carrying its last revision; none for the refused claim.
        #expect(seen.filter { $0 != .listening } == [.appended(boardID: "b", revision: 2), .appended(boardID: "b", revision: 3)])
    }

    @Test func aListenerThatLostTheDatabaseListensAgainAndSaysSo() async throws {
        let server = try ScratchPostgres.Private()
        defer { server.stop() }
        let store = try await PostgresBoardStore(location: server.location, logger: Logger(label: "test"))
        let events = Events()
        let follow = Task { await store.followChanges { await events.add($0) } }
        defer { follow.cancel() }
        _ = try await events.wait { $0.contains(.listening) }
        try server.restart()
        let seen = try await events.wait { $0.filter { $0 == .listening }.count == 2 }
        #expect(seen.first == .listening)
        #expect(seen.contains(.lost))
        #expect(seen.filter { $0 == .listening }.count == 2)
        // And the doorbell works on the new connection.
        try await store.createBoard(BoardInfo(id: "b", title: "B", createdDate: 1), access: BoardStoreContractTests.access)
        try await store.append([BoardStoreContractTests.changeset("b", 1, [BoardStoreContractTests.addSection("s")])], snapshot: nil)
        #expect(try await events.wait { $0.contains(.appended(boardID: "b", revision: 1)) }.contains(.appended(boardID: "b", revision: 1)))
    }

    /// A change of a board's endpoints (here, or a dispatcher disabling one) rings the other
    /// nodes, whose rooms read them again; a delivery's own bookkeeping does not.
    @Test func aChangeOfABoardsWebhooksRingsEveryNode() async throws {
        let name = "feed_\(UUID().uuidString.replacingOccurrences(of: "-", with: "_").lowercased())"
        let writer = try await Self.open(name)
        let listener = try await Self.open(name)
        let events = Events()
        let follow = Task { await listener.followChanges { await events.add($0) } }
        defer { follow.cancel() }
        _ = try await events.wait { $0.contains(.listening) }
        try await writer.createBoard(BoardInfo(id: "b", title: "B", createdDate: 1), access: BoardStoreContractTests.access)
        try await writer.createWebhook(WebhookStoreContractTests.endpoint("wh1"), limit: 10)
        try await writer.createWebhook(WebhookStoreContractTests.endpoint("wh2"), limit: 10)
        try await writer.enqueue([WebhookStoreContractTests.delivery("msg_1")])
        _ = try await writer.claimDeliveries(now: 1_000, limit: 10, leaseUntil: 2_000)
        try await writer.disableWebhook(id: "wh1", boardID: "b", reason: "failing")
        #expect(try await writer.deleteWebhook(id: "wh2", boardID: "b"))
        let seen = try await events.wait { $0.filter { $0 == .boardChanged(boardID: "b") }.count >= 4 }
        #expect(seen.filter { $0 != .listening } == Array(repeating: .boardChanged(boardID: "b"), count: 4))
    }
}
