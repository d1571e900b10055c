import BoardCore
import TestSupport

/// Random edits of every kind, made from what one client believes the board is. That belief is
/// often stale, so the edits include conflicting writes and edits of deleted items.
struct RandomEditor {
    let prefix: String
    var rng: SeededGenerator
    private var counter = 0
    /// Every id this editor has seen, deleted ones included, to aim edits at stale ids.
    private var seen: [EntityID] = []

    init(prefix: String, seed: UInt64) {
        self.prefix = prefix
        rng = SeededGenerator(seed: seed)
    }

    private static let titles = ["Prep", "Bake", "Rest", "Serve", "Eggs", "Tea", "Stand-up", "Ünïcödé ✓"]

    mutating func nextEdit(for board: Board) -> [BoardOperation] {
        seen.append(contentsOf: board.sections.keys)
        seen.append(contentsOf: board.timers.keys)
        if seen.count > 400 { seen.removeFirst(seen.count - 400) }
        let count = Int.random(in: 0..<10, using: &rng) == 0 ? Int.random(in: 2...3, using: &rng) : 1
        return (0..<count).map { _ in nextOperation(for: board) }
    }

    private mutating func newID() -> EntityID {
        counter += 1
        return EntityID("\(prefix)-\(counter)")!
    }

    private mutating func someSection(_ board: Board) -> EntityID {
        // Mostly a live section, sometimes any id ever seen (maybe deleted, maybe a timer).
        if Int.random(in: 0..<5, using: &rng) > 0, let id = board.sections.keys.randomElement(using: &rng) { return id }
        return seen.randomElement(using: &rng) ?? newID()
    }

    private mutating func someTimer(_ board: Board) -> EntityID {
        if Int.random(in: 0..<5, using: &rng) > 0, let id = board.timers.keys.randomElement(using: &rng) { return id }
        return seen.randomElement(using: &rng) ?? newID()
    }

    private mutating func position(among ids: [EntityID]) -> Position {
        switch Int.random(in: 0..<4, using: &rng) {
        case 0: return .first
        case 1: return .last
        case 2: return ids.randomElement(using: &rng).map(Position.after) ?? .first
        default: return ids.randomElement(using: &rng).map(Position.before) ?? .last
        }
    }

    private mutating func title() -> String { Self.titles.randomElement(using: &rng)! }

    private mutating func nextOperation(for board: Board) -> BoardOperation {
        let sectionIDs = Array(board.sections.keys)
        switch Int.random(in: 0..<100, using: &rng) {
        case 0..<12:
            return .addSection(id: newID(), title: title(), isExpanded: Bool.random(using: &rng), position: position(among: sectionIDs))
        case 12..<27:
            return .updateSection(id: someSection(board), title: title(), isExpanded: nil)
        case 27..<35:
            return .updateSection(id: someSection(board), title: nil, isExpanded: Bool.random(using: &rng))
        case 35..<42:
            return .moveSection(id: someSection(board), position: position(among: sectionIDs))
        case 42..<46:
            return .deleteSection(id: someSection(board))
        case 46..<64:
            let section = someSection(board)
            return .addTimer(
                id: newID(),
                sectionID: section,
                title: title(),
                minutes: Int.random(in: 0...90, using: &rng),
                seconds: Int.random(in: 0...59, using: &rng),
                position: position(among: board.orderedTimers(in: section).map(\.id))
            )
        case 64..<78:
            // One in ten is out of range and must be rejected.
            let minutes = Int.random(in: 0..<10, using: &rng) == 0 ? 5_000 : Int.random(in: 0...90, using: &rng)
            return .updateTimer(id: someTimer(board), title: Bool.random(using: &rng) ? title() : nil, minutes: minutes, seconds: nil)
        case 78..<90:
            let timer = someTimer(board)
            let target = Bool.random(using: &rng) ? someSection(board) : nil
            let siblings = board.orderedTimers(in: target ?? board.timers[timer]?.sectionID ?? timer).map(\.id)
            return .moveTimer(id: timer, sectionID: target, position: position(among: siblings))
        default:
            return .deleteTimer(id: someTimer(board))
        }
    }
}
