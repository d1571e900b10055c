/// An IPv4 or IPv6 address as bytes (4 or 16), parsed from text by hand: addresses here come
/// from headers a proxy wrote and from the command line, and both must be read the same way.
/// An IPv4-mapped IPv6 address (`::ffff:192.0.2.7`) is the IPv4 address, so a dual-stack
/// socket's IPv4 peer matches an IPv4 network.
public struct IPAddress: Hashable, Sendable, CustomStringConvertible {
    /// 4 bytes for IPv4, 16 for IPv6.
    public let bytes: [UInt8]

    /// Parses `192.0.2.7` or `2001:db8::1` (a `%zone` suffix is dropped); nil for anything else.
    public init?(_ text: some StringProtocol) {
        let text = String(text)
        if let bytes = Self.ipv4(text) {
            self.bytes = bytes
            return
        }
        let withoutZone = text.split(separator: "%", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? text
        guard let bytes = Self.ipv6(withoutZone) else { return nil }
        if bytes.prefix(10).allSatisfy({ $0 == 0 }) && bytes[10] == 0xff && bytes[11] == 0xff {
            self.bytes = Array(bytes.suffix(4))
        } else {
            self.bytes = bytes
        }
    }

    /// Parses one hop of `X-Forwarded-For` or an `X-Real-IP`: an address, optionally with a
    /// port (`192.0.2.7:4711`, `[2001:db8::1]:443`), surrounded by spaces or not.
    public init?(forwardedHop hop: some StringProtocol) {
        var text = Substring(hop).drop { $0 == " " || $0 == "\t" }
        while let last = text.last, last == " " || last == "\t" { text = text.dropLast() }
        if text.first == "[" {
            guard let close = text.firstIndex(of: "]") else { return nil }
            let rest = text[text.index(after: close)...]
            guard rest.isEmpty || (rest.first == ":" && rest.dropFirst().allSatisfy(\.isASCIIDigit)) else { return nil }
            self.init(text[text.index(after: text.startIndex)..<close])
        } else if text.filter({ $0 == ":" }).count == 1, let colon = text.firstIndex(of: ":") {
            guard text[text.index(after: colon)...].allSatisfy(\.isASCIIDigit) else { return nil }
            self.init(text[..<colon])
        } else {
            self.init(text)
        }
    }

    public var isIPv4: Bool { bytes.count == 4 }

    /// Dotted quad for IPv4; eight hexadecimal groups, without `::` compression, for IPv6.
    public var description: String {
        if isIPv4 { return bytes.map { String($0) }.joined(separator: ".") }
        return groups.map { String($0, radix: 16) }.joined(separator: ":")
    }

    /// The eight 16-bit groups of an IPv6 address.
    var groups: [UInt16] {
        stride(from: 0, to: bytes.count, by: 2).map { UInt16(bytes[$0]) << 8 | UInt16(bytes[$0 + 1]) }
    }

    private static func ipv4(_ text: String) -> [UInt8]? {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 4 else { return nil }
        var bytes: [UInt8] = []
        for part in parts {
            // Decimal only, no leading zeros: `010` means 8 to some parsers and 10 to others.
            guard (1...3).contains(part.count), part.allSatisfy(\.isASCIIDigit), part == "0" || part.first != "0",
                let byte = UInt8(part)
            else { return nil }
            bytes.append(byte)
        }
        return bytes
    }

    private static func ipv6(_ text: String) -> [UInt8]? {
        guard text.contains(":") else { return nil }
        var text = Substring(text)
        // An IPv4 tail (`::ffff:192.0.2.7`) stands for the last two groups.
        var tail: [UInt8] = []
        if let lastColon = text.lastIndex(of: ":"), text[lastColon...].contains(".") {
            guard let ipv4 = ipv4(String(text[text.index(after: lastColon)...])) else { return nil }
            tail = ipv4
            text = text[...lastColon]
            // `::192.0.2.7` leaves `::`; `::ffff:192.0.2.7` leaves `::ffff:`, whose colon belongs to the tail.
            if !text.hasSuffix("::") { text = text.dropLast() }
        }
        let halves = text.split(separator: "::", omittingEmptySubsequences: false)
        guard halves.count <= 2 else { return nil }
        func parse(_ part: Substring) -> [UInt16]? {
            guard !part.isEmpty else { return [] }
            var groups: [UInt16] = []
            for group in part.split(separator: ":", omittingEmptySubsequences: false) {
                guard (1...4).contains(group.count), let value = UInt16(group, radix: 16) else { return nil }
                groups.append(value)
            }
            return groups
        }
        guard let head = parse(halves[0]), let rest = halves.count == 2 ? parse(halves[1]) : [] else { return nil }
        let written = head.count + rest.count + tail.count / 2
        let missing = 8 - written
        guard halves.count == 2 ? missing >= 1 : missing == 0 else { return nil }
        let groups = head + Array(repeating: 0, count: missing) + rest
        return groups.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xff)] } + tail
    }
}

/// An address range in CIDR notation (`10.0.0.0/8`, `fd00::/8`), or one address (`127.0.0.1`:
/// all its bits).
public struct IPNetwork: Hashable, Sendable, CustomStringConvertible {
    public let address: IPAddress
    public let prefixLength: Int

    /// Whether the network is one address (`/32` for IPv4, `/128` for IPv6).
    public var isSingleHost: Bool { prefixLength == address.bytes.count * 8 }

    /// What is wrong with a network's text, for the command line.
    public struct ParseError: Error, CustomStringConvertible {
        public let description: String
    }

    /// Parses `ADDRESS` or `ADDRESS/PREFIX`; throws a `ParseError` that says what is wrong.
    public init(parsing text: String) throws(ParseError) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count <= 2, let address = IPAddress(parts[0]) else {
            throw ParseError(description: "'\(text)' is not an IP address or a network in CIDR notation (ADDRESS/PREFIX)")
        }
        // Bits as written: `::ffff:10.0.0.0/104` is an IPv6 prefix of an IPv4-mapped network.
        let writtenAsIPv6 = parts[0].contains(":")
        let bits = writtenAsIPv6 ? 128 : 32
        var prefixLength = address.bytes.count * 8
        if parts.count == 2 {
            guard let length = Int(parts[1]), parts[1].allSatisfy(\.isASCIIDigit), (0...bits).contains(length) else {
                throw ParseError(description: "'\(text)': the prefix length must be a number from 0 to \(bits)")
            }
            // An IPv4-mapped IPv6 network keeps its meaning as an IPv4 one.
            prefixLength = writtenAsIPv6 && address.isIPv4 ? max(length - 96, 0) : length
        }
        self.address = address
        self.prefixLength = prefixLength
    }

    /// Whether `other` lies in this network (never across address families).
    public func contains(_ other: IPAddress) -> Bool {
        guard other.bytes.count == address.bytes.count else { return false }
        var remaining = prefixLength
        for (mine, theirs) in zip(address.bytes, other.bytes) where remaining > 0 {
            let mask: UInt8 = remaining >= 8 ? 0xff : ~(0xff >> UInt8(remaining))
            if mine & mask != theirs & mask { return false }
            remaining -= 8
        }
        return true
    }

    public var description: String { "\(address)/\(prefixLength)" }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}
