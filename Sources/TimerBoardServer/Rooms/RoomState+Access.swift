import BoardProtocol
import BoardStore

/// The owner's changes to the board itself (its title and links), here or on another node.
extension RoomState {
    /// The board was renamed in the store: everyone is told.
    mutating func renamed(to newTitle: String) -> [Action] {
        title = newTitle
        snapshots.invalidate()
        enqueue(.broadcast(Self.encode(.renamed(title: newTitle))))
        return deliverDurable()
    }

    /// A link was replaced: every connection that joined with one of `roles` is closed (4403),
    /// so a leaked link stops at once.
    mutating func endRoles(_ roles: Set<BoardRole>) -> [Action] {
        guard !roles.isEmpty else { return [] }
        let (removed, effect) = presence.remove(where: { roles.contains($0.role) })
        var actions = presenceActions(effect)
        let reason = roles.count == 1 ? "the \(roles.first!.rawValue) link was replaced" : "the link was replaced"
        for id in removed.keys.sorted() {
            guard let (member, wasSubscribed) = outbox.remove(id) else { continue }
            if wasSubscribed { actions.append(.send([.unsubscribe(member)])) }
            actions.append(.disconnect(member, RoomClosing.linkReplacedCode, reason))
        }
        return actions
    }

    /// The store's title, links and webhook endpoints for the board, as another node (or this
    /// one) left them.
    mutating func storedBoardChanged(title newTitle: String, access newAccess: BoardAccess?, webhooks stored: [WebhookEndpoint]) -> [Action] {
        guard !isClosed else { return [] }
        var actions = newTitle == title ? [] : renamed(to: newTitle)
        let ended = Self.rolesEnded(from: access, to: newAccess)
        access = newAccess
        actions += endRoles(ended)
        return actions + webhooksChanged(.replaced(stored))
    }

    /// The roles whose connections a change of links ends: a new owner secret derives new edit
    /// and view secrets too, so it ends every role; otherwise each replaced link ends its own.
    static func rolesEnded(from old: BoardAccess?, to new: BoardAccess?) -> Set<BoardRole> {
        guard let old, let new, old != new else { return [] }
        guard old.ownerHash == new.ownerHash else { return [.owner, .edit, .view] }
        var ended: Set<BoardRole> = []
        if old.editHash != new.editHash { ended.insert(.edit) }
        if old.viewHash != new.viewHash { ended.insert(.view) }
        return ended
    }
}
