import BoardCore
import TestSupport

/// Random but valid boards. Ids come from one small pool shared by sections and timers, so
/// two boards often reuse an id for a different kind of entity: the hard case for diff.
enum RandomBoards {
    static let idPool: [EntityID] = (0..<14).map { EntityID("e\($0)")! }
    static let titles = ["Prep", "Bake", "Eggs", "Tea", "Rest", "Stand-up", "Ünïcödé ✓", "a"]
    static let orderKeys: [OrderKey] = ["1", "A", "V", "Vk", "c", "z", "zz"]
    static let runs: [TimerRun] = [
        .idle, TimerRun(status: .running, startedAt: 5, elapsed: 0), TimerRun(status: .paused, elapsed: 7),
        TimerRun(status: .finished, elapsed: 60_000), TimerRun(status: .finished, elapsed: 60_000, finishedAt: 9),
        TimerRun(status: .running, startedAt: 5, elapsed: -60_000),
    ]

    static func board(using rng: inout SeededGenerator) -> Board {
        var ids = idPool.shuffled(using: &rng)
        let sectionCount = Int.random(in: 0...4, using: &rng)
        var board = Board()
        for _ in 0..<sectionCount {
            let id = ids.removeLast()
            board.sections[id] = Section(
                id: id,
                title: titles.randomElement(using: &rng)!,
                isExpanded: Bool.random(using: &rng),
                createdDate: Int64.random(in: 0...3, using: &rng),
                order: orderKeys.randomElement(using: &rng)!,
                sequence: Bool.random(using: &rng),
                loop: Bool.random(using: &rng)
            )
        }
        guard !board.sections.isEmpty else { return board }
        let sectionIDs = Array(board.sections.keys).sorted()
        for _ in 0..<Int.random(in: 0...ids.count, using: &rng) {
            let id = ids.removeLast()
            board.timers[id] = BoardTimer(
                id: id,
                sectionID: sectionIDs.randomElement(using: &rng)!,
                title: titles.randomElement(using: &rng)!,
                minutes: Int.random(in: 0...3, using: &rng),
                seconds: Int.random(in: 0...2, using: &rng),
                createdDate: Int64.random(in: 0...3, using: &rng),
                order: orderKeys.randomElement(using: &rng)!,
                run: runs.randomElement(using: &rng)!,
                warnAt: [0, 1_000].randomElement(using: &rng)!
            )
        }
        return board
    }
}
