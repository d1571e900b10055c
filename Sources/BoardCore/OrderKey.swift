/// A fractional order key: a string that sorts between its neighbours.
///
/// Moving an item is one write of its key, and two clients moving different items never
/// conflict (the approach of Figma's multiplayer and the `fractional-indexing` library).
/// Digits are `0-9A-Za-z`, in ASCII order, so byte order is sort order in every language.
/// A key never ends in `0`, which keeps room before every key.
public struct OrderKey: Hashable, Comparable, Sendable, Codable, CustomStringConvertible {
    public static let digits: [UInt8] = Array("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz".utf8)
    /// Keys longer than this are refused when decoded; generated keys stay far shorter.
    public static let maxLength = 128

    public let rawValue: String

    public init?(_ rawValue: String) {
        guard Self.isValid(rawValue) else { return nil }
        self.rawValue = rawValue
    }

    private init(unchecked rawValue: String) {
        self.rawValue = rawValue
    }

    public static func isValid(_ text: String) -> Bool {
        let utf8 = Array(text.utf8)
        guard !utf8.isEmpty, utf8.count <= maxLength, utf8.last != digits[0] else { return false }
        return utf8.allSatisfy { digitValue($0) != nil }
    }

    public var description: String { rawValue }

    public static func < (lhs: OrderKey, rhs: OrderKey) -> Bool { lhs.rawValue < rhs.rawValue }

    /// A key strictly between `lower` and `upper`; nil bounds mean the start and the end.
    ///
    /// Precondition: `lower < upper` when both are given.
    public static func between(_ lower: OrderKey?, _ upper: OrderKey?) -> OrderKey {
        let low = Array((lower?.rawValue ?? "").utf8)
        let high = upper.map { Array($0.rawValue.utf8) }
        if let high { precondition(low.lexicographicallyPrecedes(high), "OrderKey.between needs lower < upper") }
        let key = midpoint(low[...], high?[...])
        return OrderKey(unchecked: String(decoding: key, as: UTF8.self))
    }

    // A port of `midpoint` from the fractional-indexing library (CC0): `low` may be
    // empty (zero), `high` nil (one); neither ends in the zero digit.
    private static func midpoint(_ low: ArraySlice<UInt8>, _ high: ArraySlice<UInt8>?) -> [UInt8] {
        let zero = digits[0]
        if let high {
            // Drop the common prefix, padding `low` with zeros as we go.
            var n = 0
            while n < high.count, (n < low.count ? low[low.startIndex + n] : zero) == high[high.startIndex + n] {
                n += 1
            }
            if n > 0 {
                let rest = midpoint(low.dropFirst(min(n, low.count)), high.dropFirst(n))
                return Array(high.prefix(n)) + rest
            }
        }
        let digitLow = low.first.flatMap(digitValue) ?? 0
        let digitHigh = high.map { $0.first.flatMap(digitValue) ?? 0 } ?? digits.count
        if digitHigh - digitLow > 1 {
            let middle = (digitLow + digitHigh + 1) / 2
            return [digits[middle]]
        }
        if let high, high.count > 1 {
            return [high[high.startIndex]]
        }
        return [digits[digitLow]] + midpoint(low.dropFirst(), nil)
    }

    private static func digitValue(_ byte: UInt8) -> Int? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): Int(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): Int(byte - UInt8(ascii: "A")) + 10
        case UInt8(ascii: "a")...UInt8(ascii: "z"): Int(byte - UInt8(ascii: "a")) + 36
        default: nil
        }
    }

    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let key = OrderKey(text) else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "not a valid order key"))
        }
        self = key
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
}

extension OrderKey: ExpressibleByStringLiteral {
    /// For tests and fixtures only: traps on an invalid literal.
    public init(stringLiteral value: String) {
        guard let key = OrderKey(value) else { preconditionFailure("invalid OrderKey literal \(value)") }
        self = key
    }
}
