import BoardProtocol

/// Who is on a board, as a client learns it: the full list it gets on joining, then the
/// changes that follow.
public struct PresenceList: Sendable {
    /// Everyone on the board, by user id.
    public private(set) var users: [String: ServerMessage.PresenceUser] = [:]

    public init() {}

    /// Applies a presence message; returns false (and changes nothing) for any other message.
    public mutating func apply(_ message: ServerMessage) -> Bool {
        switch message {
        case .presence(let list):
            users = Dictionary(list.map { ($0.userID, $0) }, uniquingKeysWith: { _, last in last })
        case .presenceChanged(let changed, let left):
            for userID in left { users[userID] = nil }
            for user in changed { users[user.userID] = user }
        default:
            return false
        }
        return true
    }
}
