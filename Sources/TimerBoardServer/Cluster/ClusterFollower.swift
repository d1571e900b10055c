import BoardStore
import Logging
import ServiceLifecycle

/// One node's ear on the shared store: hands every other node's append to the room of that
/// board here, if this node serves it, which reads the new changesets from the log and sends
/// them to its own clients. After the feed (re)connects, every room re-reads its board:
/// appends rung while the feed was away were not heard.
struct ClusterFollower: Service {
    let feed: any BoardChangeFeed
    let presence: ClusterPresence
    let membership: ClusterMembership
    let registry: BoardRegistry
    let logger: Logger

    func run() async throws {
        await cancelWhenGracefulShutdown {
            await feed.followChanges { event in
                switch event {
                case .appended(let boardID, let revision):
                    await registry.room(ifLoaded: boardID)?.otherNodeAppended(upTo: revision)
                case .listening:
                    for room in await registry.loadedRooms { await room.otherNodeAppended(upTo: nil) }
                case .boardChanged(let boardID):
                    await registry.room(ifLoaded: boardID)?.otherNodeChangedBoard()
                case .presence(ClusterMembership.channelKey, let payload):
                    await membership.heard(payload)
                case .presence(let boardID, let payload):
                    guard let (node, news) = presence.news(from: payload) else { return }
                    await registry.room(ifLoaded: boardID)?.otherNodePresence(news, from: node)
                case .lost:
                    break
                }
            }
        }
    }
}
