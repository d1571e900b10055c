/// One change to one entity, keyed by id, never by index.
///
/// An insert carries the whole entity, an update only the fields that changed, a delete the id.
/// A move is an update of `order` (and of `sectionID` for a timer that changes section).
public enum Change: Hashable, Sendable {
    case insertSection(Section)
    case updateSection(EntityID, SectionPatch)
    /// Always preceded, in the same changeset, by the deletes of the section's timers.
    case deleteSection(EntityID)
    case insertTimer(BoardTimer)
    case updateTimer(EntityID, TimerPatch)
    case deleteTimer(EntityID)
    /// The board's display (message, blackout, time zone) changed; it has no id.
    case updateDisplay(DisplayPatch)

    /// The id of the entity this change touches; nil for the board's display.
    public var entityID: EntityID? {
        switch self {
        case .insertSection(let section): section.id
        case .insertTimer(let timer): timer.id
        case .updateSection(let id, _), .deleteSection(let id), .updateTimer(let id, _), .deleteTimer(let id): id
        case .updateDisplay: nil
        }
    }
}

/// The changes of one accepted edit, stamped with the board revision they produce.
public struct Changeset: Hashable, Sendable {
    public let revision: Int64
    public let changes: [Change]

    public init(revision: Int64, changes: [Change]) {
        self.revision = revision
        self.changes = changes
    }
}
