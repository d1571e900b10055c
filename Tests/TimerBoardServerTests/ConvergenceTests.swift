import BoardCore
import BoardProtocol
import Testing
import TimerBoardTestClient

/// Many clients editing at once all end with the server's board.
@Suite(.timeLimit(.minutes(5))) struct ConvergenceTests {
    @Test func twentyClientsEditingConcurrentlyAllEndWithTheServersBoard() async throws {
        let clients = 20
        let editsPerClient = 150
        try await LiveServer.fresh().run { server in
            let board = try await server.createBoard()
            let everyoneDone = Barrier(count: clients)
            let outcomes = try await withThrowingTaskGroup(of: (accepted: Int, rejected: Int, replica: BoardReplica).self) { group in
                for index in 0..<clients {
                    group.addTask {
                        let peer = try await server.peer("client\(index)")
                        try await peer.join(board)
                        var editor = RandomEditor(prefix: "c\(index)", seed: UInt64(index) &* 7919 &+ 17)
                        var accepted = 0
                        var rejected = 0
                        for _ in 0..<editsPerClient {
                            switch try await peer.edit(editor.nextEdit(for: peer.replica.board)) {
                            case .ack: accepted += 1
                            case .reject: rejected += 1
                            default: throw TestFailure("an edit got neither ack nor reject")
                            }
                        }
                        // Every edit is acked only after it is broadcast, so once all clients are
                        // done, a fresh join shows the final revision.
                        await everyoneDone.arriveAndWait()
                        try await peer.catchUp(to: server.serverSnapshot(board).revision)
                        await peer.close()
                        return (accepted, rejected, peer.replica)
                    }
                }
                var results: [(accepted: Int, rejected: Int, replica: BoardReplica)] = []
                for try await result in group { results.append(result) }
                return results
            }
            let snapshot = try await server.serverSnapshot(board)
            for outcome in outcomes {
                #expect(outcome.replica.revision == snapshot.revision)
                #expect(outcome.replica.board == snapshot.content)
            }
            let accepted = outcomes.map(\.accepted).reduce(0, +)
            let rejected = outcomes.map(\.rejected).reduce(0, +)
            #expect(accepted + rejected == clients * editsPerClient)
            // The random mix must exercise both paths, or the test proves little.
            #expect(rejected > 50)
            #expect(accepted > 1_000)
            #expect(snapshot.revision <= Int64(accepted))
        }
    }

    @Test func aClientJoiningWhileOthersEditEndsEqualToTheServer() async throws {
        try await LiveServer.fresh().run { server in
            let board = try await server.createBoard()
            let editorCount = 4
            let editsPerEditor = 120
            let progress = RevisionWatch()
            // Joins before anyone edits and builds its replica from every changeset that follows.
            let fromTheStart = try await server.peer("from-the-start")
            #expect(try await fromTheStart.join(board).revision == 0)
            try await withThrowingTaskGroup(of: Void.self) { group in
                for index in 0..<editorCount {
                    group.addTask {
                        let peer = try await server.peer("editor\(index)")
                        try await peer.join(board)
                        var editor = RandomEditor(prefix: "e\(index)", seed: UInt64(index) + 1_000)
                        for _ in 0..<editsPerEditor {
                            if case .ack(_, let revision, _, _, _) = try await peer.edit(editor.nextEdit(for: peer.replica.board)) {
                                await progress.report(revision)
                            }
                        }
                        await peer.close()
                    }
                }
                // Late joiners arrive while the edits stream.
                for index in 0..<3 {
                    group.addTask {
                        let watcher = try await server.peer("late\(index)")
                        // Join once some edits are acked, while the rest still stream.
                        await progress.wait(until: Int64(40 * (index + 1)))
                        let snapshot = try await watcher.join(board)
                        #expect(snapshot.revision >= Int64(40 * (index + 1)))
                        // The replica checks every later changeset: no gap, no duplicate, each fits.
                        try await watcher.catchUp(to: snapshot.revision + 30)
                        await watcher.close()
                    }
                }
                try await group.waitForAll()
            }
            // The board a join shows after all the editing equals the replica built from the
            // whole stream of changesets since revision 0.
            let final = try await server.serverSnapshot(board)
            #expect(final.revision > 100)
            try await fromTheStart.catchUp(to: final.revision)
            #expect(fromTheStart.replica.revision == final.revision)
            #expect(fromTheStart.replica.board == final.content)
            await fromTheStart.close()
        }
    }
}
