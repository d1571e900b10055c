/// An edit refused by the board: which operation failed and why.
public struct EditError: Error, Hashable, Sendable {
    /// Index of the failing operation within the edit.
    public let operationIndex: Int
    public let error: BoardError

    public init(operationIndex: Int, error: BoardError) {
        self.operationIndex = operationIndex
        self.error = error
    }
}

extension Board {
    /// Applies an edit atomically: every operation or none.
    ///
    /// Returns the minimal changes the edit made: per touched id, the entity before the edit is
    /// compared with the entity after it, so two renames of one section in one edit give one
    /// update, and an add followed by a delete gives nothing.
    /// - Parameter now: the server's clock in epoch milliseconds, stamped on new entities.
    public mutating func apply(
        _ operations: [BoardOperation],
        limits: BoardLimits = BoardLimits(),
        now: Int64
    ) throws(EditError) -> [Change] {
        var edit = Edit(board: self, limits: limits, now: now)
        // Hand the only reference to the edit, so it mutates in place instead of copying
        // the whole board; a failure puts the touched entities back.
        self = Board()
        for (index, operation) in operations.enumerated() {
            do {
                try edit.apply(operation)
            } catch {
                edit.rollBack()
                self = edit.board
                throw EditError(operationIndex: index, error: error)
            }
        }
        self = edit.board
        return edit.changes()
    }
}

extension Board {
    /// Finishes the running timers whose deadline is at or before `now`, as the server does when
    /// time runs out; returns the changes (empty when none was due).
    public mutating func finishExpiredTimers(now: Int64) -> [Change] {
        var edit = Edit(board: self, limits: BoardLimits(), now: now)
        self = Board()
        edit.finishExpiredTimers()
        self = edit.board
        return edit.changes()
    }
}

/// One edit in progress: the board as the edit changes it, and each touched entity as it was.
private struct Edit {
    var board: Board
    let limits: BoardLimits
    let now: Int64
    /// Before-values of every touched id (nil: it did not exist), in first-touch order.
    private var originalSections: [EntityID: Section?] = [:]
    private var originalTimers: [EntityID: BoardTimer?] = [:]
    private var touchedSections: [EntityID] = []
    private var touchedTimers: [EntityID] = []

    init(board: Board, limits: BoardLimits, now: Int64) {
        self.board = board
        self.limits = limits
        self.now = now
    }

    /// Puts the board back as it was before the edit.
    mutating func rollBack() {
        for (id, section) in originalSections { board.sections[id] = section }
        for (id, timer) in originalTimers { board.timers[id] = timer }
    }

    func changes() -> [Change] {
        Board.changes(
            sectionIDs: touchedSections,
            timerIDs: touchedTimers,
            oldSection: { originalSections[$0] ?? nil },
            newSection: { board.sections[$0] },
            oldTimer: { originalTimers[$0] ?? nil },
            newTimer: { board.timers[$0] }
        )
    }

    // MARK: Operations. Each validates everything before it writes anything.

    mutating func apply(_ operation: BoardOperation) throws(BoardError) {
        switch operation {
        case .addSection(let id, let title, let isExpanded, let position):
            try checkNewID(id)
            try checkTitle(title, id: id)
            guard board.sections.count < limits.maxSections else {
                throw .limitExceeded("a board holds at most \(limits.maxSections) sections")
            }
            let order = try orderKey(for: position, among: board.orderedSections.map { ($0.id, $0.order) }, moving: id)
            setSection(id, Section(id: id, title: title, isExpanded: isExpanded, createdDate: now, order: order))

        case .updateSection(let id, let title, let isExpanded):
            guard let section = board.sections[id] else { throw .notFound(id, "section") }
            if let title { try checkTitle(title, id: id) }
            setSection(id, SectionPatch(title: title, isExpanded: isExpanded).applied(to: section))

        case .moveSection(let id, let position):
            guard var section = board.sections[id] else { throw .notFound(id, "section") }
            section.order = try orderKey(for: position, among: board.orderedSections.map { ($0.id, $0.order) }, moving: id)
            setSection(id, section)

        case .deleteSection(let id):
            guard board.sections[id] != nil else { throw .notFound(id, "section") }
            for timer in board.orderedTimers(in: id) {
                setTimer(timer.id, nil)
            }
            setSection(id, nil)

        case .addTimer(let id, let sectionID, let title, let minutes, let seconds, let position):
            try checkNewID(id)
            guard board.sections[sectionID] != nil else { throw .notFound(sectionID, "section") }
            try checkTitle(title, id: id)
            try checkDuration(minutes: minutes, seconds: seconds, id: id)
            guard board.timers.count < limits.maxTimers else {
                throw .limitExceeded("a board holds at most \(limits.maxTimers) timers")
            }
            let order = try orderKey(for: position, among: siblingTimers(in: sectionID), moving: id)
            let timer = BoardTimer(
                id: id,
                sectionID: sectionID,
                title: title,
                minutes: minutes,
                seconds: seconds,
                createdDate: now,
                order: order
            )
            setTimer(id, timer)

        case .updateTimer(let id, let title, let minutes, let seconds):
            guard let timer = board.timers[id] else { throw .notFound(id, "timer") }
            if let title { try checkTitle(title, id: id) }
            try checkDuration(minutes: minutes ?? timer.minutes, seconds: seconds ?? timer.seconds, id: id)
            var updated = TimerPatch(title: title, minutes: minutes, seconds: seconds).applied(to: timer)
            // A new length keeps the time already counted; if that is already past it, the timer is done.
            if updated.run.status == .running || updated.run.status == .paused, updated.run.elapsed(at: now) >= updated.duration {
                updated.run = TimerRun(status: .finished, elapsed: updated.duration)
            }
            setTimer(id, updated)

        case .moveTimer(let id, let sectionID, let position):
            guard var timer = board.timers[id] else { throw .notFound(id, "timer") }
            let target = sectionID ?? timer.sectionID
            guard board.sections[target] != nil else { throw .notFound(target, "section") }
            timer.order = try orderKey(for: position, among: siblingTimers(in: target), moving: id)
            timer.sectionID = target
            setTimer(id, timer)

        case .deleteTimer(let id):
            guard board.timers[id] != nil else { throw .notFound(id, "timer") }
            setTimer(id, nil)

        case .startTimer(let id):
            guard let timer = board.timers[id] else { throw .notFound(id, "timer") }
            start(timer)
        case .pauseTimer(let id):
            guard let timer = board.timers[id] else { throw .notFound(id, "timer") }
            pause(timer)
        case .resetTimer(let id):
            guard var timer = board.timers[id] else { throw .notFound(id, "timer") }
            timer.run = .idle
            setTimer(id, timer)
        case .startSection(let id):
            guard board.sections[id] != nil else { throw .notFound(id, "section") }
            for timer in board.orderedTimers(in: id) where timer.run.status == .idle || timer.run.status == .paused {
                start(timer)
            }
        case .pauseSection(let id):
            guard board.sections[id] != nil else { throw .notFound(id, "section") }
            for timer in board.orderedTimers(in: id) { pause(timer) }
        }
    }

    // MARK: Running

    private mutating func start(_ timer: BoardTimer) {
        var timer = timer
        switch timer.run.status {
        case .running: return
        case .idle, .paused: timer.run = TimerRun(status: .running, startedAt: now, elapsed: timer.run.elapsed)
        case .finished: timer.run = TimerRun(status: .running, startedAt: now, elapsed: 0)
        }
        setTimer(timer.id, timer)
    }

    private mutating func pause(_ timer: BoardTimer) {
        guard timer.run.status == .running else { return }
        var timer = timer
        let elapsed = timer.run.elapsed(at: now)
        // Paused after its deadline but before the server marked it: it has finished.
        timer.run = elapsed >= timer.duration ? TimerRun(status: .finished, elapsed: timer.duration) : TimerRun(status: .paused, elapsed: elapsed)
        setTimer(timer.id, timer)
    }

    /// Marks every running timer whose deadline has passed as finished.
    mutating func finishExpiredTimers() {
        // Only the due timers are sorted (by id, so the changes come in a stable order), not the
        // whole board: this runs whenever a deadline passes.
        let due = board.timers.values.filter { timer in
            guard let deadline = timer.deadline else { return false }
            return deadline <= now
        }
        for timer in due.sorted(by: { $0.id < $1.id }) {
            var finished = timer
            finished.run = TimerRun(status: .finished, elapsed: timer.duration)
            setTimer(timer.id, finished)
        }
    }

    // MARK: Validation

    private func checkNewID(_ id: EntityID) throws(BoardError) {
        // An id deleted earlier in this edit stays reserved until the edit ends, so the
        // changeset never has to delete and insert one id within itself.
        let touchedHere = originalSections[id] != nil || originalTimers[id] != nil
        guard !board.contains(id), !touchedHere else { throw .duplicateID(id) }
    }

    private func checkTitle(_ title: String, id: EntityID) throws(BoardError) {
        guard title.contains(where: { !$0.isWhitespace }) else {
            throw .invalidField("title", "must not be empty", entityID: id)
        }
        guard title.count <= limits.maxTitleLength else {
            throw .invalidField("title", "is longer than \(limits.maxTitleLength) characters", entityID: id)
        }
        guard !title.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
            throw .invalidField("title", "must not contain control characters (such as a newline)", entityID: id)
        }
    }

    private func checkDuration(minutes: Int, seconds: Int, id: EntityID) throws(BoardError) {
        guard (0...limits.maxMinutes).contains(minutes) else {
            throw .invalidField("minutes", "must be between 0 and \(limits.maxMinutes)", entityID: id)
        }
        guard (0...BoardLimits.maxSeconds).contains(seconds) else {
            throw .invalidField("seconds", "must be between 0 and \(BoardLimits.maxSeconds)", entityID: id)
        }
    }

    // MARK: Order

    private func siblingTimers(in sectionID: EntityID) -> [(EntityID, OrderKey)] {
        board.orderedTimers(in: sectionID).map { ($0.id, $0.order) }
    }

    /// A key for `position` among `siblings` (in display order), ignoring the item being moved.
    private func orderKey(
        for position: Position,
        among siblings: [(id: EntityID, order: OrderKey)],
        moving id: EntityID
    ) throws(BoardError) -> OrderKey {
        let others = siblings.filter { $0.id != id }
        func key(after index: Int) -> OrderKey {
            // Between others[index] and others[index + 1]; index -1 means the start.
            let lower = index >= 0 ? others[index].order : nil
            let upper = index + 1 < others.count ? others[index + 1].order : nil
            return keyBetween(lower, upper)
        }
        switch position {
        case .first: return key(after: -1)
        case .last: return key(after: others.count - 1)
        case .after(let anchor), .before(let anchor):
            guard anchor != id else { throw .invalidField("position", "cannot name the item being moved", entityID: id) }
            guard let index = others.firstIndex(where: { $0.id == anchor }) else { throw .notFound(anchor, "sibling") }
            if case .after = position { return key(after: index) }
            return key(after: index - 1)
        }
    }

    /// Siblings' keys are distinct by construction; should two ever be equal (a hand-made
    /// board), the new key goes just after the lower one rather than trapping.
    private func keyBetween(_ lower: OrderKey?, _ upper: OrderKey?) -> OrderKey {
        if let lower, let upper, lower >= upper { return OrderKey.between(lower, nil) }
        return OrderKey.between(lower, upper)
    }

    // MARK: Writes, remembering the before-value of each id once

    private mutating func setSection(_ id: EntityID, _ section: Section?) {
        if originalSections[id] == nil {
            originalSections[id] = .some(board.sections[id])
            touchedSections.append(id)
        }
        board.sections[id] = section
    }

    private mutating func setTimer(_ id: EntityID, _ timer: BoardTimer?) {
        if originalTimers[id] == nil {
            originalTimers[id] = .some(board.timers[id])
            touchedTimers.append(id)
        }
        board.timers[id] = timer
    }
}
