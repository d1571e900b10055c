import BoardProtocol

/// Who is on a board, as a client learns it: the full list it gets on joining, then the
/// changes that follow.
public struct PresenceList: Sendable {
    /// Everyone the server lists, by user id.
    public private(set) var users: [String: ServerMessage.PresenceUser] = [:]
    /// How many more are on the board, unlisted.
    public private(set) var more = 0

    public init() {}

    /// Applies a presence message; returns false (and changes nothing) for any other message.
    public mutating func apply(_ message: ServerMessage) -> Bool {
        switch message {
        case .presence(let list, let more):
            users = Dictionary(list.map { ($0.userID, $0) }, uniquingKeysWith: { _, last in last })
            self.more = more
        case .presenceChanged(let changed, let left, let more):
            for userID in left { users[userID] = nil }
            for user in changed { users[user.userID] = user }
            if let more { self.more = more }
        default:
            return false
        }
        return true
    }
}
