import TestSupport
import Testing

@testable import BoardCore

/// Catching up late (`finishExpiredTimers`) takes its instants from a queue and a sequence's
/// timers from an index. It must give exactly what replaying instant by instant over the whole
/// board gave (`finishByScanning`, the code it replaced, kept here as the reference), changes
/// in the same order included.
@Suite struct CatchUpTests {
    @Test func aCatchUpEqualsReplayingEveryInstantOverTheWholeBoard() {
        for seed in UInt64(0)..<3_000 {
            var rng = SeededGenerator(seed: seed)
            let board = RandomBoards.board(using: &rng)
            let now = Int64.random(in: 0...2_000_000, using: &rng)
            var fast = Edit(board: board, limits: BoardLimits(), now: now)
            fast.finishExpiredTimers()
            var reference = Edit(board: board, limits: BoardLimits(), now: now)
            reference.finishByScanning()
            #expect(fast.board == reference.board, "seed \(seed)")
            #expect(fast.changes() == reference.changes(), "seed \(seed)")
        }
    }

    @Test func loopingSequencesADayLateEndWhereReplayingEveryInstantEnds() throws {
        // Three looping sequences started a few ms apart, with lengths that do not divide each
        // other: their hand-overs interleave for a day.
        var board = Board()
        for s in 0..<3 {
            let section = EntityID("s\(s)")!
            board.sections[section] = Section(
                id: section,
                title: "Loop",
                createdDate: 0,
                order: OrderKey.sequence(count: 3)[s],
                sequence: true,
                loop: true
            )
            for t in 0..<4 {
                let id = EntityID("t\(s)-\(t)")!
                board.timers[id] = BoardTimer(
                    id: id,
                    sectionID: section,
                    title: "Step",
                    minutes: 0,
                    seconds: 1 + (7 * s + 3 * t) % 11,
                    createdDate: 0,
                    order: OrderKey.sequence(count: 4)[t],
                    run: t == 0 ? TimerRun(status: .running, startedAt: Int64(s), elapsed: 0) : .idle
                )
            }
        }
        let now: Int64 = 86_400_000 + 12_345
        var fast = Edit(board: board, limits: BoardLimits(), now: now)
        fast.finishExpiredTimers()
        var reference = Edit(board: board, limits: BoardLimits(), now: now)
        reference.finishByScanning()
        #expect(fast.board == reference.board)
        #expect(fast.changes() == reference.changes())
        // Each loop is running one timer, started within the last round.
        for s in 0..<3 {
            let running = fast.board.orderedTimers(in: EntityID("s\(s)")!).filter { $0.run.status == .running }
            #expect(running.count == 1)
            #expect(try #require(running.first?.deadline) > now)
        }
    }
}

extension Edit {
    /// The catch-up as it was: each instant found by scanning every timer.
    mutating func finishByScanning() {
        while true {
            var due: [BoardTimer] = []
            var earliest = Int64.max
            for timer in board.timers.values {
                guard let deadline = timer.deadline, deadline <= now else { continue }
                if deadline < earliest {
                    earliest = deadline
                    due = [timer]
                } else if deadline == earliest {
                    due.append(timer)
                }
            }
            guard !due.isEmpty else { return }
            for timer in due.sorted(by: { $0.id < $1.id }) {
                guard let current = board.timers[timer.id], current.deadline == earliest else { continue }
                finish(current, at: earliest)
            }
        }
    }
}
