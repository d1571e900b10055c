import BoardCore
import BoardStore

/// The report after an event: one row per timer run, read from the board's log. A run begins when
/// a timer starts from idle (or again after it finished) and ends when it finishes, is reset or
/// is deleted; pauses are inside it. A finished timer's overtime counts until it is reset,
/// started again or deleted. Runs that began before the log's horizon have no start.
struct RunReport {
    enum Outcome: String {
        case finished, reset, deleted, running, paused
    }

    struct Run: Equatable {
        let timerID: String
        var timer: String
        var section: String
        /// The timer's length when the run began, ms.
        var planned: Int64
        var startedAt: Int64?
        var endedAt: Int64?
        var outcome: Outcome
        /// Time it ran (pauses left out), ms.
        var ran: Int64
        /// Time past its end before it was reset, started again or deleted (or until now), ms.
        var overtime: Int64?
        var startedBy: String?
        var endedBy: String?
    }

    /// Who a changeset the server made itself is shown as.
    static let server = "TimerBoard"

    private(set) var runs: [Run] = []
    /// The open run (running, paused, or finished and counting overtime) of each timer, by index.
    private var open: [EntityID: Int] = [:]
    private var timers: [EntityID: BoardTimer] = [:]
    private var sections: [EntityID: String] = [:]

    /// The runs in `log` (oldest first), as of `now`.
    init(log: [StoredChangeset], now: Int64) {
        for changeset in log {
            for change in changeset.changes { apply(change, at: changeset.time, by: changeset.author ?? Self.server) }
        }
        for (id, index) in open {
            guard let timer = timers[id] else { continue }
            if runs[index].outcome == .finished {
                runs[index].overtime = timer.run.finishedAt.map { now - $0 }
            } else {
                runs[index].outcome = timer.run.status == .paused ? .paused : .running
                runs[index].ran = timer.run.elapsed(at: now)
            }
        }
        runs.sort { ($0.startedAt ?? .min, $0.timerID) < ($1.startedAt ?? .min, $1.timerID) }
    }

    private mutating func apply(_ change: Change, at time: Int64, by author: String) {
        switch change {
        case .insertSection(let section): sections[section.id] = section.title
        case .updateSection(let id, let patch): if let title = patch.title { sections[id] = title }
        case .deleteSection, .updateDisplay: break
        case .insertTimer(let timer):
            timers[timer.id] = timer
            if timer.run.status == .running { begin(timer, at: time, by: author) }
        case .updateTimer(let id, let patch):
            guard let before = timers[id] else { return }
            let after = patch.applied(to: before)
            timers[id] = after
            if let index = open[id] {
                runs[index].timer = after.title
                runs[index].section = sections[after.sectionID] ?? ""
            }
            guard patch.run != nil, after.run.status != before.run.status || after.run.startedAt != before.run.startedAt else { return }
            transition(from: before, to: after, at: time, by: author)
        case .deleteTimer(let id):
            if let index = open.removeValue(forKey: id), let timer = timers[id] {
                end(index, timer, at: time, by: author, as: .deleted)
            }
            timers[id] = nil
        }
    }

    private mutating func transition(from before: BoardTimer, to after: BoardTimer, at time: Int64, by author: String) {
        switch after.run.status {
        case .running where before.run.status == .paused:
            return  // resumed: the same run
        case .running:
            if let index = open.removeValue(forKey: after.id) { end(index, before, at: time, by: author, as: .reset) }
            begin(after, at: time, by: author)
        case .paused:
            return
        case .finished:
            guard let index = open[after.id] ?? beginUnseen(after) else { return }
            runs[index].outcome = .finished
            runs[index].endedAt = after.run.finishedAt ?? time
            runs[index].endedBy = author
            runs[index].ran = after.run.elapsed
        case .idle:
            if let index = open.removeValue(forKey: after.id) { end(index, before, at: time, by: author, as: .reset) }
        }
    }

    private mutating func begin(_ timer: BoardTimer, at time: Int64, by author: String) {
        open[timer.id] = runs.count
        runs.append(
            Run(
                timerID: timer.id.rawValue,
                timer: timer.title,
                section: sections[timer.sectionID] ?? "",
                planned: timer.duration,
                startedAt: timer.run.startedAt ?? time,
                outcome: .running,
                ran: 0,
                startedBy: author
            )
        )
    }

    /// A timer first seen finishing: its run began before the log's horizon.
    private mutating func beginUnseen(_ timer: BoardTimer) -> Int? {
        open[timer.id] = runs.count
        runs.append(Run(timerID: timer.id.rawValue, timer: timer.title, section: sections[timer.sectionID] ?? "", planned: timer.duration, outcome: .running, ran: 0))
        return open[timer.id]
    }

    /// Ends an open run at `time`: reset, deleted, or (when it had finished) its overtime stops.
    private mutating func end(_ index: Int, _ before: BoardTimer, at time: Int64, by author: String, as outcome: Outcome) {
        if runs[index].outcome == .finished {
            runs[index].overtime = before.run.finishedAt.map { time - $0 }
            return
        }
        runs[index].outcome = outcome
        runs[index].endedAt = time
        runs[index].endedBy = author
        runs[index].ran = before.run.elapsed(at: time)
    }
}
