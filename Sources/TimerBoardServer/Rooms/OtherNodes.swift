import BoardProtocol

/// The other nodes of a cluster, as a room needs them: who is on the board there, and when this
/// node should leave a timer's finish to another. Declared here and implemented by `Cluster/`, so
/// rooms know nothing of the store's feed; nil on a server of one node.
protocol OtherNodes: Sendable {
    /// This process's name among the nodes, new at every start.
    var nodeID: String { get }
    /// How often a room tells the others its whole list, so a node that starts later learns it.
    var announceInterval: Duration { get }
    /// A node not heard from this long (ms) has died: its users are forgotten.
    var silenceLimit: Int64 { get }
    /// How long (ms) a node that is not a board's timekeeper waits past a deadline for the
    /// timekeeper's finish before it writes the finish itself (`RoomState.finishDelay`).
    var timekeeperGrace: Int64 { get }
    /// Tells the other nodes who is on the board here; best effort (the next full announcement
    /// repairs a loss).
    func tell(_ news: PresenceNews, boardID: String) async
}

/// Who is on a board on one node: its whole list (`full`, which replaces what that node said
/// before) or what changed since its last message (`delta`). A node names only its first users
/// (as a presence list orders them, at most its list's limit) and counts the others in `more`
/// (nil in a delta: unchanged): the board's first users are among the nodes' first, and a crowd
/// of 10,000 on one node is a few messages, not 400 of 25 names.
struct PresenceNews: Sendable, Equatable {
    enum Scope: String, Sendable {
        case full
        case delta
    }

    let scope: Scope
    let users: [ServerMessage.PresenceUser]
    let left: [String]
    var more: Int? = nil

    /// The most users one message names; a longer list goes on in the messages after it, so
    /// that each stays under PostgreSQL's payload limit (`ClusterPresence`).
    static let usersPerPart = 25

    /// A full list of `usersPerPart` users may go on in the messages after it; a shorter one is whole.
    var mayContinue: Bool { scope == .full && users.count >= Self.usersPerPart }
}
