import BoardProtocol

/// The outcome of an edit, remembered so that a resent edit (same client id and op id) is
/// answered with it instead of being applied twice.
enum EditOutcome: Sendable {
    case accepted(revision: Int64)
    /// The reject without its `current` entity (up to a title's worth of bytes): a resend is
    /// told the entity as it is then.
    case rejected(ServerMessage.Reject)
}

/// The last outcomes per client, bounded per client and in total for the board, oldest
/// forgotten first: no number of client ids can make a board's log grow without bound.
struct OutcomeLog {
    private let limitPerClient: Int
    private let limitInTotal: Int
    private var outcomes: [String: [String: (sequence: Int, outcome: EditOutcome)]] = [:]
    /// Op ids per client in the order they were recorded, to forget a client's oldest.
    private var order: [String: [String]] = [:]
    /// Every record in the order made, to forget the board's oldest; entries already forgotten
    /// per client are skipped when reached (their sequence no longer matches).
    private var all: [(clientID: String, opID: String, sequence: Int)] = []
    private var allStart = 0
    private var nextSequence = 0
    private(set) var count = 0

    init(limitPerClient: Int, limitInTotal: Int) {
        self.limitPerClient = max(1, limitPerClient)
        self.limitInTotal = max(1, limitInTotal)
    }

    func outcome(clientID: String, opID: String) -> EditOutcome? {
        outcomes[clientID]?[opID]?.outcome
    }

    mutating func record(_ outcome: EditOutcome, clientID: String, opID: String) {
        var stored = outcome
        if case .rejected(var reject) = outcome {
            reject.current = nil
            stored = .rejected(reject)
        }
        nextSequence += 1
        if outcomes[clientID, default: [:]].updateValue((nextSequence, stored), forKey: opID) == nil {
            order[clientID, default: []].append(opID)
            count += 1
        }
        all.append((clientID, opID, nextSequence))
        if let ids = order[clientID], ids.count > limitPerClient {
            let forgotten = ids.count - limitPerClient
            for id in ids.prefix(forgotten) { forget(clientID, id) }
            order[clientID] = Array(ids.dropFirst(forgotten))
        }
        while count > limitInTotal, allStart < all.count {
            let oldest = all[allStart]
            allStart += 1
            guard outcomes[oldest.clientID]?[oldest.opID]?.sequence == oldest.sequence else { continue }
            forget(oldest.clientID, oldest.opID)
            order[oldest.clientID]?.removeAll { $0 == oldest.opID }
            if order[oldest.clientID]?.isEmpty == true { order[oldest.clientID] = nil }
        }
        // Drop the skipped head in bulk, so appends stay amortised O(1).
        if allStart > 1_024, allStart * 2 > all.count {
            all.removeFirst(allStart)
            allStart = 0
        }
    }

    private mutating func forget(_ clientID: String, _ opID: String) {
        guard outcomes[clientID]?.removeValue(forKey: opID) != nil else { return }
        count -= 1
        if outcomes[clientID]?.isEmpty == true { outcomes[clientID] = nil }
    }
}
