/// The content of one board: its sections and their timers, each keyed by id.
///
/// Order is not positional: every entity carries an `OrderKey`, and the ordered views below
/// sort by (order, id), so two equal keys can never make an item vanish or collapse.
public struct Board: Hashable, Sendable {
    public var sections: [EntityID: Section]
    public var timers: [EntityID: BoardTimer]

    public init(sections: [EntityID: Section] = [:], timers: [EntityID: BoardTimer] = [:]) {
        self.sections = sections
        self.timers = timers
    }

    /// Builds a board from lists, refusing duplicate ids and timers whose section is missing.
    public init(sections: [Section], timers: [BoardTimer]) throws(BoardError) {
        self.init()
        for section in sections {
            guard !contains(section.id) else { throw .duplicateID(section.id) }
            self.sections[section.id] = section
        }
        for timer in timers {
            guard !contains(timer.id) else { throw .duplicateID(timer.id) }
            guard self.sections[timer.sectionID] != nil else { throw .notFound(timer.sectionID) }
            self.timers[timer.id] = timer
        }
    }

    /// True when a section or a timer has this id: ids are unique across both.
    public func contains(_ id: EntityID) -> Bool {
        sections[id] != nil || timers[id] != nil
    }

    /// Sections in display order.
    public var orderedSections: [Section] {
        sections.values.sorted { ($0.order, $0.id) < ($1.order, $1.id) }
    }

    /// The timers of one section in display order.
    public func orderedTimers(in sectionID: EntityID) -> [BoardTimer] {
        timers.values.filter { $0.sectionID == sectionID }.sorted { ($0.order, $0.id) < ($1.order, $1.id) }
    }

    /// Every timer, grouped by section in display order: the order a snapshot lists them in.
    public var orderedTimers: [BoardTimer] {
        let sectionRank = Dictionary(uniqueKeysWithValues: orderedSections.enumerated().map { ($1.id, $0) })
        return timers.values.sorted {
            (sectionRank[$0.sectionID] ?? 0, $0.order, $0.id) < (sectionRank[$1.sectionID] ?? 0, $1.order, $1.id)
        }
    }

    public var entityCount: Int { sections.count + timers.count }
}
