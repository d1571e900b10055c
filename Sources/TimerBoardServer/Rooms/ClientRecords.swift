/// The last records per client (an edit's outcome, what it takes to undo it), keyed by op id,
/// bounded per client and in total for the board (in number, and in `weight` when given),
/// oldest forgotten first: no number of client ids can make a board's records grow without
/// bound. The newest record is always kept, whatever it weighs.
struct ClientRecords<Value> {
    private let limitPerClient: Int
    private let limitInTotal: Int
    private let weightLimit: Int
    private let weight: (Value) -> Int
    private var values: [String: [String: (sequence: Int, value: Value)]] = [:]
    /// Op ids per client in the order they were recorded, to forget a client's oldest.
    private var order: [String: RecordOrder] = [:]
    /// Every record in the order made, to forget the board's oldest; entries already forgotten
    /// per client are skipped when reached (their sequence no longer matches).
    private var all: [(clientID: String, opID: String, sequence: Int)] = []
    private var allStart = 0
    private var nextSequence = 0
    private(set) var count = 0
    /// The kept records' weight together.
    private(set) var totalWeight = 0

    init(limitPerClient: Int, limitInTotal: Int, weightLimit: Int = .max, weight: @escaping (Value) -> Int = { _ in 0 }) {
        self.limitPerClient = max(1, limitPerClient)
        self.limitInTotal = max(1, limitInTotal)
        self.weightLimit = weightLimit
        self.weight = weight
    }

    func value(clientID: String, opID: String) -> Value? {
        values[clientID]?[opID]?.value
    }

    mutating func record(_ value: Value, clientID: String, opID: String) {
        nextSequence += 1
        totalWeight += weight(value)
        if let replaced = values[clientID, default: [:]].updateValue((nextSequence, value), forKey: opID) {
            totalWeight -= weight(replaced.value)
        } else {
            order[clientID, default: RecordOrder()].append(opID)
            count += 1
        }
        all.append((clientID, opID, nextSequence))
        while let recorded = order[clientID]?.count, recorded > limitPerClient, let oldest = order[clientID]?.removeFirst() {
            forget(clientID, oldest)
        }
        while count > limitInTotal || (totalWeight > weightLimit && count > 1), allStart < all.count {
            let oldest = all[allStart]
            allStart += 1
            guard values[oldest.clientID]?[oldest.opID]?.sequence == oldest.sequence else { continue }
            forget(oldest.clientID, oldest.opID)
            order[oldest.clientID]?.remove(oldest.opID)
            if order[oldest.clientID]?.isEmpty == true { order[oldest.clientID] = nil }
        }
        // Drop the skipped head in bulk, so appends stay amortised O(1).
        if allStart > 1_024, allStart * 2 > all.count {
            all.removeFirst(allStart)
            allStart = 0
        }
        // Records a client forgot under its own limit stay here until the total limit reaches
        // them, which it never does while every client stays under its own: drop them in bulk
        // once they are most of the list, or a busy board's list grows by one entry per edit.
        if trackedRecords > 2 * count + 1_024 {
            all = all[allStart...].filter { values[$0.clientID]?[$0.opID]?.sequence == $0.sequence }
            allStart = 0
        }
    }

    /// Records kept for the board's total limit, live or already forgotten per client.
    var trackedRecords: Int { all.count - allStart }

    private mutating func forget(_ clientID: String, _ opID: String) {
        guard let forgotten = values[clientID]?.removeValue(forKey: opID) else { return }
        totalWeight -= weight(forgotten.value)
        count -= 1
        if values[clientID]?.isEmpty == true { values[clientID] = nil }
    }
}

/// One client's op ids, oldest first. A client past its limit forgets its oldest on every edit:
/// moving a head index keeps that O(1), where dropping the first of an array copied the other
/// 999 ids each time (7% of the server's CPU with 10 clients pipelining edits).
private struct RecordOrder {
    private var ids: [String] = []
    private var head = 0

    var count: Int { ids.count - head }
    var isEmpty: Bool { count == 0 }

    mutating func append(_ id: String) {
        ids.append(id)
    }

    mutating func removeFirst() -> String? {
        guard head < ids.count else { return nil }
        let first = ids[head]
        head += 1
        // Drop the skipped head in bulk, so removals stay amortised O(1).
        if head > 64, head * 2 > ids.count {
            ids.removeFirst(head)
            head = 0
        }
        return first
    }

    /// Removes one id wherever it is (the board's total limit forgets across clients).
    mutating func remove(_ id: String) {
        guard let index = ids[head...].firstIndex(of: id) else { return }
        ids.remove(at: index)
    }
}
