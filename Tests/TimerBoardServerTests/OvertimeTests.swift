import BoardCore
import BoardProtocol
import Testing
import TimerBoardTestClient
import TimerBoardServer

/// A finished timer says when it reached zero, so every screen counts its overtime alike.
@Suite(.timeLimit(.minutes(2))) struct OvertimeTests {
    @Test func finishedAtIsTheDeadlineEvenWhenTheServerNoticesLate() async throws {
        let clock = ManualClock()
        try await LiveServer.fresh().run(clock: clock) { server in
            let board = try await server.createBoard()
            let alice = try await server.peer("alice")
            try await alice.join(board)
            try await alice.edit([
                .addSection(id: "s", title: "Prep", isExpanded: true, position: .first),
                .addTimer(id: "eggs", sectionID: "s", title: "Eggs", minutes: 1, seconds: 0, position: .first),
            ])
            guard case .ack(_, let started, _, _, _) = try await alice.edit([.startTimer(id: "eggs")]) else { throw TestFailure("start refused") }
            let deadline = clock.now() + 60_000
            // The server wakes 4.5 s after the deadline (a busy machine, a suspended laptop).
            clock.advance(by: 64_500)
            try await alice.catchUp(to: started + 1)
            let timer = try #require(alice.replica.board.timers["eggs"])
            #expect(timer.run == TimerRun(status: .finished, elapsed: 60_000, finishedAt: deadline))
            #expect(timer.overtime(at: clock.now()) == 4_500)

            // Started again, it has no overtime any more.
            try await alice.edit([.startTimer(id: "eggs")])
            #expect(alice.replica.board.timers["eggs"]?.run.finishedAt == nil)
            await alice.close()
        }
    }

    @Test func anEditAfterAPassedDeadlineThatTheServerHasNotMetYetAppliesToTheFinishedTimer() async throws {
        let clock = ManualClock()
        try await LiveServer.fresh().run(clock: clock) { server in
            let board = try await server.createBoard()
            let alice = try await server.peer("alice")
            try await alice.join(board)
            try await alice.edit([
                .addSection(id: "s", title: "Prep", isExpanded: true, position: .first),
                .addTimer(id: "eggs", sectionID: "s", title: "Eggs", minutes: 1, seconds: 0, position: .first),
            ])
            guard case .ack(_, let started, _, _, _) = try await alice.edit([.startTimer(id: "eggs")]) else { throw TestFailure("start refused") }
            let deadline = clock.now() + 60_000
            // 61 s later, before the room's wake-up has run, someone presses +1 min.
            clock.advance(by: 61_000, wakingSleepers: false)
            guard case .ack(_, let adjusted, _, _, _) = try await alice.edit([.adjustTimer(id: "eggs", by: 60_000)]) else {
                throw TestFailure("adjust refused")
            }
            // The deadline is met first, in a changeset of the server's own; then the +1 min
            // runs the finished timer again with a minute left from now.
            #expect(adjusted == started + 2)
            let finished = Changeset(
                revision: started + 1,
                changes: [.updateTimer("eggs", TimerPatch(run: TimerRun(status: .finished, elapsed: 60_000, finishedAt: deadline)))]
            )
            #expect(alice.received.contains(.changes(finished)))
            #expect(alice.replica.board.timers["eggs"]?.run == TimerRun(status: .running, startedAt: clock.now(), elapsed: 0))
            clock.advance(by: 0)
            await alice.close()
        }
    }
}
