/// The other nodes of a cluster as this node has heard them, and what each message changes:
/// deciding only (`ClusterMembership` sends, listens and logs).
///
/// Each node says `hello` with its version every announce interval and `bye` when it stops; a
/// node heard for the first time has joined, one that said `bye` or was not heard for the
/// silence limit (it died) has left.
struct NodeTable: Sendable {
    struct Node: Equatable, Sendable {
        var version: String
        /// When it was last heard, epoch milliseconds.
        var lastHeard: Int64
    }

    enum Change: Equatable, Sendable {
        case joined(node: String, version: String)
        case left(node: String, version: String, reason: LeaveReason)
    }

    enum LeaveReason: String, Equatable, Sendable {
        /// It said `bye`: stopped on purpose.
        case stopped
        /// Not heard for the silence limit: killed, or cut off.
        case silent
    }

    private(set) var nodes: [String: Node] = [:]

    /// A message of the membership channel from another node: `<node> hello <version>` or `<node> bye`.
    mutating func heard(_ payload: String, now: Int64) -> Change? {
        let parts = payload.split(separator: " ", maxSplits: 2).map(String.init)
        guard parts.count >= 2 else { return nil }
        let node = parts[0]
        switch parts[1] {
        case "hello" where parts.count == 3:
            let version = parts[2]
            // A node's id is new at every start, so a known one never changes its version.
            let known = nodes[node] != nil
            nodes[node] = Node(version: version, lastHeard: now)
            return known ? nil : .joined(node: node, version: version)
        case "bye":
            guard let known = nodes.removeValue(forKey: node) else { return nil }
            return .left(node: node, version: known.version, reason: .stopped)
        default:
            return nil
        }
    }

    /// The nodes not heard for `silenceLimit` milliseconds leave.
    mutating func forgetSilent(now: Int64, silenceLimit: Int64) -> [Change] {
        let silent = nodes.filter { now - $0.value.lastHeard > silenceLimit }.sorted { $0.key < $1.key }
        for (node, _) in silent { nodes[node] = nil }
        return silent.map { .left(node: $0.key, version: $0.value.version, reason: .silent) }
    }

    /// This node's own messages.
    static func hello(node: String, version: String) -> String { "\(node) hello \(version)" }
    static func bye(node: String) -> String { "\(node) bye" }
}
