import BoardCore
import BoardProtocol
import Testing
import TimerBoardTestClient
import TimerBoardServer

/// Two screens pressing timer buttons at the same moment, both on the same revision: what
/// docs/protocol.md ("Adjustments", "Start and pause pressed at once") promises.
@Suite(.timeLimit(.minutes(2))) struct ConcurrentTimerPressTests {
    /// Alice and Bob on one board with a 5:00 timer, both at the same revision.
    private static func setUp(_ server: LiveServer.Handle) async throws -> (TestBoard, Peer, Peer) {
        let board = try await server.createBoard()
        let alice = try await server.peer("alice")
        let bob = try await server.peer("bob")
        try await alice.join(board)
        try await alice.edit([
            .addSection(id: "s", title: "Prep", isExpanded: true, position: .first),
            .addTimer(id: "eggs", sectionID: "s", title: "Eggs", minutes: 5, seconds: 0, position: .first),
        ])
        try await bob.join(board)
        return (board, alice, bob)
    }

    /// Sends one edit from each peer before reading either answer; returns both outcomes.
    private static func pressAtOnce(
        _ alice: Peer,
        _ aliceOps: [BoardOperation],
        _ bob: Peer,
        _ bobOps: [BoardOperation]
    ) async throws -> (
        ServerMessage, ServerMessage
    ) {
        #expect(alice.replica.revision == bob.replica.revision, "both press on the same revision")
        let aliceOp = alice.nextID()
        let bobOp = bob.nextID()
        alice.connection.send(.edit(.init(opID: aliceOp, ops: aliceOps)))
        bob.connection.send(.edit(.init(opID: bobOp, ops: bobOps)))
        return (try await alice.outcome(of: aliceOp), try await bob.outcome(of: bobOp))
    }

    private static func revision(_ outcome: ServerMessage) throws -> Int64 {
        guard case .ack(_, let revision, _, _, _) = outcome else { throw TestFailure("refused: \(outcome)") }
        return revision
    }

    @Test func twoConcurrentPlusOneMinuteGiveTwoMinutes() async throws {
        let clock = ManualClock()
        try await LiveServer.fresh().run(clock: clock) { server in
            let (board, alice, bob) = try await Self.setUp(server)
            let started = try Self.revision(try await alice.edit([.startTimer(id: "eggs")]))
            try await bob.catchUp(to: started)
            clock.advance(by: 60_000)  // 4:00 left

            let (a, b) = try await Self.pressAtOnce(alice, [.adjustTimer(id: "eggs", by: 60_000)], bob, [.adjustTimer(id: "eggs", by: 60_000)])
            let last = max(try Self.revision(a), try Self.revision(b))
            #expect(Set([try Self.revision(a), try Self.revision(b)]) == [started + 1, started + 2], "each one applied")
            try await alice.catchUp(to: last)
            try await bob.catchUp(to: last)
            let timer = try #require(try await server.serverSnapshot(board).content.timers["eggs"])
            #expect(timer.remaining(at: clock.now()) == 360_000)
            #expect(alice.replica.board == bob.replica.board)
            await alice.close()
            await bob.close()
        }
    }

    @Test func twoConcurrentStartsGiveOneStart() async throws {
        let clock = ManualClock()
        try await LiveServer.fresh().run(clock: clock) { server in
            let (board, alice, bob) = try await Self.setUp(server)
            let before = alice.replica.revision
            let (a, b) = try await Self.pressAtOnce(alice, [.startTimer(id: "eggs")], bob, [.startTimer(id: "eggs")])
            // One of them started it (revision before + 1); the other found it running, changed
            // nothing, and was acked at the revision it found: the same one.
            #expect(try Self.revision(a) == before + 1)
            #expect(try Self.revision(b) == before + 1)
            let snapshot = try await server.serverSnapshot(board)
            #expect(snapshot.revision == before + 1)
            #expect(snapshot.content.timers["eggs"]?.run == TimerRun(status: .running, startedAt: clock.now(), elapsed: 0))
            await alice.close()
            await bob.close()
        }
    }

    @Test func startAndPauseAtOnceTheOneAppliedLaterWinsOnEveryScreen() async throws {
        let clock = ManualClock()
        try await LiveServer.fresh().run(clock: clock) { server in
            let (board, alice, bob) = try await Self.setUp(server)
            let running = try Self.revision(try await alice.edit([.startTimer(id: "eggs")]))
            clock.advance(by: 30_000)
            let paused = try Self.revision(try await alice.edit([.pauseTimer(id: "eggs")]))
            try await bob.catchUp(to: paused)
            #expect(running + 1 == paused)

            // Alice resumes while Bob pauses: both intents apply, in the server's order.
            let (a, b) = try await Self.pressAtOnce(alice, [.startTimer(id: "eggs")], bob, [.pauseTimer(id: "eggs")])
            let aliceRevision = try Self.revision(a)
            let bobRevision = try Self.revision(b)
            let last = max(aliceRevision, bobRevision)
            try await alice.catchUp(to: last)
            try await bob.catchUp(to: last)
            let expected: TimerRun.Status
            if bobRevision > aliceRevision {
                expected = .paused  // start applied, then the pause: paused again
            } else {
                // The pause came first and found it paused (nothing changed, acked at the
                // revision it found); then the start: running.
                expected = .running
                #expect(bobRevision == paused)
            }
            let server = try await server.serverSnapshot(board).content.timers["eggs"]
            #expect(server?.run.status == expected)
            #expect(alice.replica.board.timers["eggs"] == server)
            #expect(bob.replica.board.timers["eggs"] == server)
            await alice.close()
            await bob.close()
        }
    }
}
