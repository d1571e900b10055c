import BoardCore
import BoardProtocol
import Testing
import TimerBoardTestClient

/// Each screen shares how well its clock matches the server's, in presence.
@Suite(.timeLimit(.minutes(2))) struct PresenceClockErrorTests {
    /// Applies presence messages until the user named `name` satisfies `condition`.
    private func user(
        _ name: String,
        on connection: BoardConnection,
        in list: inout PresenceList,
        where condition: (ServerMessage.PresenceUser) -> Bool
    ) async throws -> ServerMessage.PresenceUser {
        while true {
            let message = try await connection.receive()
            if list.apply(message), let user = list.users.values.first(where: { $0.name == name }), condition(user) { return user }
        }
    }

    @Test func aReportedClockErrorReachesEveryoneAndAWallScreenMayReportItsOwn() async throws {
        try await LiveServer.fresh().run { server in
            let board = try await server.createBoard()
            let ada = BoardConnection(url: server.webSocketURL)
            ada.send(.hello(.init(clientID: "ada", name: "Ada")))
            ada.send(.join(.init(board: board.id, secret: board.edit)))
            var adaSees = PresenceList()
            let before = try await user("Ada", on: ada, in: &adaSees) { _ in true }
            #expect(before.clockError == nil, "absent until reported")

            ada.send(.presence(editing: "sec-1", clockError: 12))
            let reported = try await user("Ada", on: ada, in: &adaSees) { $0.clockError == 12 }
            #expect(reported.editing == "sec-1")

            // A presence without clockError keeps the last one.
            ada.send(.presence(editing: nil))
            let kept = try await user("Ada", on: ada, in: &adaSees) { $0.editing == nil }
            #expect(kept.clockError == 12)

            // A view link (a wall screen) edits nothing, but its clock counts.
            let wall = BoardConnection(url: server.webSocketURL)
            wall.send(.hello(.init(clientID: "wall", name: "Wall")))
            wall.send(.join(.init(board: board.id, secret: board.view)))
            wall.send(.presence(editing: nil, clockError: 180))
            let screen = try await user("Wall", on: ada, in: &adaSees) { $0.clockError != nil }
            #expect(screen.clockError == 180)
            // Naming something it edits is still forbidden, and changes nothing.
            wall.send(.presence(editing: "sec-1", clockError: 5))
            var code: ErrorCode?
            while code == nil {
                if case .error(let errorCode, _, _) = try await wall.receive() { code = errorCode }
            }
            #expect(code == .forbidden)
            await wall.close()
            await ada.close()
        }
    }

    @Test(arguments: [#"{"type":"presence","editing":null,"clockError":-1}"#, #"{"type":"presence","editing":null,"clockError":60001}"#])
    func aClockErrorOutOfRangeIsAnInvalidFieldAndChangesNothing(_ text: String) async throws {
        try await LiveServer.fresh().run { server in
            let board = try await server.createBoard()
            let ada = BoardConnection(url: server.webSocketURL)
            ada.send(.hello(.init(clientID: "ada", name: "Ada")))
            ada.send(.join(.init(board: board.id, secret: board.edit)))
            var adaSees = PresenceList()
            _ = try await user("Ada", on: ada, in: &adaSees) { _ in true }
            ada.send(raw: .text(Array(text.utf8)))
            ada.send(.ping(t: 1))
            var code: ErrorCode?
            while true {
                let message = try await ada.receive()
                _ = adaSees.apply(message)
                if case .error(let errorCode, _, _) = message { code = errorCode }
                if case .pong = message { break }
            }
            #expect(code == .invalidField)
            #expect(adaSees.users.values.first?.clockError == nil)
            await ada.close()
        }
    }
}
