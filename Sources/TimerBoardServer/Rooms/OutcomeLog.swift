import BoardProtocol

/// The outcome of an edit, remembered so that a resent edit (same client id and op id) is
/// answered with it instead of being applied twice.
enum EditOutcome: Sendable {
    case accepted(revision: Int64)
    /// Acked at `revision` having changed nothing: there is nothing to undo.
    case unchanged(revision: Int64)
    /// The reject without its `current` entity (up to a title's worth of bytes): a resend is
    /// told the entity as it is then.
    case rejected(ServerMessage.Reject)
}

/// The last outcomes per client, for idempotent resends (`ClientRecords` bounds them).
struct OutcomeLog {
    private var records: ClientRecords<EditOutcome>

    init(limitPerClient: Int, limitInTotal: Int) {
        records = ClientRecords(limitPerClient: limitPerClient, limitInTotal: limitInTotal)
    }

    var count: Int { records.count }
    var trackedRecords: Int { records.trackedRecords }

    func outcome(clientID: String, opID: String) -> EditOutcome? {
        records.value(clientID: clientID, opID: opID)
    }

    mutating func record(_ outcome: EditOutcome, clientID: String, opID: String) {
        var stored = outcome
        if case .rejected(var reject) = outcome {
            reject.current = nil
            stored = .rejected(reject)
        }
        records.record(stored, clientID: clientID, opID: opID)
    }
}
