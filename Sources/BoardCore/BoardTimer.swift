/// A timer inside a section. Named `BoardTimer` so it never clashes with Foundation's `Timer`;
/// on the wire it is a "timer".
public struct BoardTimer: Hashable, Sendable {
    public let id: EntityID
    public var sectionID: EntityID
    public var title: String
    public var minutes: Int
    public var seconds: Int
    /// Milliseconds of time left at which every screen shows the warning colour; 0: none.
    public var warnAt: Int64
    /// Milliseconds since 1970 by the server's clock, set once when the timer is added.
    public var createdDate: Int64
    public var order: OrderKey
    /// Whether it runs; see `TimerRun`.
    public var run: TimerRun
    /// What it counts: down from its length (the default), up without end, down to a time of
    /// day, or nothing (a clock).
    public var kind: TimerKind
    /// A start not made yet: at this instant (server epoch ms) the server starts it if it is
    /// idle, and forgets the schedule either way.
    public var startAt: Int64?
    /// For `toTime`: the instant it counts down to, server epoch ms.
    public var targetAt: Int64?

    public init(
        id: EntityID,
        sectionID: EntityID,
        title: String,
        minutes: Int,
        seconds: Int,
        createdDate: Int64,
        order: OrderKey,
        run: TimerRun = .idle,
        warnAt: Int64 = 0,
        kind: TimerKind = .countdown,
        startAt: Int64? = nil,
        targetAt: Int64? = nil
    ) {
        self.id = id
        self.sectionID = sectionID
        self.title = title
        self.minutes = minutes
        self.seconds = seconds
        self.warnAt = warnAt
        self.createdDate = createdDate
        self.order = order
        self.run = run
        self.kind = kind
        self.startAt = startAt
        self.targetAt = targetAt
    }
}

/// What a timer counts.
public enum TimerKind: String, Hashable, Sendable, CaseIterable {
    /// Down from its length to zero, then overtime (the default).
    case countdown
    /// Up from zero without end: a stopwatch.
    case countUp
    /// Down to a time of day (`targetAt`), whatever its length.
    case toTime
    /// The time of day; it does not run.
    case clock
}

/// The fields of a timer that an update may carry; nil means unchanged.
public struct TimerPatch: Hashable, Sendable {
    public var sectionID: EntityID?
    public var title: String?
    public var minutes: Int?
    public var seconds: Int?
    public var order: OrderKey?
    /// Never changed by an edit; present only when `diff` compares two unrelated boards.
    public var createdDate: Int64?
    /// The whole run state: its parts only mean something together.
    public var run: TimerRun?
    public var warnAt: Int64?
    public var kind: TimerKind?
    /// `.some(nil)`: the scheduled start was cleared.
    public var startAt: Int64??
    /// `.some(nil)`: the target was cleared.
    public var targetAt: Int64??

    public init(
        sectionID: EntityID? = nil,
        title: String? = nil,
        minutes: Int? = nil,
        seconds: Int? = nil,
        order: OrderKey? = nil,
        createdDate: Int64? = nil,
        run: TimerRun? = nil,
        warnAt: Int64? = nil,
        kind: TimerKind? = nil,
        startAt: Int64?? = nil,
        targetAt: Int64?? = nil
    ) {
        self.kind = kind
        self.startAt = startAt
        self.targetAt = targetAt
        self.sectionID = sectionID
        self.title = title
        self.minutes = minutes
        self.seconds = seconds
        self.order = order
        self.createdDate = createdDate
        self.run = run
        self.warnAt = warnAt
    }

    public var isEmpty: Bool {
        sectionID == nil && title == nil && minutes == nil && seconds == nil && order == nil && createdDate == nil && run == nil
            && warnAt == nil && kind == nil && startAt == nil && targetAt == nil
    }

    /// The fields of `new` that differ from `old`.
    public init(from old: BoardTimer, to new: BoardTimer) {
        self.init(
            sectionID: old.sectionID == new.sectionID ? nil : new.sectionID,
            title: old.title == new.title ? nil : new.title,
            minutes: old.minutes == new.minutes ? nil : new.minutes,
            seconds: old.seconds == new.seconds ? nil : new.seconds,
            order: old.order == new.order ? nil : new.order,
            createdDate: old.createdDate == new.createdDate ? nil : new.createdDate,
            run: old.run == new.run ? nil : new.run,
            warnAt: old.warnAt == new.warnAt ? nil : new.warnAt,
            kind: old.kind == new.kind ? nil : new.kind,
            startAt: old.startAt == new.startAt ? nil : .some(new.startAt),
            targetAt: old.targetAt == new.targetAt ? nil : .some(new.targetAt)
        )
    }

    public func applied(to timer: BoardTimer) -> BoardTimer {
        var timer = timer
        if let sectionID { timer.sectionID = sectionID }
        if let title { timer.title = title }
        if let minutes { timer.minutes = minutes }
        if let seconds { timer.seconds = seconds }
        if let order { timer.order = order }
        if let createdDate { timer.createdDate = createdDate }
        if let run { timer.run = run }
        if let warnAt { timer.warnAt = warnAt }
        if let kind { timer.kind = kind }
        if let startAt { timer.startAt = startAt }
        if let targetAt { timer.targetAt = targetAt }
        return timer
    }
}
