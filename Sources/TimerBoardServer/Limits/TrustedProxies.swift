/// The proxies (`--trusted-proxy`) whose forwarding headers are believed. A request whose TCP
/// peer is one of them counts against per-address limits as the client the proxy names; from
/// any other peer the headers are ignored, since anyone can write them.
///
/// `X-Forwarded-For` lists one hop per proxy, each appended by the proxy that received the
/// connection. Walking it from the right, every hop a trusted proxy added can be believed up to
/// the first address that is not itself a trusted proxy: that is the client. Entries further
/// left were written by the client and may be anything. Without the header, `X-Real-IP` names
/// the client (nginx sets it to the address it saw).
public struct TrustedProxies: Sendable, Hashable {
    public var networks: [IPNetwork]

    public init(_ networks: [IPNetwork] = []) {
        self.networks = networks
    }

    public var isEmpty: Bool { networks.isEmpty }

    /// Whether `address` is one of the trusted proxies.
    public func contains(_ address: IPAddress) -> Bool {
        networks.contains { $0.contains(address) }
    }

    /// The client's address for a request from `peer` carrying these headers' values
    /// (`forwardedFor`: every `X-Forwarded-For` field, in order).
    ///
    /// A hop that is not an address (`unknown`, a typo of a proxy) ends the walk: the client is
    /// then taken to be the trusted proxy that wrote it, so a malformed header can never split
    /// one client into many keys nor put it under someone else's.
    public func client(peer: IPAddress, forwardedFor: [String], realIP: String?) -> IPAddress {
        guard contains(peer) else { return peer }
        let hops = forwardedFor.flatMap { $0.split(separator: ",", omittingEmptySubsequences: false) }
        if !hops.isEmpty {
            var nearest = peer
            for hop in hops.reversed() {
                guard let address = IPAddress(forwardedHop: hop) else { return nearest }
                if !contains(address) { return address }
                nearest = address
            }
            // Every hop is a trusted proxy: the leftmost is as far as anyone can tell.
            return nearest
        }
        if let realIP, let address = IPAddress(forwardedHop: realIP) { return address }
        return peer
    }
}
