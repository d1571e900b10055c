import BoardCore
import BoardProtocol
import BoardStore
import NIOWebSocket
import TimerBoardTransport

/// What a room's state asks of the world: the only way one of its decisions leaves it.
/// `BoardRoom` performs them in the order given.
enum RoomAction<Member: RoomMember> {
    /// Queue each frame on its connection, a broadcast on every subscriber of that point, in
    /// this order (the outbox has already held each one back until what it shows is durable).
    case send([RoomOutbox<Member, OutboundFrame>.Send])
    /// Close the connection with this code and reason; it is off the board already.
    case disconnect(Member, WebSocketErrorCode, String)
    /// Store this changeset, with the board's snapshot at its revision when one is due and the
    /// webhook deliveries it causes (in the same transaction); `RoomState.stored(upTo:)`
    /// follows once it is durable.
    case save(StoredChangeset, snapshot: Board?, deliveries: [WebhookDelivery])
    /// Add these webhook deliveries (warnings, which no changeset causes) to the store's outbox.
    case enqueueDeliveries([WebhookDelivery])
    /// Aim the room's warning wake-up at this instant (server ms), or at none;
    /// `RoomState.warningsDue` follows.
    case wakeForWarnings(at: Int64?)
    /// Read what other nodes appended after this revision; `RoomState.caughtUp` follows.
    case catchUp(after: Int64)
    /// Aim the room's one timer wake-up at this deadline (server ms), or at none.
    case wakeAt(Int64?)
    /// Call `RoomState.flushPresence` after the presence interval.
    case flushPresenceLater
    /// Call `RoomState.announcePresence` every announce interval while the room is open.
    case announcePresenceRegularly
    /// Tell the other nodes who is on the board here.
    case tellOtherNodes(PresenceNews)
    /// Durability changed, or the room closed: answer those waiting for a revision.
    case releaseWaiters
    /// The room became idle by itself (its webhooks' last timer ended): let the registry drop it.
    case releaseIfIdle
    /// Count it in `/metrics`.
    case count(RoomCount)
    /// The room closed: stop everything it started, as `RoomClosing.table` says for the reason.
    case closed(RoomCloseReason)
}

/// What a room counts in `/metrics` (`RoomCount+Metrics.swift` names the series).
enum RoomCount: Equatable {
    case joined(resumed: Bool)
    case editAccepted
    case editRejected(ErrorCode)
    case changesetCommitted(subscribers: Int)
    case timersFinished(Int)
    case revisionClaimLost
}
