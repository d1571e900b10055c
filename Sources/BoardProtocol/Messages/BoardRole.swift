/// What a board's link lets its holder do (docs/protocol.md, "Links and roles"). Each role may
/// do everything the ones after it may.
public enum BoardRole: String, Hashable, Sendable, CaseIterable {
    /// Manage the board: rename it, replace its edit and view links, delete it.
    case owner
    /// Change the board.
    case edit
    /// Watch the board.
    case view

    /// Whether the holder may change the board's content.
    public var canEdit: Bool { self != .view }
}
