/// A collapsible group of timers.
public struct Section: Hashable, Sendable {
    public let id: EntityID
    public var title: String
    public var isExpanded: Bool
    /// Milliseconds since 1970 by the server's clock, set once when the section is added.
    public var createdDate: Int64
    public var order: OrderKey
    /// Its timers run one at a time in display order, each starting when the one before ends.
    public var sequence: Bool
    /// A sequence that starts again from its first timer after its last.
    public var loop: Bool
    /// Finish together: each of its countdown timers is scheduled to start at this instant minus
    /// its length (`BoardTimer.startAt`), so all reach zero at it. Server epoch ms.
    public var finishAt: Int64?

    public init(
        id: EntityID,
        title: String,
        isExpanded: Bool = true,
        createdDate: Int64,
        order: OrderKey,
        sequence: Bool = false,
        loop: Bool = false,
        finishAt: Int64? = nil
    ) {
        self.finishAt = finishAt
        self.id = id
        self.title = title
        self.isExpanded = isExpanded
        self.createdDate = createdDate
        self.order = order
        self.sequence = sequence
        self.loop = loop
    }
}

/// The fields of a section that an update may carry; nil means unchanged.
public struct SectionPatch: Hashable, Sendable {
    public var title: String?
    public var isExpanded: Bool?
    public var order: OrderKey?
    /// Never changed by an edit; present only when `diff` compares two unrelated boards.
    public var createdDate: Int64?
    public var sequence: Bool?
    public var loop: Bool?
    /// `.some(nil)`: finishing together was turned off.
    public var finishAt: Int64??

    public init(
        title: String? = nil,
        isExpanded: Bool? = nil,
        order: OrderKey? = nil,
        createdDate: Int64? = nil,
        sequence: Bool? = nil,
        loop: Bool? = nil,
        finishAt: Int64?? = nil
    ) {
        self.finishAt = finishAt
        self.title = title
        self.isExpanded = isExpanded
        self.order = order
        self.createdDate = createdDate
        self.sequence = sequence
        self.loop = loop
    }

    public var isEmpty: Bool {
        title == nil && isExpanded == nil && order == nil && createdDate == nil && sequence == nil && loop == nil && finishAt == nil
    }

    /// The fields of `new` that differ from `old`.
    public init(from old: Section, to new: Section) {
        self.init(
            title: old.title == new.title ? nil : new.title,
            isExpanded: old.isExpanded == new.isExpanded ? nil : new.isExpanded,
            order: old.order == new.order ? nil : new.order,
            createdDate: old.createdDate == new.createdDate ? nil : new.createdDate,
            sequence: old.sequence == new.sequence ? nil : new.sequence,
            loop: old.loop == new.loop ? nil : new.loop,
            finishAt: old.finishAt == new.finishAt ? nil : .some(new.finishAt)
        )
    }

    public func applied(to section: Section) -> Section {
        var section = section
        if let title { section.title = title }
        if let isExpanded { section.isExpanded = isExpanded }
        if let order { section.order = order }
        if let createdDate { section.createdDate = createdDate }
        if let sequence { section.sequence = sequence }
        if let loop { section.loop = loop }
        if let finishAt { section.finishAt = finishAt }
        return section
    }
}
