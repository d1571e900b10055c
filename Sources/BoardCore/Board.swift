/// The content of one board: its sections and their timers, each keyed by id.
///
/// Order is not positional: every entity carries an `OrderKey`, and the ordered views below
/// sort by (order, id), so two equal keys can never make an item vanish or collapse.
public struct Board: Hashable, Sendable {
    public var sections: [EntityID: Section]
    public var timers: [EntityID: BoardTimer]
    /// The message, blackout and time zone of the board's screens.
    public var display: BoardDisplay

    public init(sections: [EntityID: Section] = [:], timers: [EntityID: BoardTimer] = [:], display: BoardDisplay = BoardDisplay()) {
        self.sections = sections
        self.timers = timers
        self.display = display
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
    ///
    /// This scans every timer of the board (there is no index by section: `timers` is written
    /// directly); to list several sections, use `orderedTimers`, which groups them in one pass.
    public func orderedTimers(in sectionID: EntityID) -> [BoardTimer] {
        timers.values.filter { $0.sectionID == sectionID }.sorted { ($0.order, $0.id) < ($1.order, $1.id) }
    }

    /// Every section's timer ids in display order, in one pass over the board.
    func timerIDsBySectionInOrder() -> [EntityID: [EntityID]] {
        Dictionary(grouping: timers.values, by: \.sectionID).mapValues { timers in
            timers.sorted { ($0.order, $0.id) < ($1.order, $1.id) }.map(\.id)
        }
    }

    /// Every timer, grouped by section in display order: the order a snapshot lists them in.
    ///
    /// One pass puts each timer in its section's group and each group is sorted on its own, the
    /// same order as one sort by (section rank, order, id) without a rank lookup per comparison.
    public var orderedTimers: [BoardTimer] {
        let sectionRank = Dictionary(uniqueKeysWithValues: orderedSections.enumerated().map { ($1.id, $0) })
        // A timer whose section is missing (only a hand-built board has one) ranks 0, among the
        // first section's timers, as it always has; with no section at all there is one group.
        var groups = Array(repeating: [BoardTimer](), count: max(sectionRank.count, 1))
        for timer in timers.values {
            groups[sectionRank[timer.sectionID] ?? 0].append(timer)
        }
        var ordered: [BoardTimer] = []
        ordered.reserveCapacity(timers.count)
        for index in groups.indices {
            groups[index].sort { ($0.order, $0.id) < ($1.order, $1.id) }
            ordered += groups[index]
        }
        return ordered
    }

    public var entityCount: Int { sections.count + timers.count }
}
