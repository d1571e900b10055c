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
    /// Finishes the running timers whose deadline is at or before `now`, each at its deadline,
    /// and starts the next timer of a sequence at that same instant, as the server does when
    /// time runs out; returns the changes (empty when none was due). However late it is
    /// called (a restart, a board loaded again), the result is the board as it would be had it
    /// been called at every deadline, folded into one set of changes.
    public mutating func finishExpiredTimers(now: Int64) -> [Change] {
        finishExpiredTimersHandingOver(now: now).changes
    }

    /// `finishExpiredTimers(now:)`, and the last hand-over of each sequence section it made.
    public mutating func finishExpiredTimersHandingOver(now: Int64) -> (changes: [Change], handOvers: [SequenceHandOver]) {
        var edit = Edit(board: self, limits: BoardLimits(), now: now)
        self = Board()
        edit.finishExpiredTimers()
        self = edit.board
        return (edit.changes(), edit.handOvers.values.sorted { $0.section < $1.section })
    }
}

/// One edit in progress: the board as the edit changes it, and each touched entity as it was.
/// Running timers (start, pause, adjust, sequences) are in Edit+Running.swift.
struct Edit {
    var board: Board
    let limits: BoardLimits
    let now: Int64
    /// Before-values of every touched id (nil: it did not exist), in first-touch order.
    private var originalSections: [EntityID: Section?] = [:]
    private var originalTimers: [EntityID: BoardTimer?] = [:]
    private var touchedSections: [EntityID] = []
    private var touchedTimers: [EntityID] = []
    /// The board's display before the edit, once the edit touched it.
    private var originalDisplay: BoardDisplay?
    /// Each section's timer ids in display order, while `finishExpiredTimers` runs (nil otherwise).
    var sectionOrder: [EntityID: [EntityID]]?
    /// The last hand-over of each sequence section, by section id.
    var handOvers: [EntityID: SequenceHandOver] = [:]

    init(board: Board, limits: BoardLimits, now: Int64) {
        self.board = board
        self.limits = limits
        self.now = now
    }

    /// A section's timers in display order, from `sectionOrder` when it is set.
    func orderedTimers(in sectionID: EntityID) -> [BoardTimer] {
        guard let ids = sectionOrder?[sectionID] else { return board.orderedTimers(in: sectionID) }
        return ids.compactMap { board.timers[$0] }
    }

    /// Puts the board back as it was before the edit.
    mutating func rollBack() {
        for (id, section) in originalSections { board.sections[id] = section }
        for (id, timer) in originalTimers { board.timers[id] = timer }
        if let originalDisplay { board.display = originalDisplay }
    }

    func changes() -> [Change] {
        let changes = Board.changes(
            sectionIDs: touchedSections,
            timerIDs: touchedTimers,
            oldSection: { originalSections[$0] ?? nil },
            newSection: { board.sections[$0] },
            oldTimer: { originalTimers[$0] ?? nil },
            newTimer: { board.timers[$0] }
        )
        guard let originalDisplay else { return changes }
        let display = DisplayPatch(from: originalDisplay, to: board.display)
        return display.isEmpty ? changes : changes + [.updateDisplay(display)]
    }

    /// The changes that put every touched entity back as it was before the edit, in an order
    /// that applies.
    func inverseChanges() -> [Change] {
        let changes = Board.changes(
            sectionIDs: touchedSections,
            timerIDs: touchedTimers,
            oldSection: { board.sections[$0] },
            newSection: { originalSections[$0] ?? nil },
            oldTimer: { board.timers[$0] },
            newTimer: { originalTimers[$0] ?? nil }
        )
        guard let originalDisplay else { return changes }
        let display = DisplayPatch(from: board.display, to: originalDisplay)
        return display.isEmpty ? changes : changes + [.updateDisplay(display)]
    }

    // MARK: Operations. Each validates everything before it writes anything.

    mutating func apply(_ operation: BoardOperation) throws(BoardError) {
        switch operation {
        case .addSection(let id, let title, let isExpanded, let position, let sequence, let loop):
            try checkNewID(id)
            try checkTitle(title, id: id)
            guard board.sections.count < limits.maxSections else {
                throw .limitExceeded("a board holds at most \(limits.maxSections) sections")
            }
            let order = try orderKey(for: position, among: sectionSiblings(), moving: id)
            let section = Section(id: id, title: title, isExpanded: isExpanded, createdDate: now, order: order, sequence: sequence, loop: loop)
            setSection(id, section)

        case .updateSection(let id, let title, let isExpanded, let sequence, let loop, let finishAt):
            guard let section = board.sections[id] else { throw .notFound(id, "section") }
            if let title { try checkTitle(title, id: id) }
            if case .some(let instant?) = finishAt { try checkInstant(instant, "finishAt", id: id) }
            // Turning a sequence on or off stops nothing and starts nothing: hand-overs follow
            // the flag from the next timer that reaches zero.
            let patch = SectionPatch(title: title, isExpanded: isExpanded, sequence: sequence, loop: loop, finishAt: finishAt)
            setSection(id, patch.applied(to: section))
            if finishAt != nil { scheduleFinishTogether(in: id) }

        case .moveSection(let id, let position):
            guard var section = board.sections[id] else { throw .notFound(id, "section") }
            section.order = try orderKey(for: position, among: sectionSiblings(), moving: id)
            setSection(id, section)

        case .deleteSection(let id):
            guard board.sections[id] != nil else { throw .notFound(id, "section") }
            for timer in board.orderedTimers(in: id) {
                setTimer(timer.id, nil)
            }
            setSection(id, nil)

        case .addTimer(let id, let sectionID, let title, let minutes, let seconds, let position, let warnAt, let kind, let startAt, let targetAt):
            try checkNewID(id)
            guard board.sections[sectionID] != nil else { throw .notFound(sectionID, "section") }
            try checkTitle(title, id: id)
            try checkDuration(minutes: minutes, seconds: seconds, id: id)
            try checkWarnAt(warnAt, minutes: minutes, seconds: seconds, id: id)
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
                order: order,
                warnAt: warnAt,
                kind: kind,
                startAt: startAt,
                targetAt: targetAt
            )
            try checkSchedule(timer)
            setTimer(id, timer)
            if startAt == nil { scheduleFinishTogether(of: timer) }
            startIfScheduledInThePast(id)

        case .updateTimer(let id, let title, let minutes, let seconds, let warnAt, let kind, let startAt, let targetAt):
            guard let timer = board.timers[id] else { throw .notFound(id, "timer") }
            if let title { try checkTitle(title, id: id) }
            try checkDuration(minutes: minutes ?? timer.minutes, seconds: seconds ?? timer.seconds, id: id)
            // The warning it already has is no new value: a later, shorter length may have left it
            // past the length (docs/protocol.md), and a client sending the row as it is is no error.
            if let warnAt, warnAt != timer.warnAt {
                try checkWarnAt(warnAt, minutes: minutes ?? timer.minutes, seconds: seconds ?? timer.seconds, id: id)
            }
            let patch = TimerPatch(title: title, minutes: minutes, seconds: seconds, warnAt: warnAt, kind: kind, startAt: startAt, targetAt: targetAt)
            let updated = patch.applied(to: timer)
            try checkSchedule(updated)
            setTimer(id, updated)
            // A new length moves the start of a timer that finishes together with its section.
            if startAt == nil, updated.duration != timer.duration || updated.kind != timer.kind { scheduleFinishTogether(of: updated) }
            startIfScheduledInThePast(id)
            // A new length keeps the time already counted; if that is already past it, the timer is done.
            if let current = board.timers[id], current.kind == .countdown, current.run.status == .running || current.run.status == .paused,
                current.run.elapsed(at: now) >= current.duration
            {
                finish(current, at: now)
            }

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

        case .startTimer, .pauseTimer, .resetTimer, .adjustTimer, .startSection, .pauseSection, .skipSection, .restartSection:
            try applyRunning(operation)

        case .showMessage, .clearMessage, .setBlackout, .setTimeZone:
            try applyDisplay(operation)
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
        guard !OneLineText.showsNothing(title) else {
            throw .invalidField("title", "must not be empty", entityID: id)
        }
        guard title.count <= limits.maxTitleLength, title.utf8.count <= BoardLimits.maxTitleBytes else {
            throw .invalidField(
                "title",
                "is longer than \(limits.maxTitleLength) characters or \(BoardLimits.maxTitleBytes) bytes",
                entityID: id
            )
        }
        guard !OneLineText.breaksALine(title) else {
            throw .invalidField("title", "must not contain control characters or line breaks (such as a newline)", entityID: id)
        }
    }

    private func checkWarnAt(_ warnAt: Int64, minutes: Int, seconds: Int, id: EntityID) throws(BoardError) {
        let duration = Int64(minutes * 60 + seconds) * 1_000
        guard warnAt >= 0, warnAt <= limits.maxMilliseconds else {
            throw .invalidField("warnAt", "must be between 0 and \(limits.maxMilliseconds) milliseconds", entityID: id)
        }
        guard warnAt <= duration else {
            throw .invalidField("warnAt", "must not be more than the timer's length (\(duration) milliseconds)", entityID: id)
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

    /// Which list an item is placed in: the sections, or the timers of one section.
    private enum Siblings {
        case sections([Section])
        case timers([BoardTimer])

        var keys: [(id: EntityID, order: OrderKey)] {
            switch self {
            case .sections(let sections): sections.map { ($0.id, $0.order) }
            case .timers(let timers): timers.map { ($0.id, $0.order) }
            }
        }
    }

    private func sectionSiblings() -> Siblings {
        .sections(board.orderedSections)
    }

    private func siblingTimers(in sectionID: EntityID) -> Siblings {
        .timers(board.orderedTimers(in: sectionID))
    }

    /// A key for `position` among `siblings` (in display order), ignoring the item being moved.
    ///
    /// When the key between the neighbours would pass `OrderKey.rekeyLength`, or a neighbour's
    /// key is not of the form the server writes, the siblings get evenly spread keys in this
    /// same edit: keys stay short under any sequence of edits, so every stored board loads.
    private mutating func orderKey(for position: Position, among siblings: Siblings, moving id: EntityID) throws(BoardError) -> OrderKey {
        let others = siblings.keys.filter { $0.id != id }
        // The new item goes after others[slot - 1] and before others[slot].
        let slot: Int
        switch position {
        case .first: slot = 0
        case .last: slot = others.count
        case .after(let anchor), .before(let anchor):
            guard anchor != id else { throw .invalidField("position", "cannot name the item being moved", entityID: id) }
            guard let index = others.firstIndex(where: { $0.id == anchor }) else { throw .notFound(anchor, "sibling") }
            if case .after = position { slot = index + 1 } else { slot = index }
        }
        let lower = slot > 0 ? others[slot - 1].order : nil
        let upper = slot < others.count ? others[slot].order : nil
        let boundsUsable =
            (lower?.isCanonical ?? true) && (upper?.isCanonical ?? true) && (lower.flatMap { l in upper.map { l < $0 } } ?? true)
        if boundsUsable {
            let key = OrderKey.between(lower, upper)
            if key.rawValue.utf8.count <= OrderKey.rekeyLength { return key }
        }
        return rekey(siblings, excluding: id, openingSlot: slot)
    }

    /// Gives the siblings (but `id`) evenly spread keys, in their display order, leaving the
    /// key at `slot` free; returns that key.
    private mutating func rekey(_ siblings: Siblings, excluding id: EntityID, openingSlot slot: Int) -> OrderKey {
        var keys = OrderKey.sequence(count: siblings.keys.count(where: { $0.id != id }) + 1)
        let free = keys.remove(at: slot)
        switch siblings {
        case .sections(let sections):
            for (section, key) in zip(sections.filter { $0.id != id }, keys) where section.order != key {
                var rekeyed = section
                rekeyed.order = key
                setSection(section.id, rekeyed)
            }
        case .timers(let timers):
            for (timer, key) in zip(timers.filter { $0.id != id }, keys) where timer.order != key {
                var rekeyed = timer
                rekeyed.order = key
                setTimer(timer.id, rekeyed)
            }
        }
        return free
    }

    // MARK: Writes, remembering the before-value of each id once

    mutating func setSection(_ id: EntityID, _ section: Section?) {
        if originalSections[id] == nil {
            originalSections[id] = .some(board.sections[id])
            touchedSections.append(id)
        }
        board.sections[id] = section
    }

    mutating func setDisplay(_ display: BoardDisplay) {
        if originalDisplay == nil { originalDisplay = board.display }
        board.display = display
    }

    mutating func setTimer(_ id: EntityID, _ timer: BoardTimer?) {
        if originalTimers[id] == nil {
            originalTimers[id] = .some(board.timers[id])
            touchedTimers.append(id)
        }
        board.timers[id] = timer
    }
}
