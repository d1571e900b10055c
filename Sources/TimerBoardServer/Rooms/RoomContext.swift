import BoardProtocol
import BoardStore
import Logging

/// What a room needs from outside, built once by the composition root (`App/`) and shared by
/// every room: collaborators here, values in the configuration.
struct RoomContext: Sendable {
    let store: any BoardStore
    let configuration: ServerConfiguration
    let clock: any ServerClock
    let metrics: ServerMetrics
    /// Nil on a server of one node.
    let otherNodes: (any OtherNodes)?
    /// Where rooms hand webhook deliveries that no changeset carries, and whom they wake when
    /// they stored some.
    let webhooks: WebhookOutbox
    /// Where a room that became idle by itself asks to be dropped (the registry answers).
    let idleRooms = IdleRooms()
    let logger: Logger

    /// The values a room's state decides with.
    var settings: RoomSettings {
        RoomSettings(
            limits: configuration.limits.board,
            retainedChangesets: configuration.retainedChangesets,
            retainedChangesetBytes: configuration.retainedChangesetBytes,
            outcomesPerClient: configuration.outcomesPerClient,
            outcomesPerBoard: configuration.outcomesPerBoard,
            snapshotInterval: configuration.snapshotInterval,
            undoPerClient: configuration.undoPerClient,
            undoPerBoard: configuration.undoPerBoard,
            sharedWithOtherNodes: otherNodes != nil,
            webhookChangeDelay: configuration.webhookChangeDelay.milliseconds
        )
    }
}
