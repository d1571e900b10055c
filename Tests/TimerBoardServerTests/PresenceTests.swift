import BoardCore
import BoardProtocol
import Testing
import TimerBoardTestClient

@Suite(.timeLimit(.minutes(2))) struct PresenceTests {
    /// Applies presence messages until who is on the board satisfies `condition`.
    private func presence(
        on connection: BoardConnection,
        in list: inout PresenceList,
        where condition: ([ServerMessage.PresenceUser]) -> Bool
    ) async throws -> [ServerMessage.PresenceUser] {
        while true {
            if list.apply(try await connection.receive()) {
                let users = list.users.values.sorted { $0.name < $1.name }
                if condition(users) { return users }
            }
        }
    }

    @Test func everyoneSeesWhoIsOnTheBoardAndWhatTheyEditUntilTheyLeave() async throws {
        try await LiveServer.fresh().run { server in
            let board = try await server.createBoard()
            let ada = BoardConnection(url: server.webSocketURL)
            ada.send(.hello(.init(clientID: "ada", name: "Ada")))
            ada.send(.join(.init(board: board.id, secret: board.edit)))
            var adaSees = PresenceList()
            let alone = try await presence(on: ada, in: &adaSees) { _ in true }
            #expect(alone.map(\.name) == ["Ada"])

            let bob = BoardConnection(url: server.webSocketURL)
            bob.send(.hello(.init(clientID: "bob", name: "Bob")))
            bob.send(.join(.init(board: board.id, secret: board.edit)))
            let both = try await presence(on: ada, in: &adaSees) { $0.count == 2 }
            #expect(Set(both.map(\.name)) == ["Ada", "Bob"])
            #expect(both.allSatisfy { $0.color.hasPrefix("#") })

            bob.send(.presence(editing: "sec-1"))
            let editing = try await presence(on: ada, in: &adaSees) { users in users.contains { $0.name == "Bob" && $0.editing == "sec-1" } }
            #expect(editing.first { $0.name == "Ada" }?.editing == nil)

            // A dropped connection disappears from presence.
            await bob.close()
            let after = try await presence(on: ada, in: &adaSees) { $0.count == 1 }
            #expect(after.map(\.name) == ["Ada"])
            await ada.close()
        }
    }

    @Test func aJoinerGetsEveryoneRightAfterItsSnapshotAndACrowdConverges() async throws {
        try await LiveServer.fresh().run { server in
            let board = try await server.createBoard()
            let observer = BoardConnection(url: server.webSocketURL)
            observer.send(.hello(.init(clientID: "observer", name: "Observer")))
            observer.send(.join(.init(board: board.id, secret: board.edit)))
            var observerSees = PresenceList()
            _ = try await presence(on: observer, in: &observerSees) { $0.count == 1 }

            let crowd = (0..<20).map { index in
                let connection = BoardConnection(url: server.webSocketURL)
                connection.send(.hello(.init(clientID: "guest-\(index)", name: "Guest \(index)")))
                connection.send(.join(.init(board: board.id, secret: board.edit)))
                return connection
            }
            let everyone = try await presence(on: observer, in: &observerSees) { $0.count == 21 }
            #expect(
                everyone.map(\.name) == [
                    "Guest 0", "Guest 1", "Guest 10", "Guest 11", "Guest 12", "Guest 13", "Guest 14", "Guest 15", "Guest 16", "Guest 17", "Guest 18",
                    "Guest 19", "Guest 2", "Guest 3", "Guest 4", "Guest 5", "Guest 6", "Guest 7", "Guest 8", "Guest 9", "Observer",
                ]
            )
            // Each of the crowd, whatever list it got on joining, ends up seeing the same 21.
            for connection in crowd {
                var sees = PresenceList()
                let users = try await presence(on: connection, in: &sees) { $0.count == 21 }
                #expect(users.map(\.userID) == everyone.map(\.userID))
            }

            // The last to arrive gets the whole list in one message, straight after its snapshot.
            let late = BoardConnection(url: server.webSocketURL)
            late.send(.hello(.init(clientID: "late", name: "Late")))
            guard case .welcome = try await late.receive() else { throw TestFailure("expected welcome") }
            late.send(.join(.init(board: board.id, secret: board.edit)))
            guard case .access(_, .edit, _) = try await late.receive() else { throw TestFailure("expected access first") }
            guard case .snapshot = try await late.receive() else { throw TestFailure("expected the snapshot next") }
            guard case .presence(let list, _) = try await late.receive() else { throw TestFailure("expected the presence list next") }
            #expect(list.count == 22)

            for connection in crowd { await connection.close() }
            await late.close()
            let alone = try await presence(on: observer, in: &observerSees) { $0.count == 1 }
            #expect(alone.map(\.name) == ["Observer"])
            await observer.close()
        }
    }
}
