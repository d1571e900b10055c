import BoardProtocol
import BoardStore
import Foundation
import Logging

/// The other nodes of a cluster, through the shared store's feed (PostgreSQL NOTIFY, never
/// stored): how a room tells them who is on its board on this node, and how the follower reads
/// what they tell.
///
/// A message is `<node> <full|delta> <presenceChanged JSON>`: a delta is what changed since the
/// node's last message; a full list replaces what that node said before. Each room sends its
/// full list every `announceInterval`, so a node that starts later learns it, and forgets the
/// users of a node it has not heard for `silenceLimit` (a node that died says nothing).
struct ClusterPresence: OtherNodes {
    let nodeID: String
    let feed: any BoardChangeFeed
    let announceInterval: Duration
    let silenceLimit: Int64
    let timekeeperGrace: Int64
    let logger: Logger

    func tell(_ news: PresenceNews, boardID: String) async {
        for payload in payloads(news) {
            do {
                try await feed.publishPresence(boardID: boardID, payload: payload)
            } catch {
                // Best effort: the next full announcement repairs what this one missed.
                logger.debug("could not tell other nodes of presence", metadata: ["tb.board.id": "\(boardID)", "tb.error": "\(error)"])
            }
        }
    }

    /// The messages that tell `news`; when it takes several, only the first of a full list
    /// replaces, and only the first carries the count.
    func payloads(_ news: PresenceNews) -> [String] {
        var payloads: [String] = []
        var remainingUsers = news.users[...]
        var remainingLeft = news.left[...]
        repeat {
            let someUsers = Array(remainingUsers.prefix(PresenceNews.usersPerPart))
            remainingUsers = remainingUsers.dropFirst(someUsers.count)
            let someLeft = Array(remainingLeft.prefix(PresenceNews.usersPerPart * 4))
            remainingLeft = remainingLeft.dropFirst(someLeft.count)
            let scope: PresenceNews.Scope = payloads.isEmpty ? news.scope : .delta
            let more = payloads.isEmpty ? news.more : nil
            let json = String(decoding: ServerMessage.presenceChanged(users: someUsers, left: someLeft, more: more).encoded(), as: UTF8.self)
            payloads.append("\(nodeID) \(scope.rawValue) \(json)")
        } while !remainingUsers.isEmpty || !remainingLeft.isEmpty
        return payloads
    }

    /// Another node's message and who sent it, or nil for this node's own and for what does not parse.
    func news(from payload: String) -> (node: String, news: PresenceNews)? {
        let parts = payload.split(separator: " ", maxSplits: 2)
        guard parts.count == 3, parts[0] != nodeID, let scope = PresenceNews.Scope(rawValue: String(parts[1])),
            case .presenceChanged(let users, let left, let more)? = try? ServerMessage.decode(Data(parts[2].utf8))
        else { return nil }
        return (String(parts[0]), PresenceNews(scope: scope, users: users, left: left, more: more))
    }
}
