import BoardCore
import BoardProtocol
import Testing
import TimerBoardTestClient
import TimerBoardServer

/// Sequence sections on a real server with a real SQLite file and a clock the test moves:
/// hand-overs at exact instants with and without anyone connected, across a restart, loops,
/// skip and restart.
@Suite(.timeLimit(.minutes(2))) struct TimerSequenceTests {
    /// Lengths in seconds of the timers t0, t1, … of the sequence section "q".
    static let lengths = [10, 20, 30, 40, 50]

    /// Adds the sequence section "q" with a timer per length, in that display order.
    private static func setUp(_ peer: Peer, _ board: TestBoard, lengths: [Int] = lengths, loop: Bool = false) async throws {
        try await peer.join(board)
        var ops: [BoardOperation] = [.addSection(id: "q", title: "Rounds", isExpanded: true, position: .first, sequence: true, loop: loop)]
        for (index, length) in lengths.enumerated() {
            ops.append(
                .addTimer(id: EntityID("t\(index)")!, sectionID: "q", title: "T\(index)", minutes: length / 60, seconds: length % 60, position: .last)
            )
        }
        guard case .ack = try await peer.edit(ops) else { throw TestFailure("set-up refused") }
    }

    /// When timer `index` of a sequence started at `start` ends: the sum of the lengths up to it.
    private static func end(of index: Int, start: Int64, lengths: [Int] = lengths) -> Int64 {
        start + Int64(lengths.prefix(index + 1).reduce(0, +)) * 1_000
    }

    @Test func aSequenceHandsOverAtEachDeadlineInOneChangesetWhileSomeoneWatches() async throws {
        let clock = ManualClock()
        try await LiveServer.fresh().run(clock: clock) { server in
            let board = try await server.createBoard()
            let alice = try await server.peer("alice")
            try await Self.setUp(alice, board)
            let start = clock.now()
            guard case .ack(_, var revision, _, _, _) = try await alice.edit([.startSection(id: "q")]) else { throw TestFailure("start refused") }
            for index in 0..<Self.lengths.count - 1 {
                let instant = Self.end(of: index, start: start)
                clock.advance(by: instant - clock.now())
                revision += 1
                let message = try await alice.receive()
                #expect(
                    message
                        == .changes(
                            Changeset(
                                revision: revision,
                                changes: [
                                    .updateTimer(
                                        EntityID("t\(index)")!,
                                        TimerPatch(run: TimerRun(status: .finished, elapsed: Int64(Self.lengths[index]) * 1_000, finishedAt: instant))
                                    ),
                                    .updateTimer(
                                        EntityID("t\(index + 1)")!,
                                        TimerPatch(run: TimerRun(status: .running, startedAt: instant, elapsed: 0))
                                    ),
                                ]
                            )
                        )
                )
            }
            await alice.close()
        }
    }

    @Test func aFiveTimerSequenceRunsToTheEndWithNobodyConnectedEachStartThePreviousEnd() async throws {
        let clock = ManualClock()
        try await LiveServer.fresh().run(clock: clock) { server in
            let board = try await server.createBoard()
            let alice = try await server.peer("alice")
            try await Self.setUp(alice, board)
            let start = clock.now()
            try await alice.edit([.startSection(id: "q")])
            await alice.close()

            // Nobody is on the board while it runs: 75 s in, t0-t2 are done and t3 is 15 s in.
            clock.advance(by: 75_000)
            let middle = try await server.serverSnapshot(board).content
            for index in 0..<3 {
                #expect(middle.timers[EntityID("t\(index)")!]?.run.finishedAt == Self.end(of: index, start: start))
            }
            #expect(middle.timers["t3"]?.run == TimerRun(status: .running, startedAt: Self.end(of: 2, start: start), elapsed: 0))
            #expect(middle.timers["t4"]?.run == .idle)

            clock.advance(by: 3_600_000)
            let done = try await server.serverSnapshot(board).content
            // Each timer finished exactly its length after the previous one: each started at
            // the instant the one before it ended.
            var previousEnd = start
            for (index, length) in Self.lengths.enumerated() {
                let run = try #require(done.timers[EntityID("t\(index)")!]?.run)
                #expect(run == TimerRun(status: .finished, elapsed: Int64(length) * 1_000, finishedAt: previousEnd + Int64(length) * 1_000))
                previousEnd = run.finishedAt ?? 0
            }
            // The last one shows its overtime; nothing is left to run.
            #expect(done.timers["t4"]?.overtime(at: clock.now()) == clock.now() - Self.end(of: 4, start: start))
            #expect(done.nextDeadline == nil)
        }
    }

    @Test func aServerRestartInTheMiddleOfASequenceResumesTheRightTimerWithTheRightTimeLeft() async throws {
        let clock = ManualClock()
        let server = try LiveServer.fresh()
        let start = clock.now()
        let board = try await server.run(clock: clock) { handle in
            let board = try await handle.createBoard()
            let alice = try await handle.peer("alice")
            try await Self.setUp(alice, board)
            try await alice.edit([.startSection(id: "q")])
            clock.advance(by: 12_000)  // t0 ends at 10 s: alice sees the hand-over, so it is stored
            _ = try await alice.receive()
            #expect(alice.replica.board.timers["t1"]?.run.status == .running)
            await alice.close()
            return board
        }
        clock.advance(by: 50_000)  // the server is down from 12 s to 62 s: t1 (30 s) and t2 (60 s) end meanwhile
        try await server.run(clock: clock) { handle in
            let content = try await handle.serverSnapshot(board).content
            #expect(content.timers["t1"]?.run.finishedAt == Self.end(of: 1, start: start))
            #expect(content.timers["t2"]?.run.finishedAt == Self.end(of: 2, start: start))
            let t3 = try #require(content.timers["t3"])
            #expect(t3.run == TimerRun(status: .running, startedAt: Self.end(of: 2, start: start), elapsed: 0))
            #expect(t3.remaining(at: clock.now()) == 38_000)
            #expect(content.timers["t4"]?.run == .idle)
        }
    }

    @Test func aLoopingSequenceStartsItsFirstTimerAgainAndCatchesUpWholeRoundsAfterARestart() async throws {
        let clock = ManualClock()
        let server = try LiveServer.fresh()
        let lengths = [10, 20]
        let start = clock.now()
        let board = try await server.run(clock: clock) { handle in
            let board = try await handle.createBoard()
            let alice = try await handle.peer("alice")
            try await Self.setUp(alice, board, lengths: lengths, loop: true)
            guard case .ack(_, let started, _, _, _) = try await alice.edit([.startSection(id: "q")]) else { throw TestFailure("start refused") }
            clock.advance(by: 10_000)
            try await alice.catchUp(to: started + 1)
            clock.advance(by: 20_000)
            try await alice.catchUp(to: started + 2)
            // A round is over: t1 idle again, t0 running from the round's end.
            #expect(alice.replica.board.timers["t0"]?.run == TimerRun(status: .running, startedAt: start + 30_000, elapsed: 0))
            #expect(alice.replica.board.timers["t1"]?.run == .idle)
            await alice.close()
            return board
        }
        clock.advance(by: 24 * 3_600_000 + 5_000)  // a day down: 2,880 rounds, and 5 s into t0
        try await server.run(clock: clock) { handle in
            let content = try await handle.serverSnapshot(board).content
            let roundStart = clock.now() - 5_000
            #expect(content.timers["t0"]?.run == TimerRun(status: .running, startedAt: roundStart, elapsed: 0))
            #expect(content.timers["t1"]?.run == .idle)
        }
    }

    @Test func skipAndRestartOverTheWire() async throws {
        let clock = ManualClock()
        try await LiveServer.fresh().run(clock: clock) { server in
            let board = try await server.createBoard()
            let alice = try await server.peer("alice")
            try await Self.setUp(alice, board)
            try await alice.edit([.startSection(id: "q")])
            clock.advance(by: 4_000)
            guard case .ack(_, let skipped, _, _, _) = try await alice.edit([.skipSection(id: "q")]) else { throw TestFailure("skip refused") }
            let now = clock.now()
            #expect(
                alice.received.contains(
                    .changes(
                        Changeset(
                            revision: skipped,
                            changes: [
                                .updateTimer("t0", TimerPatch(run: TimerRun(status: .finished, elapsed: 10_000, finishedAt: now))),
                                .updateTimer("t1", TimerPatch(run: TimerRun(status: .running, startedAt: now, elapsed: 0))),
                            ]
                        )
                    )
                )
            )
            clock.advance(by: 1_000)
            try await alice.edit([.restartSection(id: "q")])
            #expect(alice.replica.board.timers["t0"]?.run == TimerRun(status: .running, startedAt: clock.now(), elapsed: 0))
            #expect(alice.replica.board.orderedTimers(in: "q").dropFirst().allSatisfy { $0.run == .idle })

            // Outside a sequence, skip is refused with the section as it is, and nothing changes.
            try await alice.edit([.addSection(id: "p", title: "Plain", isExpanded: true, position: .last)])
            let revision = alice.replica.revision
            guard case .reject(let reject) = try await alice.edit([.skipSection(id: "p")]) else {
                throw TestFailure("skip of a plain section accepted")
            }
            #expect(reject.code == .invalidState)
            #expect(reject.current == .section(alice.replica.board.sections["p"]!))
            #expect(try await server.serverSnapshot(board).revision == revision)
            await alice.close()
        }
    }
}
