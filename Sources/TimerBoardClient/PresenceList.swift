import BoardProtocol

/// Who is on a board, as a client learns it: the full list it gets on joining, then the
/// changes that follow.
public struct PresenceList: Sendable {
    /// Everyone on the board, by client id.
    public private(set) var users: [String: ServerMessage.PresenceUser] = [:]

    public init() {}

    /// Applies a presence message; returns false (and changes nothing) for any other message.
    public mutating func apply(_ message: ServerMessage) -> Bool {
        switch message {
        case .presence(let list):
            users = Dictionary(list.map { ($0.clientID, $0) }, uniquingKeysWith: { _, last in last })
        case .presenceChanged(let changed, let left):
            for clientID in left { users[clientID] = nil }
            for user in changed { users[user.clientID] = user }
        default:
            return false
        }
        return true
    }
}
