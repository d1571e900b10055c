import BoardCore
import BoardProtocol
import TimerBoardTransport

/// Presence: who is on the board and what they edit, here and on other nodes. Never stored;
/// sent through the outbox like everything else, so it follows a joiner's snapshot.
extension RoomState {
    /// Records what the member's user edits (and its clock's error bound, when given) and tells
    /// everyone. Returns false, changing nothing, when its link may not say that (a view link
    /// naming something it edits).
    mutating func setPresence(editing: EntityID?, clockError: Int64?, of memberID: Int) -> (allowed: Bool, actions: [Action]) {
        switch presence.setPresence(editing: editing, clockError: clockError, on: memberID) {
        case .notOnBoard, .unchanged: (true, [])
        case .forbidden: (false, [])
        case .changed(let effect): (true, presenceActions(effect))
        }
    }

    /// Tells everyone the presence of each user touched since the last flush (and the other
    /// nodes this node's own changes).
    mutating func flushPresence() -> [Action] {
        guard !isClosed else { return [] }
        var actions: [Action] = []
        if let flush = presence.flush() {
            enqueue(.broadcast(Self.encode(.presenceChanged(users: flush.users, left: flush.left, more: flush.more))))
            actions += deliverDurable()
        }
        // After `flush()`: both may hold a count back and keep a flush scheduled.
        if let local = presence.flushLocal() {
            actions.append(.tellOtherNodes(PresenceNews(scope: .delta, users: local.users, left: local.left, more: local.more)))
        }
        return actions + (presence.isFlushScheduled ? [.flushPresenceLater] : [])  // a count held back
    }

    /// Another node told, at `now`, who is on the board there.
    mutating func otherNodePresence(_ news: PresenceNews, from node: String, now: Int64) -> [Action] {
        guard !isClosed else { return [] }
        return presenceActions(presence.applyRemote(node: node, users: news.users, left: news.left, more: news.more, replacing: news.scope == .full, mayContinue: news.mayContinue, now: now))
    }

    /// This node's list for the other nodes (its first users and a count of the rest), and the
    /// users of nodes silent for `silenceLimit` ms forgotten (a node that died says nothing).
    mutating func announcePresence(now: Int64, silenceLimit: Int64) -> [Action] {
        guard !isClosed else { return [] }
        let (users, more) = presence.announcement()
        let news = PresenceNews(scope: .full, users: users, left: [], more: more)
        return [.tellOtherNodes(news)] + presenceActions(presence.forgetSilentNodes(heardBefore: now - silenceLimit))
    }

    /// How long past a deadline this node waits before it writes the finish, ms.
    ///
    /// When several nodes serve the board, each would write the same finish at the same
    /// instant, race for the revision, and the losers would close their rooms. So finishes are
    /// the timekeeper's to write: of the nodes with users on the board, the one with the
    /// smallest id. The others wait `grace` for its changeset, which their catch-up applies; if
    /// it never comes (the timekeeper died, or has not heard of this node's users yet), they
    /// write the finish themselves, at the deadline's instants as always, only later.
    func finishDelay(localNode: String, grace: Int64) -> Int64 {
        guard let timekeeper = presence.nodesWithUsers(localNode: localNode).min(), timekeeper != localNode else { return 0 }
        return grace
    }

    func presenceActions(_ effect: PresenceTracker<OutboundFrame>.Effect) -> [Action] {
        effect == .scheduleFlush ? [.flushPresenceLater] : []
    }
}
