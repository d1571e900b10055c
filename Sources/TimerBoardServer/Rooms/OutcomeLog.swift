import NIOCore
import TimerBoardTransport

/// The outcome of an edit, remembered so that a resent edit (same client id and op id) is
/// answered with it instead of being applied twice.
enum EditOutcome: Sendable {
    case accepted(revision: Int64)
    /// The encoded reject, sent again as it was.
    case rejected(OutboundFrame)
}

/// The last outcomes per client, bounded per client (oldest forgotten first).
struct OutcomeLog {
    private let limitPerClient: Int
    private var outcomes: [String: [String: EditOutcome]] = [:]
    /// Op ids per client in the order they were recorded, to forget the oldest.
    private var order: [String: [String]] = [:]

    init(limitPerClient: Int) {
        self.limitPerClient = limitPerClient
    }

    func outcome(clientID: String, opID: String) -> EditOutcome? {
        outcomes[clientID]?[opID]
    }

    mutating func record(_ outcome: EditOutcome, clientID: String, opID: String) {
        if outcomes[clientID, default: [:]].updateValue(outcome, forKey: opID) == nil {
            order[clientID, default: []].append(opID)
        }
        if let ids = order[clientID], ids.count > limitPerClient {
            let forgotten = ids.count - limitPerClient
            for id in ids.prefix(forgotten) { outcomes[clientID]?[id] = nil }
            order[clientID] = Array(ids.dropFirst(forgotten))
        }
    }
}
