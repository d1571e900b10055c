import BoardCore
import BoardProtocol
import Testing
import TimerBoardTestClient
import TimerBoardServer

/// Acked edits survive a restart; resent edits are not applied twice; resume sends exactly
/// what was missed.
@Suite(.timeLimit(.minutes(3))) struct DurabilityTests {
    @Test func aRejoiningClientGetsExactlyTheChangesetsItMissed() async throws {
        try await LiveServer.fresh().run { server in
            let board = try await server.createBoard()
            let alice = try await server.peer("alice")
            try await alice.join(board)
            try await alice.edit([.addSection(id: "s1", title: "Prep", isExpanded: true, position: .first)])
            let bob = try await server.peer("bob")
            try await bob.join(board)
            let left = bob.replica
            await bob.close()

            for index in 1...50 {
                try await alice.edit([.updateSection(id: "s1", title: "Title \(index)", isExpanded: nil)])
            }

            let returning = try await server.peer("bob")
            returning.connection.send(.join(.init(board: board.id, secret: board.edit, since: left.revision)))
            guard case .resume(_, _, let since, let revision) = try await returning.receiveWithoutApplying() else {
                throw TestFailure("expected a resume")
            }
            #expect(since == left.revision)
            #expect(revision == left.revision + 50)
            var replica = left
            for _ in 0..<50 {
                let message = try await returning.receiveWithoutApplying()
                guard case .changes = message else { throw TestFailure("expected changes, got \(message)") }
                try replica.apply(message)
            }
            #expect(replica.board == alice.replica.board)
            // Nothing more was sent for the past: the next message answers a new edit.
            returning.connection.send(.edit(.init(opID: "after", ops: [.updateSection(id: "s1", title: nil, isExpanded: false)])))
            let next = try await returning.receiveWithoutApplying()
            try replica.apply(next)
            #expect(replica.revision == revision + 1)
            guard case .ack(let opID, revision + 1, false, _, _) = try await returning.receiveWithoutApplying() else {
                throw TestFailure("expected the ack of the new edit")
            }
            #expect(opID == "after")
            await alice.close()
            await returning.close()
        }
    }

    @Test func aRevisionOlderThanTheLogGetsASnapshot() async throws {
        try await LiveServer.fresh { $0.retainedChangesets = 5 }.run { server in
            let board = try await server.createBoard()
            let alice = try await server.peer("alice")
            try await alice.join(board)
            try await alice.edit([.addSection(id: "s1", title: "Prep", isExpanded: true, position: .first)])
            for index in 1...30 {
                try await alice.edit([.updateSection(id: "s1", title: "Title \(index)", isExpanded: nil)])
            }
            let bob = try await server.peer("bob")
            bob.connection.send(.join(.init(board: board.id, secret: board.edit, since: 1)))
            guard case .snapshot(let snapshot) = try await bob.receive() else { throw TestFailure("expected a snapshot") }
            #expect(snapshot.revision == 31)
            #expect(snapshot.content == alice.replica.board)
            await alice.close()
            await bob.close()
        }
    }

    @Test func aResentEditIsAnsweredWithItsFirstOutcomeAlsoAfterARestart() async throws {
        let server = try LiveServer.fresh()
        let (board, firstRevision) = try await server.run { handle in
            let board = try await handle.createBoard()
            let alice = try await handle.peer("alice")
            try await alice.join(board)
            try await alice.edit([.addSection(id: "s1", title: "Prep", isExpanded: true, position: .first)], opID: "add-s1")
            guard
                case .ack(_, let revision, false, _, _) = try await alice.edit(
                    [.addTimer(id: "t1", sectionID: "s1", title: "Eggs", minutes: 7, seconds: 0, position: .first)],
                    opID: "add-t1"
                )
            else { throw TestFailure("first send must be acked") }
            // Resent on the same connection: the same outcome, marked duplicate, nothing applied.
            guard
                case .ack(_, revision, true, _, _) = try await alice.edit(
                    [.addTimer(id: "t1", sectionID: "s1", title: "Eggs", minutes: 7, seconds: 0, position: .first)],
                    opID: "add-t1"
                )
            else { throw TestFailure("a resend must be acked as a duplicate") }
            await alice.close()
            return (board, revision)
        }
        try await server.run { handle in
            let alice = try await handle.peer("alice")
            let snapshot = try await alice.join(board)
            #expect(snapshot.revision == firstRevision)
            let outcome = try await alice.edit(
                [.addTimer(id: "t1", sectionID: "s1", title: "Eggs", minutes: 7, seconds: 0, position: .first)],
                opID: "add-t1"
            )
            guard case .ack(_, firstRevision, true, _, _) = outcome else { throw TestFailure("after a restart, expected a duplicate ack: \(outcome)") }
            #expect(try await handle.serverSnapshot(board).revision == firstRevision)
            await alice.close()
        }
    }

    @Test func everyAckedEditIsThereAfterARestart() async throws {
        let server = try LiveServer.fresh { $0.snapshotInterval = 7 }
        let (board, expected) = try await server.run { handle in
            let board = try await handle.createBoard()
            let alice = try await handle.peer("alice")
            try await alice.join(board)
            var editor = RandomEditor(prefix: "a", seed: 42)
            for _ in 0..<60 { try await alice.edit(editor.nextEdit(for: alice.replica.board)) }
            await alice.close()
            return (board, alice.replica)
        }
        try await server.run { handle in
            let snapshot = try await handle.serverSnapshot(board)
            #expect(snapshot.revision == expected.revision)
            #expect(snapshot.content == expected.board)
        }
    }
}
