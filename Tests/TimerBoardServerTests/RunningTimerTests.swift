import BoardCore
import BoardProtocol
import Testing
import TimerBoardTestClient
import TimerBoardServer

@Suite(.timeLimit(.minutes(2))) struct RunningTimerTests {
    private static func setUp(_ peer: Peer, _ board: TestBoard) async throws {
        try await peer.join(board)
        try await peer.edit([
            .addSection(id: "s", title: "Prep", isExpanded: true, position: .first),
            .addTimer(id: "eggs", sectionID: "s", title: "Eggs", minutes: 1, seconds: 0, position: .first),
        ])
    }

    @Test func theServerFinishesATimerWhenItsTimeIsUpAndEveryoneSeesIt() async throws {
        let clock = ManualClock()
        try await LiveServer.fresh().run(clock: clock) { server in
            let board = try await server.createBoard()
            let alice = try await server.peer("alice")
            let bob = try await server.peer("bob")
            try await Self.setUp(alice, board)
            try await bob.join(board)

            let startedAt = clock.now()
            guard case .ack(_, let started, _, _, _) = try await alice.edit([.startTimer(id: "eggs")]) else { throw TestFailure("start refused") }
            try await bob.catchUp(to: started)
            #expect(bob.replica.board.timers["eggs"]?.run == TimerRun(status: .running, startedAt: startedAt, elapsed: 0))

            clock.advance(by: 30_000)
            guard case .ack(_, let paused, _, _, _) = try await alice.edit([.pauseTimer(id: "eggs")]) else { throw TestFailure("pause refused") }
            clock.advance(by: 100_000)  // paused: nothing happens
            guard case .ack(_, let resumed, _, _, _) = try await alice.edit([.startTimer(id: "eggs")]) else { throw TestFailure("resume refused") }
            #expect(resumed == paused + 1)
            try await bob.catchUp(to: resumed)
            #expect(bob.replica.board.timers["eggs"]?.deadline == clock.now() + 30_000)

            clock.advance(by: 30_000)  // exactly at the deadline: the server's own changeset
            let deadline = clock.now()
            let finished = try await bob.receive()
            #expect(
                finished
                    == .changes(
                        Changeset(
                            revision: resumed + 1,
                            changes: [
                                .updateTimer("eggs", TimerPatch(run: TimerRun(status: .finished, elapsed: 60_000, finishedAt: deadline)))
                            ]
                        )
                    )
            )
            try await alice.catchUp(to: resumed + 1)
            #expect(alice.replica.board.timers["eggs"]?.run.status == .finished)
            // A late joiner sees it finished too.
            #expect(try await server.serverSnapshot(board).content.timers["eggs"]?.run.status == .finished)
            await alice.close()
            await bob.close()
        }
    }

    @Test func aTimerThatRanOutWhileTheServerWasDownIsFinishedWhenItsBoardLoads() async throws {
        let clock = ManualClock()
        let server = try LiveServer.fresh()
        let deadline = clock.now() + 60_000
        let (board, started) = try await server.run(clock: clock) { handle in
            let board = try await handle.createBoard()
            let alice = try await handle.peer("alice")
            try await Self.setUp(alice, board)
            guard case .ack(_, let started, _, _, _) = try await alice.edit([.startTimer(id: "eggs")]) else { throw TestFailure("start refused") }
            await alice.close()
            return (board, started)
        }
        clock.advance(by: 10 * 60_000)  // the server is down meanwhile
        try await server.run(clock: clock) { handle in
            let snapshot = try await handle.serverSnapshot(board)
            // Finished at its deadline, not when the server came back.
            #expect(snapshot.content.timers["eggs"]?.run == TimerRun(status: .finished, elapsed: 60_000, finishedAt: deadline))
            // Stored as a changeset of its own, like every other.
            #expect(snapshot.revision == started + 1)
        }
        try await server.run(clock: clock) { handle in
            // Loading again finds nothing more to finish.
            let revision = try await handle.serverSnapshot(board).revision
            #expect(revision == started + 1)
        }
    }

    @Test func twoClientsWithSkewedClocksComputeTheServersRemainingTime() async throws {
        try await LiveServer.fresh().run { server in
            let board = try await server.createBoard()
            let alice = try await server.peer("alice")
            try await Self.setUp(alice, board)
            try await alice.edit([.startTimer(id: "eggs")])
            let realClock = SystemClock()

            for skew: Int64 in [-7_000, 4_000] {
                // This client's own clock is off by `skew` milliseconds.
                let localNow = { realClock.now() + skew }
                let peer = try await server.peer("skewed\(skew)")
                try await peer.join(board)
                var sync = ClockSync()
                for round in 0..<5 {
                    let sentAt = localNow()
                    peer.connection.send(.ping(t: Double(round)))
                    var serverTime: Int64?
                    while serverTime == nil {
                        if case .pong(let t, let time) = try await peer.receive(), t == Double(round) { serverTime = time }
                    }
                    sync.add(sentAt: sentAt, serverTime: serverTime!, receivedAt: localNow())
                }
                let uncertainty = try #require(sync.uncertainty)
                let timer = try #require(peer.replica.board.timers["eggs"])
                // What the client draws, and what the server holds at the same real instant.
                let before = realClock.now()
                let estimated = try #require(sync.serverTime(atLocal: localNow()))
                let after = realClock.now()
                #expect(estimated >= before - uncertainty && estimated <= after + uncertainty, "offset off by more than half a round trip")
                let drawn = timer.remaining(at: estimated)
                #expect(drawn <= timer.remaining(at: before - uncertainty))
                #expect(drawn >= timer.remaining(at: after + uncertainty))
                await peer.close()
            }
            await alice.close()
        }
    }
}
