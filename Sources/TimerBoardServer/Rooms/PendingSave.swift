import BoardCore
import BoardStore

/// A changeset on its way to the store, with the board's snapshot at its revision when one is
/// due, and when the room applied it (for the edit-to-durable latency in `/metrics`).
struct PendingSave: Sendable {
    let changeset: StoredChangeset
    let snapshot: Board?
    let deliveries: [WebhookDelivery]
    let appliedAt: ContinuousClock.Instant

    /// One store append: changesets in order, and the snapshot at the last of them, if any.
    struct Append {
        var changesets: [StoredChangeset] = []
        var applied: [ContinuousClock.Instant] = []
        var snapshot: Board?
        var deliveries: [WebhookDelivery] = []
    }

    /// The appends a batch makes: all of it in one, unless a snapshot falls inside it; then one
    /// append ends at each snapshot, since a store takes a snapshot of an append's last revision.
    static func appends(_ batch: [PendingSave]) -> [Append] {
        var appends: [Append] = []
        var current = Append()
        for save in batch {
            current.changesets.append(save.changeset)
            current.applied.append(save.appliedAt)
            current.deliveries += save.deliveries
            if let snapshot = save.snapshot {
                current.snapshot = snapshot
                appends.append(current)
                current = Append()
            }
        }
        if !current.changesets.isEmpty { appends.append(current) }
        return appends
    }
}
