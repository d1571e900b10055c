import BoardStore
import Logging
import TimerBoardConcurrency

/// Between the rooms and the webhook dispatcher: a room hands here the deliveries that no
/// changeset carries (a timer's warning), which are written to the store in order, and rings
/// when it stored some with a changeset; the dispatcher waits here for either.
final class WebhookOutbox: Sendable {
    private let doorbell = Doorbell()
    private let writer: QueueWorker<WebhookDelivery>

    init(store: any BoardStore, logger: Logger) {
        writer = QueueWorker { [doorbell] batch in
            do {
                try await store.enqueue(batch)
                doorbell.ring()
            } catch {
                // The store is away: the warnings are lost, and said so (the board's changesets,
                // and their events, fail their own appends and are not lost silently either).
                logger.error("storing webhook warnings failed", metadata: ["tb.deliveries": "\(batch.count)", "tb.error": "\(error)"])
            }
        }
    }

    /// Writes deliveries to the store's outbox, after those handed here before, then rings.
    func enqueue(_ deliveries: [WebhookDelivery]) {
        for delivery in deliveries { writer.enqueue(delivery) }
    }

    /// Deliveries were stored (with a changeset): whatever is due can go.
    func ring() {
        doorbell.ring()
    }

    /// For the dispatcher: returns when something was stored, or after `timeout`.
    func waitForDeliveries(atMost timeout: Duration) async {
        await doorbell.wait(atMost: timeout)
    }
}
