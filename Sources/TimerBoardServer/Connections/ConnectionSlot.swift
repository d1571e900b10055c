/// A connection's place under the caps of a `ConnectionLimiter`: taken when the connection is
/// accepted, given back once, when it closes. Its `ConnectionGuard` holds it until then; an
/// admitted WebSocket's session takes it over (`ConnectionGuard.handOverSlot(of:)`) and the guard
/// leaves, so an idle WebSocket holds these 48 bytes, not a callback on its channel's close
/// (136 bytes, docs/performance.md).
struct ConnectionSlot: Sendable {
    let limiter: ConnectionLimiter
    let id: Int
    /// The key it counts under: the peer's address, or nil for a trusted proxy.
    let address: String?
    /// Behind a trusted proxy, the client a WebSocket's request names: counted too.
    var client: String?

    func giveBack() {
        limiter.close(id: id, from: address)
        if let client { limiter.uncount(from: client) }
    }
}
