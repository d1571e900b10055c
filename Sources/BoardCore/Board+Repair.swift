extension Board {
    /// The board with every list whose order keys are not all of the form the server writes
    /// (too long, not digits, or of the older integer-less form) given evenly spread keys in
    /// its current display order, and the changes that do it (empty when nothing needed it).
    ///
    /// Validation is for input: a board the store kept is never refused for breaking a rule,
    /// it is repaired here when it is loaded.
    public func repairedOrder() -> (board: Board, changes: [Change]) {
        var repaired = self
        var changes: [Change] = []
        let sections = orderedSections
        if sections.contains(where: { !$0.order.isCanonical }) {
            for (section, key) in zip(sections, OrderKey.sequence(count: sections.count)) where section.order != key {
                repaired.sections[section.id]?.order = key
                changes.append(.updateSection(section.id, SectionPatch(order: key)))
            }
        }
        var start = 0
        let timers = orderedTimers
        while start < timers.count {
            let sectionID = timers[start].sectionID
            var end = start
            while end < timers.count, timers[end].sectionID == sectionID { end += 1 }
            let group = timers[start..<end]
            if group.contains(where: { !$0.order.isCanonical }) {
                for (timer, key) in zip(group, OrderKey.sequence(count: group.count)) where timer.order != key {
                    repaired.timers[timer.id]?.order = key
                    changes.append(.updateTimer(timer.id, TimerPatch(order: key)))
                }
            }
            start = end
        }
        return (repaired, changes)
    }
}
