/// How many TCP connections are open, in all and per client address, which of them sit idle
/// (kept-alive HTTP between requests), and whether one more may
/// open. Deciding only: `ConnectionLimiter` holds it under a lock for the event loops, with a
/// `Handle` (the channel) to close an idle connection by.
///
/// An address at its cap, or the server at its own, gives its longest-idle connection's slot
/// to the newcomer (the caller closes that one); only when none is idle is the newcomer refused.
/// A connection counted in all only (its peer is a trusted proxy, which speaks for many
/// clients) is counted per address once it names its client (`count(from:)`).
struct ConnectionCounts<Handle> {
    /// Most connections open at once.
    let maxTotal: Int
    /// Most connections open at once from one address.
    let maxPerAddress: Int
    private(set) var total = 0
    /// Only addresses with a connection open, so the table never outgrows the connections.
    private(set) var perAddress: [String: Int] = [:]
    /// Per address, its idle connections, longest idle first.
    private var idle: [String: [Idle]] = [:]
    /// Connections whose slot went to a newcomer: their close counts nothing.
    private var evicted: Set<Int> = []
    private var lastID = 0
    private var lastIdleMark = 0

    fileprivate struct Idle {
        let id: Int
        /// Grows with every connection that goes idle: the smallest has been idle longest.
        let mark: Int
        let handle: Handle
    }

    init(maxTotal: Int, maxPerAddress: Int) {
        self.maxTotal = maxTotal
        self.maxPerAddress = maxPerAddress
    }

    /// What `open` decided.
    enum Admission {
        /// Counted, with the id its later calls name it by.
        case admitted(id: Int)
        /// Counted in the slot of `victim`, an idle connection the caller is to close now.
        case evicting(id: Int, victim: Handle)
        /// The server has `maxTotal` open and none idle.
        case serverFull
        /// This address has `maxPerAddress` open and none idle.
        case addressFull

        var id: Int? {
            switch self {
            case .admitted(let id), .evicting(let id, _): id
            case .serverFull, .addressFull: nil
            }
        }
    }

    /// Counts a new connection from `address` (nil: in all only) when the caps allow it, or
    /// when an idle connection gives up its slot.
    mutating func open(from address: String?) -> Admission {
        var victim: Handle?
        if let address, perAddress[address, default: 0] >= maxPerAddress {
            guard let oldest = evictLongestIdle(of: address) else { return .addressFull }
            victim = oldest
        } else if total >= maxTotal {
            guard let address = addressOfLongestIdle(), let oldest = evictLongestIdle(of: address) else { return .serverFull }
            victim = oldest
        }
        lastID += 1
        total += 1
        if let address { perAddress[address, default: 0] += 1 }
        if let victim { return .evicting(id: lastID, victim: victim) }
        return .admitted(id: lastID)
    }

    /// Counts a connection counted in all only against `address` too (the client a trusted
    /// proxy named); false when that address is at its cap.
    mutating func count(from address: String) -> Bool {
        guard perAddress[address, default: 0] < maxPerAddress else { return false }
        perAddress[address, default: 0] += 1
        return true
    }

    /// Forgets what `count(from:)` counted.
    mutating func uncount(from address: String) {
        guard let fromAddress = perAddress[address] else { return }
        perAddress[address] = fromAddress > 1 ? fromAddress - 1 : nil
    }

    /// The connection waits for its next request (or its first): it may give up its slot.
    mutating func setIdle(id: Int, from address: String?, handle: Handle) {
        guard let address, !evicted.contains(id) else { return }
        setBusy(id: id, from: address)
        lastIdleMark += 1
        idle[address, default: []].append(Idle(id: id, mark: lastIdleMark, handle: handle))
    }

    /// The connection is working on a request (or became a WebSocket): it keeps its slot.
    mutating func setBusy(id: Int, from address: String?) {
        guard let address, var entries = idle[address], let index = entries.firstIndex(where: { $0.id == id }) else { return }
        entries.remove(at: index)
        idle[address] = entries.isEmpty ? nil : entries
    }

    /// Forgets a connection that `open` admitted.
    mutating func close(id: Int, from address: String?) {
        if evicted.remove(id) != nil { return }
        setBusy(id: id, from: address)
        total -= 1
        if let address { uncount(from: address) }
    }

    /// How many connections wait idle, in all.
    var idleCount: Int { idle.values.reduce(0) { $0 + $1.count } }

    private mutating func evictLongestIdle(of address: String) -> Handle? {
        guard var entries = idle[address], !entries.isEmpty else { return nil }
        let oldest = entries.removeFirst()
        idle[address] = entries.isEmpty ? nil : entries
        evicted.insert(oldest.id)
        total -= 1
        uncount(from: address)
        return oldest.handle
    }

    /// The address whose longest-idle connection has been idle longest of all.
    private func addressOfLongestIdle() -> String? {
        idle.min { ($0.value.first?.mark ?? .max) < ($1.value.first?.mark ?? .max) }?.key
    }
}

extension ConnectionCounts.Admission: Equatable where Handle: Equatable {}
extension ConnectionCounts.Admission: Sendable where Handle: Sendable {}
extension ConnectionCounts.Idle: Sendable where Handle: Sendable {}
extension ConnectionCounts: Sendable where Handle: Sendable {}
