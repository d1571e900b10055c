import BoardCore
import BoardProtocol
import Testing
import TimerBoardTestClient

@Suite(.timeLimit(.minutes(2))) struct ChangesetTests {
    @Test func aRenameReachesTheOtherClientAsOneUpdateOfOneField() async throws {
        try await LiveServer.fresh().run { server in
            let board = try await server.createBoard()
            let alice = try await server.peer("alice")
            let bob = try await server.peer("bob")
            try await alice.join(board)
            try await bob.join(board)
            try await alice.edit([
                .addSection(id: "s1", title: "Prep", isExpanded: true, position: .first),
                .addSection(id: "s2", title: "Bake", isExpanded: true, position: .last),
            ])
            try await bob.catchUp(to: 1)

            let rename = try await alice.edit([.updateSection(id: "s1", title: "Mise en place", isExpanded: nil)])
            guard case .ack(_, let revision, false, _, _) = rename else { throw TestFailure("rename not acked: \(rename)") }
            // A second edit acts as a marker: bob's next two messages must be exactly the rename, then it.
            try await alice.edit([.updateSection(id: "s2", title: nil, isExpanded: false)])

            let first = try await bob.receive()
            #expect(first == .changes(Changeset(revision: revision, changes: [.updateSection("s1", SectionPatch(title: "Mise en place"))])))
            let second = try await bob.receive()
            #expect(second == .changes(Changeset(revision: revision + 1, changes: [.updateSection("s2", SectionPatch(isExpanded: false))])))
            #expect(bob.replica.board.sections["s1"]?.title == "Mise en place")
            await alice.close()
            await bob.close()
        }
    }

    @Test func theLastWriterWinsAndTheOtherWriterSeesTheWinningValue() async throws {
        try await LiveServer.fresh().run { server in
            let board = try await server.createBoard()
            let alice = try await server.peer("alice")
            let bob = try await server.peer("bob")
            try await alice.join(board)
            try await bob.join(board)
            try await alice.edit([.addSection(id: "s1", title: "Prep", isExpanded: true, position: .first)])
            // Both rename without waiting: the server orders them; both are accepted.
            alice.connection.send(.edit(.init(opID: "a1", ops: [.updateSection(id: "s1", title: "Alice's", isExpanded: nil)])))
            bob.connection.send(.edit(.init(opID: "b1", ops: [.updateSection(id: "s1", title: "Bob's", isExpanded: nil)])))
            guard case .ack(_, let aliceRevision, _, _, _) = try await alice.outcome(of: "a1"),
                case .ack(_, let bobRevision, _, _, _) = try await bob.outcome(of: "b1")
            else { throw TestFailure("both renames must be acked") }
            let last = max(aliceRevision, bobRevision)
            try await alice.catchUp(to: last)
            try await bob.catchUp(to: last)
            let winner = aliceRevision > bobRevision ? "Alice's" : "Bob's"
            #expect(alice.replica.board.sections["s1"]?.title == winner)
            #expect(bob.replica.board.sections["s1"]?.title == winner)
            #expect(try await server.serverSnapshot(board).content.sections["s1"]?.title == winner)
            await alice.close()
            await bob.close()
        }
    }

    @Test func anEditOfADeletedTimerIsRejectedWithNotFound() async throws {
        try await LiveServer.fresh().run { server in
            let board = try await server.createBoard()
            let alice = try await server.peer("alice")
            try await alice.join(board)
            try await alice.edit([
                .addSection(id: "s1", title: "Prep", isExpanded: true, position: .first),
                .addTimer(id: "t1", sectionID: "s1", title: "Eggs", minutes: 7, seconds: 0, position: .first),
            ])
            try await alice.edit([.deleteTimer(id: "t1")])
            let outcome = try await alice.edit([.updateTimer(id: "t1", title: "Soft eggs", minutes: nil, seconds: nil)])
            guard case .reject(let reject) = outcome else { throw TestFailure("expected a reject, got \(outcome)") }
            #expect(reject.code == .notFound)
            #expect(reject.opIndex == 0)
            #expect(reject.current == nil)
            await alice.close()
        }
    }

    @Test func aRejectCarriesTheCurrentValueOfTheEntity() async throws {
        try await LiveServer.fresh().run { server in
            let board = try await server.createBoard()
            let alice = try await server.peer("alice")
            try await alice.join(board)
            try await alice.edit([
                .addSection(id: "s1", title: "Prep", isExpanded: true, position: .first),
                .addTimer(id: "t1", sectionID: "s1", title: "Eggs", minutes: 7, seconds: 0, position: .first),
            ])
            let outcome = try await alice.edit([.updateTimer(id: "t1", title: nil, minutes: 5_000, seconds: nil)])
            guard case .reject(let reject) = outcome, case .timer(let timer)? = reject.current else {
                throw TestFailure("expected a reject with the current timer, got \(outcome)")
            }
            #expect(reject.code == .invalidField)
            #expect(timer.minutes == 7)
            await alice.close()
        }
    }
}
