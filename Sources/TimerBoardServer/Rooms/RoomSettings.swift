import BoardCore

/// The configuration values a room's state decides with (`ServerConfiguration` has each, with
/// its flag).
struct RoomSettings: Sendable {
    var limits = BoardLimits()
    var retainedChangesets = 1_000
    var retainedChangesetBytes = 16 << 20
    var outcomesPerClient = 1_000
    var outcomesPerBoard = 20_000
    var snapshotInterval = 100
    /// Edits each client can undo, per board, and edits undoable in all per board.
    var undoPerClient = 100
    var undoPerBoard = 2_000
    /// About how many bytes of undo records a board keeps in all, oldest forgotten first.
    var undoBytesPerBoard = 64 << 20
    /// On a cluster: presence is told to, and heard from, the other nodes.
    var sharedWithOtherNodes = false
    /// Milliseconds a `board.changed` webhook waits for later changes to ride along.
    var webhookChangeDelay: Int64 = 1_000
}
