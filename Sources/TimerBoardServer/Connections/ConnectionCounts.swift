/// How many WebSocket connections are open, in all and per client address, and whether one
/// more may open. Deciding only: `ConnectionLimiter` holds it under a lock for the event loops.
struct ConnectionCounts: Sendable {
    /// Most connections open at once.
    let maxTotal: Int
    /// Most connections open at once from one address.
    let maxPerAddress: Int
    private(set) var total = 0
    /// Only addresses with a connection open, so the table never outgrows the connections.
    private(set) var perAddress: [String: Int] = [:]

    init(maxTotal: Int, maxPerAddress: Int) {
        self.maxTotal = maxTotal
        self.maxPerAddress = maxPerAddress
    }

    /// What `open` decided.
    enum Admission: Equatable, Sendable {
        case admitted
        /// The server has `maxTotal` open.
        case serverFull
        /// This address has `maxPerAddress` open.
        case addressFull
    }

    /// Counts a connection from `address` when both caps allow it.
    mutating func open(from address: String) -> Admission {
        guard total < maxTotal else { return .serverFull }
        let fromAddress = perAddress[address, default: 0]
        guard fromAddress < maxPerAddress else { return .addressFull }
        total += 1
        perAddress[address] = fromAddress + 1
        return .admitted
    }

    /// Forgets an admitted connection from `address`.
    mutating func close(from address: String) {
        guard let fromAddress = perAddress[address] else {
            assertionFailure("closing a connection that was never admitted")
            return
        }
        total -= 1
        perAddress[address] = fromAddress > 1 ? fromAddress - 1 : nil
    }
}
