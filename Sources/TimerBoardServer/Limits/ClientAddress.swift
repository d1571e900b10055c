import NIOCore

/// The key every per-address limit counts by (board creation, connections), the one place
/// that decides it: the TCP peer's IP address, and for IPv6 its /64 (one machine or household
/// usually holds a whole /64, so counting single addresses would let it step around every
/// limit). An IPv4 client of a dual-stack socket (`::ffff:a.b.c.d`) counts by its IPv4
/// address. Behind a trusted proxy (`--trusted-proxy`), the address the proxy forwarded
/// counts instead (`TrustedProxies`).
enum ClientAddress {
    static func key(_ address: SocketAddress?) -> String {
        guard let text = address?.ipAddress else { return "local" }
        guard case .v6? = address else { return text }
        return key(ipv6: text)
    }

    /// The key of the client behind `peer`: the peer's own unless it is a trusted proxy, in
    /// which case the client address its headers name (`TrustedProxies.client`).
    static func key(peer: SocketAddress?, forwardedFor: [String], realIP: String?, trusted: TrustedProxies) -> String {
        guard !trusted.isEmpty, let text = peer?.ipAddress, let address = IPAddress(text) else { return key(peer) }
        return key(trusted.client(peer: address, forwardedFor: forwardedFor, realIP: realIP))
    }

    /// An IPv4 address as itself, an IPv6 one by its /64.
    static func key(_ address: IPAddress) -> String {
        guard !address.isIPv4 else { return address.description }
        return address.groups.prefix(4).map { String($0, radix: 16) }.joined(separator: ":") + "::/64"
    }

    /// The wider network an address key belongs to, for the connection cap per IPv6 network:
    /// for an IPv6 key (`2001:db8:1:2::/64`) its first `prefix` bits (`2001:db8:1::/48`), nil for
    /// an IPv4 one. `prefix` is at most 64 (a key holds no more); ten /64s of one site, which
    /// usually has a whole /48, then count as one.
    static func network(ofKey key: String, prefix: Int) -> String? {
        guard key.hasSuffix("::/64"), let groups = groups(String(key.dropLast(3))) else { return nil }
        let prefix = max(0, min(64, prefix))
        var bits = prefix
        let masked = groups.prefix(4).map { group -> UInt16 in
            defer { bits -= 16 }
            if bits >= 16 { return group }
            return bits <= 0 ? 0 : group & ~(UInt16.max >> bits)
        }
        return masked.map { String($0, radix: 16) }.joined(separator: ":") + "::/\(prefix)"
    }

    static func key(ipv6 text: String) -> String {
        if let lastColon = text.lastIndex(of: ":"), text[lastColon...].contains(".") {
            return String(text[text.index(after: lastColon)...])
        }
        guard let groups = groups(text) else { return text }
        return groups.prefix(4).map { String($0, radix: 16) }.joined(separator: ":") + "::/64"
    }

    /// The eight 16-bit groups of an IPv6 address in text form, `::` expanded; nil if malformed.
    private static func groups(_ text: String) -> [UInt16]? {
        let halves = text.split(separator: "::", omittingEmptySubsequences: false).map(String.init)
        guard halves.count <= 2 else { return nil }
        func parse(_ part: String) -> [UInt16]? {
            guard !part.isEmpty else { return [] }
            let groups = part.split(separator: ":", omittingEmptySubsequences: false).map { UInt16($0, radix: 16) }
            return groups.contains(nil) ? nil : groups.compactMap { $0 }
        }
        guard let head = parse(halves[0]), let tail = halves.count == 2 ? parse(halves[1]) : [] else { return nil }
        let missing = 8 - head.count - tail.count
        guard halves.count == 2 ? missing >= 0 : missing == 0 else { return nil }
        return head + Array(repeating: 0, count: missing) + tail
    }
}
