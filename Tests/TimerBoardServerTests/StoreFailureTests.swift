import BoardCore
import BoardProtocol
import GRDB
import Testing
import TimerBoardTestClient
import TimerBoardServer

/// What a room does when its store fails (`BoardRoom.fail`): nothing pending is acked, everyone
/// on the board is disconnected, the board comes back from the store on the next join with only
/// what was durable, and other boards go on as before. The store is the server's real SQLite
/// file, made to refuse one board's log rows by a trigger: a real SQLite error, as a full disk
/// or a damaged file would give.
@Suite(.timeLimit(.minutes(2))) struct StoreFailureTests {
    /// Makes the server's database refuse, or take again, new log rows of one board.
    struct RefusedAppends {
        let databasePath: String

        func start(_ board: TestBoard) throws {
            try write(
                """
                CREATE TRIGGER refuse_\(board.id) BEFORE INSERT ON changeset WHEN NEW.boardID = '\(board.id)'
                BEGIN SELECT RAISE(ABORT, 'the test refuses this board''s appends'); END
                """
            )
        }

        func stop(_ board: TestBoard) throws {
            try write("DROP TRIGGER refuse_\(board.id)")
        }

        private func write(_ sql: String) throws {
            var configuration = Configuration()
            configuration.busyMode = .timeout(10)
            try DatabaseQueue(path: databasePath, configuration: configuration).write { try $0.execute(sql: sql) }
        }
    }

    /// Everything the peer receives until the server closes its connection.
    private func messagesUntilClosed(_ peer: Peer) async -> [ServerMessage] {
        var messages: [ServerMessage] = []
        while let message = try? await peer.connection.receive() {
            messages.append(message)
        }
        return messages
    }

    private func acks(_ messages: [ServerMessage]) -> [String] {
        messages.compactMap { if case .ack(let opID, _, _, _, _) = $0 { opID } else { nil } }
    }

    private func revisions(_ messages: [ServerMessage]) -> [Int64] {
        messages.compactMap { if case .changes(let changeset) = $0 { changeset.revision } else { nil } }
    }

    @Test func anEditTheStoreRefusesIsNeverAckedOrSentAndEveryoneOnTheBoardIsDisconnected() async throws {
        let server = try LiveServer.fresh()
        let refused = RefusedAppends(databasePath: server.configuration.databasePath)
        try await server.run { handle in
            let board = try await handle.createBoard()
            let alice = try await handle.peer("alice")
            let bob = try await handle.peer("bob")
            try await alice.join(board)
            try await bob.join(board)
            try await alice.edit([.addSection(id: "s1", title: "Prep", isExpanded: true, position: .first)], opID: "kept")
            try await bob.catchUp(to: 1)

            try refused.start(board)
            alice.connection.send(.edit(.init(opID: "lost", ops: [.updateSection(id: "s1", title: "Lost", isExpanded: nil)])))
            let aliceGot = await messagesUntilClosed(alice)
            let bobGot = await messagesUntilClosed(bob)
            #expect(!acks(aliceGot).contains("lost"), "\(aliceGot)")
            #expect(revisions(aliceGot).allSatisfy { $0 < 2 }, "\(aliceGot)")
            #expect(revisions(bobGot).allSatisfy { $0 < 2 }, "\(bobGot)")
        }
    }

    @Test func afterAFailureTheBoardComesBackWithOnlyWhatWasDurableAndTakesEditsAgain() async throws {
        let server = try LiveServer.fresh()
        let refused = RefusedAppends(databasePath: server.configuration.databasePath)
        let board = try await server.run { handle in
            let board = try await handle.createBoard()
            let alice = try await handle.peer("alice")
            try await alice.join(board)
            try await alice.edit([.addSection(id: "s1", title: "Prep", isExpanded: true, position: .first)])

            try refused.start(board)
            alice.connection.send(.edit(.init(opID: "lost", ops: [.updateSection(id: "s1", title: "Lost", isExpanded: nil)])))
            _ = await messagesUntilClosed(alice)
            try refused.stop(board)

            // A client resuming from the lost revision would be ahead of the board: it gets a snapshot.
            let returning = try await handle.peer("alice")
            returning.connection.send(.join(.init(board: board.id, secret: board.edit, since: 2)))
            guard case .snapshot(let snapshot) = try await returning.receive() else { throw TestFailure("expected a snapshot") }
            #expect(snapshot.revision == 1)
            #expect(snapshot.content.sections["s1"]?.title == "Prep")
            guard case .ack(_, 2, false, _, _) = try await returning.edit([.updateSection(id: "s1", title: "Stored", isExpanded: nil)], opID: "stored")
            else {
                throw TestFailure("the board takes edits again")
            }
            await returning.close()
            return board
        }
        try await server.run { handle in
            let snapshot = try await handle.serverSnapshot(board)
            #expect(snapshot.revision == 2)
            #expect(snapshot.content.sections["s1"]?.title == "Stored")
        }
    }

    @Test func aFailureOfOneBoardLeavesTheOtherBoardsServing() async throws {
        let server = try LiveServer.fresh()
        let refused = RefusedAppends(databasePath: server.configuration.databasePath)
        try await server.run { handle in
            let failing = try await handle.createBoard(title: "Failing")
            let healthy = try await handle.createBoard(title: "Healthy")
            let alice = try await handle.peer("alice")
            let bob = try await handle.peer("bob")
            try await alice.join(failing)
            try await bob.join(healthy)

            try refused.start(failing)
            alice.connection.send(.edit(.init(opID: "lost", ops: [.addSection(id: "s1", title: "Lost", isExpanded: true, position: .first)])))
            #expect(!acks(await messagesUntilClosed(alice)).contains("lost"))
            guard case .ack(_, 1, false, _, _) = try await bob.edit([.addSection(id: "s1", title: "Kept", isExpanded: true, position: .first)]) else {
                throw TestFailure("the other board must go on")
            }
            await bob.close()
        }
    }

    /// Stored data the store cannot read is the server's fault: the joiner is told `internal`,
    /// never `bad_json` as if its own message were wrong, and the connection stays usable.
    @Test func aBoardWhoseStoredDataCannotBeReadIsTheServersErrorNotTheClients() async throws {
        let server = try LiveServer.fresh()
        try await server.run { handle in
            let board = try await handle.createBoard()
            let alice = try await handle.peer("alice")
            try await alice.join(board)
            try await alice.edit([.addSection(id: "s1", title: "Prep", isExpanded: true, position: .first)])
            alice.connection.send(.leave)
            try await alice.ping()  // the leave is handled and the board has left memory
            #expect(try await handle.liveBoards() == 0)

            var configuration = Configuration()
            configuration.busyMode = .timeout(10)
            try await DatabaseQueue(path: server.configuration.databasePath, configuration: configuration).write { db in
                try db.execute(sql: "UPDATE changeset SET changes = '[{\"update\":\"timer\"}]' WHERE boardID = ?", arguments: [board.id])
            }
            alice.connection.send(.join(.init(board: board.id, secret: board.edit)))
            guard case .error(let code, _, _) = try await alice.receive() else { throw TestFailure("expected an error") }
            #expect(code == .internal)
            try await alice.ping()
            await alice.close()
        }
    }
}
