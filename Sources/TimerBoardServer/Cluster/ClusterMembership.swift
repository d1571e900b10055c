import BoardStore
import Logging
import ServiceLifecycle

/// Which nodes make up the cluster, told over the store's presence channel (never stored)
/// under a key no board id can take: every node says `hello` with its version every announce
/// interval and when it hears a node for the first time (so a new node learns the others at
/// once), and `bye` when it stops. Joins and leaves are logged (`node.joined`, `node.left`);
/// `timerboard_cluster_nodes` counts what this node hears.
actor ClusterMembership: Service {
    /// The presence channel's board key for membership messages: `~` is in no board id.
    static let channelKey = "~nodes"

    let nodeID: String
    private let feed: any BoardChangeFeed
    private let announceInterval: Duration
    private let silenceLimit: Int64
    private let clock: any ServerClock
    private let logger: Logger
    private var table = NodeTable()
    private let startedAt: Int64

    init(nodeID: String, feed: any BoardChangeFeed, announceInterval: Duration, silenceLimit: Int64, clock: any ServerClock, logger: Logger) {
        self.nodeID = nodeID
        self.feed = feed
        self.announceInterval = announceInterval
        self.silenceLimit = silenceLimit
        self.clock = clock
        self.logger = logger
        startedAt = clock.now()
    }

    /// The nodes this node hears, itself included.
    var nodeCount: Int { table.nodes.count + 1 }

    func run() async throws {
        await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                await self.announce()
                try? await Task.sleep(for: self.announceInterval)
            }
        }
        // Stopping on purpose: the others need not wait the silence limit.
        try? await feed.publishPresence(boardID: Self.channelKey, payload: NodeTable.bye(node: nodeID))
    }

    /// A membership message from the channel (this node's own are ignored).
    func heard(_ payload: String) async {
        guard !payload.hasPrefix(nodeID + " "), let change = table.heard(payload, now: clock.now()) else { return }
        log(change)
        // A node new to this one may be new to the cluster: it hears this one now, not in 10 s.
        if case .joined = change { await say(NodeTable.hello(node: nodeID, version: TimerBoardVersion.number)) }
    }

    private func announce() async {
        await say(NodeTable.hello(node: nodeID, version: TimerBoardVersion.number))
        for change in table.forgetSilent(now: clock.now(), silenceLimit: silenceLimit) { log(change) }
    }

    private func say(_ payload: String) async {
        do {
            try await feed.publishPresence(boardID: Self.channelKey, payload: payload)
        } catch {
            // The store is away: its own event says so; the next announcement tries again.
            logger.debug("could not tell the other nodes this node is here", metadata: ["tb.error": "\(error)"])
        }
    }

    private func log(_ change: NodeTable.Change) {
        switch change {
        case .joined(let node, let version):
            // Heard within the first interval after this node's start: it was there before.
            let already = clock.now() - startedAt < Int64(announceInterval.components.seconds * 1_000) * 2
            logger.notice(
                already ? "found a node of the cluster" : "a node joined the cluster",
                metadata: ["tb.event": "node.joined", "tb.node": "\(node)", "tb.node.version": "\(version)", "tb.nodes": "\(nodeCount)"]
            )
        case .left(let node, let version, let reason):
            logger.log(
                level: reason == .silent ? .warning : .notice,
                reason == .silent ? "a node of the cluster went silent; counting it gone" : "a node left the cluster",
                metadata: [
                    "tb.event": "node.left", "tb.node": "\(node)", "tb.node.version": "\(version)", "tb.reason": "\(reason.rawValue)",
                    "tb.nodes": "\(nodeCount)",
                ]
            )
        }
    }
}
