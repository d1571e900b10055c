import BoardCore
import BoardProtocol
import Foundation
import Testing
import TimerBoardTestClient

@Suite(.timeLimit(.minutes(2))) struct IdleBoardTests {
    @Test func aBoardNobodyHasOpenLeavesMemoryAndComesBackOnTheNextJoin() async throws {
        try await LiveServer.fresh().run { server in
            let board = try await server.createBoard()
            let alice = try await server.peer("alice")
            try await alice.join(board)
            try await alice.edit([.addSection(id: "s1", title: "Prep", isExpanded: true, position: .first)])
            #expect(try await server.liveBoards() == 1)

            alice.connection.send(.leave)
            try await alice.ping()  // the leave has been handled once the pong comes back
            #expect(try await server.liveBoards() == 0)

            let snapshot = try await alice.join(board)
            #expect(snapshot.revision == 1)
            #expect(snapshot.content.sections["s1"]?.title == "Prep")
            #expect(try await server.liveBoards() == 1)
            await alice.close()
        }
    }
}
