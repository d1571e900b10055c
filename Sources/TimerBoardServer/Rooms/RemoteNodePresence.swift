import BoardProtocol

/// What another node of a cluster last told of its users on one board (`PresenceTracker`).
///
/// A node's full list comes in messages of 25 users (`ClusterPresence`), the first replacing
/// what the node said before; a first message of 25 may go on in the next ones. A user of the earlier list whom the new list
/// has not named yet is kept (`carried`) rather than dropped: a flush between the parts told
/// every viewer that 75 users left, and the next flush that they were back. A carried user is
/// dropped when a delta says they left, or at the node's next full list if no part of this one
/// named them: a user whose `left` was lost stays shown one announcement longer than before.
/// A shorter full list (an empty one from a room that closed) is whole and carries no one.
struct RemoteNodePresence {
    /// The users it names, as it told them since its last full list began.
    private(set) var named: [String: ServerMessage.PresenceUser] = [:]
    /// Users its previous full list named that no part of the current one has named yet.
    private(set) var carried: [String: ServerMessage.PresenceUser] = [:]
    /// How many users it has beyond those it names.
    private(set) var more = 0
    /// When it last told anything (ms, the server clock).
    private(set) var heardAt: Int64

    init(heardAt: Int64) {
        self.heardAt = heardAt
    }

    /// Everyone the node is taken to have on the board: named, or carried from its last list.
    var users: [String: ServerMessage.PresenceUser] {
        named.merging(carried) { named, _ in named }
    }

    /// Applies a message: `users` are on the board there, `left` are not; with `replacing`, it
    /// is the node's full list, or its first part when it `mayContinue`. `more` is its count of
    /// the others (nil: unchanged, or none when replacing).
    mutating func apply(users: [ServerMessage.PresenceUser], left: [String], more: Int?, replacing: Bool, mayContinue: Bool, now: Int64) {
        if replacing {
            // Whoever is still carried was named by no part of the list before.
            carried = mayContinue ? named : [:]
            named = [:]
        }
        for userID in left {
            named[userID] = nil
            carried[userID] = nil
        }
        for user in users {
            named[user.userID] = user
            carried[user.userID] = nil
        }
        self.more = max(0, more ?? (replacing ? 0 : self.more))
        heardAt = now
    }
}
