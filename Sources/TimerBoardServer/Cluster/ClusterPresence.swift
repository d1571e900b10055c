import BoardProtocol
import BoardStore
import Foundation

/// Presence across the nodes of a cluster: each room tells the others, through the shared
/// store's feed (PostgreSQL NOTIFY, never stored), who is on its board on this node, and shows
/// its own clients the users the other nodes told of.
///
/// A message is `<node> <full|delta> <presenceChanged JSON>`: a delta is what changed since
/// the node's last message; a full list replaces what that node said before. Each room sends
/// its full list every `announceInterval`, so a node that starts later learns it, and forgets
/// the users of a node it has not heard for `silenceLimit` (a node that died says nothing).
struct ClusterPresence: Sendable {
    let nodeID: String
    let feed: any BoardChangeFeed
    var announceInterval: Duration = .seconds(10)
    var silenceLimit: Int64 = 30_000
    /// How long a node that is not the board's timekeeper waits past a deadline for the
    /// timekeeper's changeset before it writes the finish itself, ms (`BoardRoom.finishDelay`).
    var timekeeperGrace: Int64 = 1_000

    /// The users of one message, or of several when one would pass PostgreSQL's payload limit.
    static let usersPerMessage = 25

    enum Kind: String {
        case full
        case delta
    }

    struct Message {
        let node: String
        let kind: Kind
        let users: [ServerMessage.PresenceUser]
        let left: [String]
    }

    /// The messages that tell `users` and `left`; with `.full`, only the first one replaces.
    func payloads(_ kind: Kind, users: [ServerMessage.PresenceUser], left: [String]) -> [String] {
        var payloads: [String] = []
        var remainingUsers = users[...]
        var remainingLeft = left[...]
        repeat {
            let someUsers = Array(remainingUsers.prefix(Self.usersPerMessage))
            remainingUsers = remainingUsers.dropFirst(someUsers.count)
            let someLeft = Array(remainingLeft.prefix(Self.usersPerMessage * 4))
            remainingLeft = remainingLeft.dropFirst(someLeft.count)
            let part: Kind = payloads.isEmpty ? kind : .delta
            let json = String(decoding: ServerMessage.presenceChanged(users: someUsers, left: someLeft).encoded(), as: UTF8.self)
            payloads.append("\(nodeID) \(part.rawValue) \(json)")
        } while !remainingUsers.isEmpty || !remainingLeft.isEmpty
        return payloads
    }

    /// Another node's message, or nil for this node's own and for what does not parse.
    func message(from payload: String) -> Message? {
        let parts = payload.split(separator: " ", maxSplits: 2)
        guard parts.count == 3, parts[0] != nodeID, let kind = Kind(rawValue: String(parts[1])),
            case .presenceChanged(let users, let left)? = try? ServerMessage.decode(Data(parts[2].utf8))
        else { return nil }
        return Message(node: String(parts[0]), kind: kind, users: users, left: left)
    }
}
