import BoardCore
import BoardProtocol
import Testing
import TimerBoardClient

@Suite(.timeLimit(.minutes(2))) struct PresenceTests {
    /// Applies presence messages until who is on the board satisfies `condition`.
    private func presence(
        on connection: BoardConnection,
        in list: inout PresenceList,
        where condition: ([ServerMessage.PresenceUser]) -> Bool
    ) async throws -> [ServerMessage.PresenceUser] {
        while true {
            if list.apply(try await connection.receive()) {
                let users = list.users.values.sorted { $0.clientID < $1.clientID }
                if condition(users) { return users }
            }
        }
    }

    @Test func everyoneSeesWhoIsOnTheBoardAndWhatTheyEditUntilTheyLeave() async throws {
        try await LiveServer.fresh().run { server in
            let board = try await server.createBoard()
            let ada = BoardConnection(url: server.webSocketURL)
            ada.send(.hello(.init(clientID: "ada", name: "Ada")))
            ada.send(.join(.init(board: board)))
            var adaSees = PresenceList()
            let alone = try await presence(on: ada, in: &adaSees) { _ in true }
            #expect(alone.map(\.name) == ["Ada"])

            let bob = BoardConnection(url: server.webSocketURL)
            bob.send(.hello(.init(clientID: "bob", name: "Bob")))
            bob.send(.join(.init(board: board)))
            let both = try await presence(on: ada, in: &adaSees) { $0.count == 2 }
            #expect(Set(both.map(\.name)) == ["Ada", "Bob"])
            #expect(both.allSatisfy { $0.color.hasPrefix("#") })

            bob.send(.presence(editing: "sec-1"))
            let editing = try await presence(on: ada, in: &adaSees) { users in users.contains { $0.clientID == "bob" && $0.editing == "sec-1" } }
            #expect(editing.first { $0.clientID == "ada" }?.editing == nil)

            // A dropped connection disappears from presence.
            await bob.close()
            let after = try await presence(on: ada, in: &adaSees) { $0.count == 1 }
            #expect(after.map(\.clientID) == ["ada"])
            await ada.close()
        }
    }

    @Test func aJoinerGetsEveryoneRightAfterItsSnapshotAndACrowdConverges() async throws {
        try await LiveServer.fresh().run { server in
            let board = try await server.createBoard()
            let observer = BoardConnection(url: server.webSocketURL)
            observer.send(.hello(.init(clientID: "observer", name: "Observer")))
            observer.send(.join(.init(board: board)))
            var observerSees = PresenceList()
            _ = try await presence(on: observer, in: &observerSees) { $0.count == 1 }

            let crowd = (0..<20).map { index in
                let connection = BoardConnection(url: server.webSocketURL)
                connection.send(.hello(.init(clientID: "guest-\(index)", name: "Guest \(index)")))
                connection.send(.join(.init(board: board)))
                return connection
            }
            let everyone = try await presence(on: observer, in: &observerSees) { $0.count == 21 }
            #expect(
                everyone.map(\.clientID) == [
                    "guest-0", "guest-1", "guest-10", "guest-11", "guest-12", "guest-13", "guest-14", "guest-15", "guest-16", "guest-17", "guest-18",
                    "guest-19", "guest-2", "guest-3", "guest-4", "guest-5", "guest-6", "guest-7", "guest-8", "guest-9", "observer",
                ]
            )
            // Each of the crowd, whatever list it got on joining, ends up seeing the same 21.
            for connection in crowd {
                var sees = PresenceList()
                let users = try await presence(on: connection, in: &sees) { $0.count == 21 }
                #expect(users.map(\.clientID) == everyone.map(\.clientID))
            }

            // The last to arrive gets the whole list in one message, straight after its snapshot.
            let late = BoardConnection(url: server.webSocketURL)
            late.send(.hello(.init(clientID: "late", name: "Late")))
            guard case .welcome = try await late.receive() else { throw TestFailure("expected welcome") }
            late.send(.join(.init(board: board)))
            guard case .snapshot = try await late.receive() else { throw TestFailure("expected the snapshot first") }
            guard case .presence(let list) = try await late.receive() else { throw TestFailure("expected the presence list next") }
            #expect(list.count == 22)

            for connection in crowd { await connection.close() }
            await late.close()
            let alone = try await presence(on: observer, in: &observerSees) { $0.count == 1 }
            #expect(alone.map(\.clientID) == ["observer"])
            await observer.close()
        }
    }
}
