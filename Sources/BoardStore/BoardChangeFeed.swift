/// What a shared store tells each node about appends made by any node (itself included).
public enum BoardChangeEvent: Hashable, Sendable {
    /// A board's log now ends at `revision` or later.
    case appended(boardID: String, revision: Int64)
    /// A board's title or links changed, or it was deleted: reread what the store holds of it.
    case boardChanged(boardID: String)
    /// The feed (re)connected: appends made while it was away were not told, so a node must
    /// re-read every board it serves. Also the first event, once the feed is listening.
    case listening
    /// The feed lost its connection and is trying again.
    case lost
    /// A node told who is on a board there (never stored; the payload is the server's own).
    case presence(boardID: String, payload: String)
}

/// A store several nodes share tells them of each other's appends: the doorbell between nodes.
/// An embedded store (SQLite) has one node and no feed.
public protocol BoardChangeFeed: Sendable {
    /// Calls `handle` with every event, in order, until the calling task is cancelled.
    func followChanges(_ handle: @Sendable (BoardChangeEvent) async -> Void) async
    /// Tells every node (this one included) `payload` about the board's presence. Best effort:
    /// a node that is not listening at that moment never hears it.
    func publishPresence(boardID: String, payload: String) async throws
}
