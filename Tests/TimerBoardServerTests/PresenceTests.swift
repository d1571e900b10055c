import BoardCore
import BoardProtocol
import Testing
import TimerBoardClient

@Suite(.timeLimit(.minutes(2))) struct PresenceTests {
    /// Reads presence lists until one satisfies `condition`.
    private func presence(
        on connection: BoardConnection,
        where condition: ([ServerMessage.PresenceUser]) -> Bool
    ) async throws -> [ServerMessage.PresenceUser] {
        while true {
            if case .presence(let users) = try await connection.receive(), condition(users) { return users }
        }
    }

    @Test func everyoneSeesWhoIsOnTheBoardAndWhatTheyEditUntilTheyLeave() async throws {
        try await LiveServer.fresh().run { server in
            let board = try await server.createBoard()
            let ada = BoardConnection(url: server.webSocketURL)
            ada.send(.hello(.init(clientID: "ada", name: "Ada")))
            ada.send(.join(.init(board: board)))
            let alone = try await presence(on: ada) { _ in true }
            #expect(alone.map(\.name) == ["Ada"])

            let bob = BoardConnection(url: server.webSocketURL)
            bob.send(.hello(.init(clientID: "bob", name: "Bob")))
            bob.send(.join(.init(board: board)))
            let both = try await presence(on: ada) { $0.count == 2 }
            #expect(Set(both.map(\.name)) == ["Ada", "Bob"])
            #expect(both.allSatisfy { $0.color.hasPrefix("#") })

            bob.send(.presence(editing: "sec-1"))
            let editing = try await presence(on: ada) { users in users.contains { $0.clientID == "bob" && $0.editing == "sec-1" } }
            #expect(editing.first { $0.clientID == "ada" }?.editing == nil)

            // A dropped connection disappears from presence.
            await bob.close()
            let after = try await presence(on: ada) { $0.count == 1 }
            #expect(after.map(\.clientID) == ["ada"])
            await ada.close()
        }
    }
}
