/// What an edit did, both ways, so its author can undo it later: the changes it made
/// (`forward`) and the changes that put back every entity it touched (`backward`).
///
/// An undo puts back a value only where the board still holds what the edit set: what someone
/// else changed since is left alone. Running state is a value like any other, so undoing a reset
/// or a pause puts back the run as it was, with its `startedAt`: the time since counts as if the
/// mistake never happened.
public struct EditRecord: Hashable, Sendable {
    public let forward: [Change]
    public let backward: [Change]

    public init(forward: [Change], backward: [Change]) {
        self.forward = forward
        self.backward = backward
    }
}

/// A value an undo left as it was, because someone changed it after the edit being undone.
/// `field` names the field (`title`, `run`, ...), or is `section` / `timer` for a whole item
/// (an added item someone changed since is not deleted; a deleted one whose id is taken, or
/// whose section is gone, is not put back). `id` is nil for a field of the board's display.
public struct SkippedField: Hashable, Sendable {
    public let id: EntityID?
    public let field: String

    public init(id: EntityID?, field: String) {
        self.id = id
        self.field = field
    }
}

extension Board {
    /// `apply`, also returning what it takes to undo the edit.
    public mutating func applyRecording(
        _ operations: [BoardOperation],
        limits: BoardLimits = BoardLimits(),
        now: Int64
    ) throws(EditError) -> (changes: [Change], record: EditRecord) {
        var edit = Edit(board: self, limits: limits, now: now)
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
        let changes = edit.changes()
        return (changes, EditRecord(forward: changes, backward: edit.inverseChanges()))
    }

    /// Undoes the edit `record` describes, as far as the board still holds what it set. Returns
    /// the changes the undo made, the record to undo the undo (a redo), and what it left alone.
    public mutating func undo(_ record: EditRecord, now: Int64) -> (changes: [Change], record: EditRecord, skipped: [SkippedField]) {
        var edit = Edit(board: self, limits: BoardLimits(), now: now)
        self = Board()
        var undo = Undo(forward: record.forward)
        for change in record.backward { undo.restore(change, in: &edit) }
        self = edit.board
        let changes = edit.changes()
        return (changes, EditRecord(forward: changes, backward: edit.inverseChanges()), undo.skipped)
    }
}

/// One undo in progress: what the edit set, by id, and what the undo has left alone so far.
private struct Undo {
    private var insertedSections: [EntityID: Section] = [:]
    private var insertedTimers: [EntityID: BoardTimer] = [:]
    private var sectionPatches: [EntityID: SectionPatch] = [:]
    private var timerPatches: [EntityID: TimerPatch] = [:]
    private var displayPatch: DisplayPatch?
    private(set) var skipped: [SkippedField] = []

    init(forward: [Change]) {
        for change in forward {
            switch change {
            case .insertSection(let section): insertedSections[section.id] = section
            case .insertTimer(let timer): insertedTimers[timer.id] = timer
            case .updateSection(let id, let patch): sectionPatches[id] = patch
            case .updateTimer(let id, let patch): timerPatches[id] = patch
            case .updateDisplay(let patch): displayPatch = patch
            case .deleteSection, .deleteTimer: break
            }
        }
    }

    /// Applies one backward change where the board still holds what the edit left.
    mutating func restore(_ change: Change, in edit: inout Edit) {
        let board = edit.board
        switch change {
        case .deleteTimer(let id):
            // The edit added it: deleted unless someone changed it since.
            guard let current = board.timers[id] else { return }
            guard current == insertedTimers[id] else { return skip(id, "timer") }
            edit.setTimer(id, nil)
        case .deleteSection(let id):
            guard let current = board.sections[id] else { return }
            let hasOthersTimers = board.timers.values.contains { $0.sectionID == id }
            guard current == insertedSections[id], !hasOthersTimers else { return skip(id, "section") }
            edit.setSection(id, nil)
        case .insertSection(let section):
            // The edit deleted it: back with its id and order, unless the id is taken.
            guard !board.contains(section.id) else { return skip(section.id, "section") }
            edit.setSection(section.id, section)
        case .insertTimer(let timer):
            guard !board.contains(timer.id), board.sections[timer.sectionID] != nil else { return skip(timer.id, "timer") }
            edit.setTimer(timer.id, timer)
        case .updateSection(let id, let backward):
            guard let current = board.sections[id], let forward = sectionPatches[id] else { return }
            var restored = SectionPatch()
            restoreField("title", \.title, \.title, backward, forward, current, &restored, id)
            restoreField("isExpanded", \.isExpanded, \.isExpanded, backward, forward, current, &restored, id)
            restoreField("order", \.order, \.order, backward, forward, current, &restored, id)
            restoreField("sequence", \.sequence, \.sequence, backward, forward, current, &restored, id)
            restoreField("loop", \.loop, \.loop, backward, forward, current, &restored, id)
            restoreField("finishAt", \.finishAt, \.finishAt, backward, forward, current, &restored, id)
            if !restored.isEmpty { edit.setSection(id, restored.applied(to: current)) }
        case .updateTimer(let id, let backward):
            guard let current = board.timers[id], let forward = timerPatches[id] else { return }
            var restored = TimerPatch()
            if let section = backward.sectionID, board.sections[section] == nil {
                skip(id, "sectionID")
            } else {
                restoreField("sectionID", \.sectionID, \.sectionID, backward, forward, current, &restored, id)
            }
            restoreField("title", \.title, \.title, backward, forward, current, &restored, id)
            restoreField("minutes", \.minutes, \.minutes, backward, forward, current, &restored, id)
            restoreField("seconds", \.seconds, \.seconds, backward, forward, current, &restored, id)
            restoreField("order", \.order, \.order, backward, forward, current, &restored, id)
            restoreField("run", \.run, \.run, backward, forward, current, &restored, id)
            restoreField("warnAt", \.warnAt, \.warnAt, backward, forward, current, &restored, id)
            restoreField("kind", \.kind, \.kind, backward, forward, current, &restored, id)
            restoreField("startAt", \.startAt, \.startAt, backward, forward, current, &restored, id)
            restoreField("targetAt", \.targetAt, \.targetAt, backward, forward, current, &restored, id)
            if !restored.isEmpty { edit.setTimer(id, restored.applied(to: current)) }
        case .updateDisplay(let backward):
            guard let forward = displayPatch else { return }
            let current = board.display
            var restored = DisplayPatch()
            if let old = backward.message {
                let set: ScreenMessage? = if case .show(let message)? = forward.message { message } else { nil }
                if current.message == set { restored.message = old } else { skip(nil, "message") }
            }
            restoreField("blackout", \.blackout, \.blackout, backward, forward, current, &restored, nil)
            restoreField("timeZone", \.timeZone, \.timeZone, backward, forward, current, &restored, nil)
            if !restored.isEmpty { edit.setDisplay(restored.applied(to: current)) }
        }
    }


    /// Puts back one field when the entity still holds the value the edit set; skips it otherwise.
    private mutating func restoreField<Patch, Entity, Value: Equatable>(
        _ name: String,
        _ field: WritableKeyPath<Patch, Value?>,
        _ value: KeyPath<Entity, Value>,
        _ backward: Patch,
        _ forward: Patch,
        _ current: Entity,
        _ restored: inout Patch,
        _ id: EntityID?
    ) {
        guard let old = backward[keyPath: field] else { return }
        guard current[keyPath: value] == forward[keyPath: field] else { return skip(id, name) }
        restored[keyPath: field] = old
    }

    private mutating func skip(_ id: EntityID?, _ field: String) {
        skipped.append(SkippedField(id: id, field: field))
    }
}
