/// A sequence section handed over from one timer to the next when time ran out: the server's
/// own changeset folds a catch-up's hand-overs into the final runs, so this says which happened
/// (the last per section), for `sequence.advanced` when the started timer has finished too.
public struct SequenceHandOver: Hashable, Sendable {
    public let section: EntityID
    /// The timer that ran out.
    public let finished: EntityID
    /// The timer that started at that instant (the first, for a loop's next round).
    public let started: EntityID
    /// When: the finished timer's deadline.
    public let at: Int64
}
