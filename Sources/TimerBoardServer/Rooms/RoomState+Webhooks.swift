import BoardCore
import BoardStore

/// The board's webhooks: events derived from what the room commits, deliveries that go to the
/// store with the changeset that caused them, and the warnings that time brings.
extension RoomState {
    /// The deliveries a committed changeset causes; nothing is derived while no endpoint wants
    /// anything. `serverMade`: the server's own changeset (a finish, a hand-over, a catch-up),
    /// with the last hand-over of each sequence it made.
    func webhookDeliveries(for changes: [Change], serverMade: Bool, handOvers: [SequenceHandOver], now: Int64) -> [WebhookDelivery] {
        guard webhooks.wantsAnything else { return [] }
        let events = WebhookEvent.derive(
            from: changes, board: board, boardID: boardID, revision: revision, serverMade: serverMade, handOvers: handOvers, now: now
        )
        return webhooks.deliveries(for: events, boardID: boardID, now: now, changeDelay: settings.webhookChangeDelay)
    }

    /// While a timer runs on a board whose webhooks want anything, the room stays in memory, so
    /// its finish (and warning, and hand-over) is sent when it happens, not when someone next
    /// loads the board.
    var isKeptForWebhooks: Bool {
        webhooks.wantsAnything && board.nextDeadline != nil
    }

    /// A room kept for its webhooks that is idle now (its last timer ended, durably) asks to go.
    func releaseAfterWebhooks() -> [Action] {
        webhooks.wantsAnything && isIdle ? [.releaseIfIdle] : []
    }

    /// `board.deleted`, for the store to add as it deletes the board.
    func deletionDeliveries(now: Int64) -> [WebhookDelivery] {
        webhooks.deliveries(for: [.deleted(boardID: boardID, title: title)], boardID: boardID, now: now, changeDelay: 0)
    }

    /// The endpoints changed (here, on another node, or the dispatcher disabled one).
    mutating func webhooksChanged(_ change: WebhookChange) -> [Action] {
        guard !isClosed else { return [] }
        webhooks.apply(change)
        return aimWarnings()
    }

    /// Keeps the warning wake-up aimed at the earliest warning not handed to the store yet. A
    /// board loaded after its timers' warnings passed is woken at once, and hands them over.
    mutating func aimWarnings() -> [Action] {
        let next = isClosed ? nil : webhooks.nextWarning(on: board)
        guard next != webhooks.aimedAt else { return [] }
        webhooks.aimedAt = next
        return [.wakeForWarnings(at: next)]
    }

    /// The warning wake-up: the warnings due at `now` go to the store (each once per endpoint
    /// and run, whichever node or load sends it first), then the wake-up is aimed at the next.
    mutating func warningsDue(now: Int64) -> [Action] {
        webhooks.aimedAt = nil
        guard !isClosed else { return [] }
        let events = webhooks.dueWarnings(on: board, now: now).map { WebhookEvent.warning($0, boardID: boardID, revision: revision) }
        let deliveries = webhooks.deliveries(for: events, boardID: boardID, now: now, changeDelay: settings.webhookChangeDelay)
        return (deliveries.isEmpty ? [] : [.enqueueDeliveries(deliveries)]) + aimWarnings()
    }
}
