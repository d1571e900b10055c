/// The changes that turn `old` into `new`, in the same vocabulary as an edit's changeset.
///
/// `apply(diff(a, b), to: a) == b` for every pair of valid boards; equal boards give no change.
public func diff(_ old: Board, _ new: Board) -> [Change] {
    let sectionIDs = differingIDs(old.sections, new.sections)
    let timerIDs = differingIDs(old.timers, new.timers)
    let changes = Board.changes(
        sectionIDs: sectionIDs,
        timerIDs: timerIDs,
        oldSection: { old.sections[$0] },
        newSection: { new.sections[$0] },
        oldTimer: { old.timers[$0] },
        newTimer: { new.timers[$0] }
    )
    let display = DisplayPatch(from: old.display, to: new.display)
    return display.isEmpty ? changes : changes + [.updateDisplay(display)]
}

/// The ids whose entity was added, removed or changed, sorted. Only these can give a change,
/// so sorting them alone (rather than every id of both boards) keeps two equal or nearly
/// equal boards linear in their size, with the same changes in the same order.
private func differingIDs<Entity: Equatable>(_ old: [EntityID: Entity], _ new: [EntityID: Entity]) -> [EntityID] {
    var ids: [EntityID] = []
    var kept = 0
    for (id, entity) in old {
        guard let newEntity = new[id] else {
            ids.append(id)
            continue
        }
        kept += 1
        if newEntity != entity { ids.append(id) }
    }
    // An id of `new` missing from `old` is an insert; when all of `new`'s ids were found above, there is none.
    if kept < new.count {
        for id in new.keys where old.index(forKey: id) == nil {
            ids.append(id)
        }
    }
    return ids.sorted()
}

extension Board {
    /// Compares each id's entity before and after, and orders the changes so that applying
    /// them one by one is always valid:
    /// timer deletes, section inserts, section updates, timer updates, section deletes, timer inserts.
    /// (A timer leaves a section before the section goes; a section exists before a timer enters
    /// it; an id freed by a delete is free before an insert of the other kind reuses it.)
    static func changes(
        sectionIDs: some Sequence<EntityID>,
        timerIDs: some Sequence<EntityID>,
        oldSection: (EntityID) -> Section?,
        newSection: (EntityID) -> Section?,
        oldTimer: (EntityID) -> BoardTimer?,
        newTimer: (EntityID) -> BoardTimer?
    ) -> [Change] {
        var sectionInserts: [Change] = []
        var sectionUpdates: [Change] = []
        var sectionDeletes: [Change] = []
        for id in sectionIDs {
            switch (oldSection(id), newSection(id)) {
            case (nil, let new?): sectionInserts.append(.insertSection(new))
            case (_?, nil): sectionDeletes.append(.deleteSection(id))
            case (let old?, let new?):
                let patch = SectionPatch(from: old, to: new)
                if !patch.isEmpty { sectionUpdates.append(.updateSection(id, patch)) }
            case (nil, nil): break
            }
        }
        var timerInserts: [Change] = []
        var timerUpdates: [Change] = []
        var timerDeletes: [Change] = []
        for id in timerIDs {
            switch (oldTimer(id), newTimer(id)) {
            case (nil, let new?): timerInserts.append(.insertTimer(new))
            case (_?, nil): timerDeletes.append(.deleteTimer(id))
            case (let old?, let new?):
                let patch = TimerPatch(from: old, to: new)
                if !patch.isEmpty { timerUpdates.append(.updateTimer(id, patch)) }
            case (nil, nil): break
            }
        }
        return timerDeletes + sectionInserts + sectionUpdates + timerUpdates + sectionDeletes + timerInserts
    }
}
