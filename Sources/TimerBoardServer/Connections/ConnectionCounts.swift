/// How many TCP connections are open, in all and per client address, which of them sit idle
/// (kept-alive HTTP between requests), and whether one more may
/// open. Deciding only: `ConnectionLimiter` holds it under a lock for the event loops, with a
/// `Handle` (the channel) to close an idle connection by.
///
/// An address at its cap, or the server at its own, gives its longest-idle connection's slot
/// to the newcomer (the caller closes that one); only when none is idle is the newcomer refused.
/// A connection counted in all only (its peer is a trusted proxy, which speaks for many
/// clients) is counted per address once it names its client (`count(from:)`).
///
/// An IPv6 address counts twice: by its /64 (its key) and by its wider network
/// (`ClientAddress.network(ofKey:prefix:)`, a /48 by default), each with a cap of its own, so
/// the many /64s of one site cannot fill the server either.
struct ConnectionCounts<Handle> {
    /// Most connections open at once.
    let maxTotal: Int
    /// Most connections open at once from one address.
    let maxPerAddress: Int
    /// Most connections open at once from one IPv6 network of `networkPrefix` bits.
    let maxPerNetwork: Int
    let networkPrefix: Int
    private(set) var total = 0
    /// Only addresses with a connection open, so the table never outgrows the connections.
    private(set) var perAddress: [String: Int] = [:]
    /// Only IPv6 networks with a connection open.
    private(set) var perNetwork: [String: Int] = [:]
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

    init(maxTotal: Int, maxPerAddress: Int, maxPerNetwork: Int = .max, networkPrefix: Int = 48) {
        self.maxTotal = maxTotal
        self.maxPerAddress = maxPerAddress
        self.maxPerNetwork = maxPerNetwork
        self.networkPrefix = networkPrefix
    }

    /// What `open` decided.
    enum Admission {
        /// Counted, with the id its later calls name it by.
        case admitted(id: Int)
        /// Counted in the slot of `victim`, an idle connection the caller is to close now.
        case evicting(id: Int, victim: Handle)
        /// The server has `maxTotal` open and none idle.
        case serverFull
        /// This address has `maxPerAddress` open (or its IPv6 network `maxPerNetwork`) and none idle.
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
        } else if let network = address.flatMap({ network(of: $0) }), perNetwork[network, default: 0] >= maxPerNetwork {
            guard let inNetwork = addressOfLongestIdle(where: { self.network(of: $0) == network }),
                let oldest = evictLongestIdle(of: inNetwork)
            else { return .addressFull }
            victim = oldest
        } else if total >= maxTotal {
            guard let address = addressOfLongestIdle(), let oldest = evictLongestIdle(of: address) else { return .serverFull }
            victim = oldest
        }
        lastID += 1
        total += 1
        if let address { add(address) }
        if let victim { return .evicting(id: lastID, victim: victim) }
        return .admitted(id: lastID)
    }

    /// Counts a connection counted in all only against `address` too (the client a trusted
    /// proxy named); false when that address is at its cap.
    mutating func count(from address: String) -> Bool {
        guard perAddress[address, default: 0] < maxPerAddress else { return false }
        if let network = network(of: address), perNetwork[network, default: 0] >= maxPerNetwork { return false }
        add(address)
        return true
    }

    /// Forgets what `count(from:)` counted.
    mutating func uncount(from address: String) {
        guard let fromAddress = perAddress[address] else { return }
        perAddress[address] = fromAddress > 1 ? fromAddress - 1 : nil
        if let network = network(of: address), let fromNetwork = perNetwork[network] {
            perNetwork[network] = fromNetwork > 1 ? fromNetwork - 1 : nil
        }
    }

    private mutating func add(_ address: String) {
        perAddress[address, default: 0] += 1
        if let network = network(of: address) { perNetwork[network, default: 0] += 1 }
    }

    /// The IPv6 network an address key counts in too; nil for IPv4 and when the cap is off.
    private func network(of address: String) -> String? {
        maxPerNetwork == .max ? nil : ClientAddress.network(ofKey: address, prefix: networkPrefix)
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

    /// The address (of those `included`) whose longest-idle connection has been idle longest.
    private func addressOfLongestIdle(where included: (String) -> Bool = { _ in true }) -> String? {
        idle.filter { included($0.key) }.min { ($0.value.first?.mark ?? .max) < ($1.value.first?.mark ?? .max) }?.key
    }
}

extension ConnectionCounts.Admission: Equatable where Handle: Equatable {}
extension ConnectionCounts.Admission: Sendable where Handle: Sendable {}
extension ConnectionCounts.Idle: Sendable where Handle: Sendable {}
extension ConnectionCounts: Sendable where Handle: Sendable {}
