import NIOCore

/// The key every per-address limit counts by (board creation, connections), the one place
/// that decides it: the TCP peer's IP address, and for IPv6 its /64 (one machine or household
/// usually holds a whole /64, so counting single addresses would let it step around every
/// limit). An IPv4 client of a dual-stack socket (`::ffff:a.b.c.d`) counts by its IPv4
/// address. A trusted proxy's forwarded address (issue 16) belongs here too.
enum ClientAddress {
    static func key(_ address: SocketAddress?) -> String {
        guard let text = address?.ipAddress else { return "local" }
        guard case .v6? = address else { return text }
        return key(ipv6: text)
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
