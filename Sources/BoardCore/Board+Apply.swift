/// Applies changes in order; throws at the first one that does not fit the board, leaving
/// the board as it was before the call.
public func apply(_ changes: [Change], to board: Board) throws(BoardError) -> Board {
    var result = board
    for change in changes {
        try result.apply(change)
    }
    return result
}

extension Board {
    /// Applies one change. Changes come from the server, so only their consistency with the
    /// board is checked (ids present or absent, sections present), not the edit limits.
    public mutating func apply(_ change: Change) throws(BoardError) {
        switch change {
        case .insertSection(let section):
            guard !contains(section.id) else { throw .duplicateID(section.id) }
            sections[section.id] = section
        case .updateSection(let id, let patch):
            guard let section = sections[id] else { throw .notFound(id, "section") }
            sections[id] = patch.applied(to: section)
        case .deleteSection(let id):
            guard sections[id] != nil else { throw .notFound(id, "section") }
            // The changeset lists the timer deletes first; this only guards against a
            // hand-made changeset leaving orphans behind.
            timers = timers.filter { $0.value.sectionID != id }
            sections[id] = nil
        case .insertTimer(let timer):
            guard !contains(timer.id) else { throw .duplicateID(timer.id) }
            guard sections[timer.sectionID] != nil else { throw .notFound(timer.sectionID, "section") }
            timers[timer.id] = timer
        case .updateTimer(let id, let patch):
            guard let timer = timers[id] else { throw .notFound(id, "timer") }
            if let sectionID = patch.sectionID, sections[sectionID] == nil { throw .notFound(sectionID, "section") }
            timers[id] = patch.applied(to: timer)
        case .deleteTimer(let id):
            guard timers[id] != nil else { throw .notFound(id, "timer") }
            timers[id] = nil
        case .updateDisplay(let patch):
            display = patch.applied(to: display)
        }
    }
}
