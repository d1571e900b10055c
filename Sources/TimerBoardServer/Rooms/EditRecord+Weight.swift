import BoardCore

extension EditRecord {
    /// About how many bytes it holds: what bounds a board's undo records by size, not only by
    /// count (2,000 records of a 5,000-timer delete and its undo were gigabytes). An estimate
    /// from its changes' text, not their exact layout in memory.
    var estimatedBytes: Int {
        (forward + backward).reduce(0) { $0 + $1.estimatedBytes }
    }
}

extension Change {
    fileprivate var estimatedBytes: Int {
        switch self {
        case .insertSection(let section): 128 + section.title.utf8.count
        case .insertTimer(let timer): 192 + timer.title.utf8.count
        case .updateSection(_, let patch): 96 + (patch.title?.utf8.count ?? 0)
        case .updateTimer(_, let patch): 128 + (patch.title?.utf8.count ?? 0)
        case .deleteSection, .deleteTimer: 48
        case .updateDisplay: 256
        }
    }
}
