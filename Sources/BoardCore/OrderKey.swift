/// A fractional order key: a string that sorts between its neighbours.
///
/// Moving an item is one write of its key, and two clients moving different items never
/// conflict (the approach of Figma's multiplayer and the `fractional-indexing` library).
/// Digits are `0-9A-Za-z`, in ASCII order, so byte order is sort order in every language.
///
/// The server writes keys of the `fractional-indexing` form: an integer part, whose head
/// letter says its length (`a0`, `a1`, … `az`, `b00`, …; `Zz`, `Zy`, … below `a0`), then an
/// optional fraction that never ends in `0`. Appending or prepending increments or decrements
/// the integer, so keys grow with the logarithm of the count, not with the count. Only
/// inserting again and again at one spot grows the fraction; `Board.apply` re-keys the
/// siblings long before a key could reach `maxLength` (see `OrderKey.rekeyLength`).
public struct OrderKey: Hashable, Comparable, Sendable, CustomStringConvertible {
    public static let digits: [UInt8] = Array("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz".utf8)
    /// The longest key the wire accepts (docs/protocol.md); the server never writes one longer
    /// than `rekeyLength`.
    public static let maxLength = 128
    /// A generated key longer than this makes the server re-key the siblings instead: with
    /// evenly spread keys of at most 4 characters for 10,000 items, about 200 inserts at one
    /// spot fit before the next re-key.
    public static let rekeyLength = 32

    public let rawValue: String

    /// A key as the wire carries it: digits only, not ending in `0`, at most `maxLength`
    /// bytes. Keys of the older, integer-less form are accepted too; the server replaces them
    /// when it loads a board (`Board.repairedOrder`).
    public init?(_ rawValue: String) {
        guard Self.isValid(rawValue) else { return nil }
        self.rawValue = rawValue
    }

    /// A key as the store kept it, whatever it holds: stored data is never refused, it is
    /// repaired on load (`Board.repairedOrder`).
    public init(stored rawValue: String) {
        self.rawValue = rawValue
    }

    private init(unchecked bytes: [UInt8]) {
        self.rawValue = String(decoding: bytes, as: UTF8.self)
    }

    /// Digits only, 1 to `maxLength` bytes, and either canonical (`a0`) or of the older form,
    /// which never ends in `0`.
    public static func isValid(_ text: String) -> Bool {
        let utf8 = Array(text.utf8)
        guard !utf8.isEmpty, utf8.count <= maxLength, utf8.allSatisfy({ digitValue($0) != nil }) else { return false }
        return utf8.last != digits[0] || OrderKey(stored: text).isCanonical
    }

    /// True for a key of the form the server writes (integer part, then a fraction that does
    /// not end in `0`), no longer than `maxLength`.
    public var isCanonical: Bool {
        let bytes = Array(rawValue.utf8)
        guard !bytes.isEmpty, bytes.count <= Self.maxLength, bytes.allSatisfy({ Self.digitValue($0) != nil }),
            let integerLength = Self.integerLength(head: bytes[0]), integerLength <= bytes.count
        else { return false }
        guard bytes.count > integerLength else { return bytes != Self.smallestInteger }
        return bytes.last != Self.digits[0]
    }

    public var description: String { rawValue }

    public static func < (lhs: OrderKey, rhs: OrderKey) -> Bool { lhs.rawValue < rhs.rawValue }

    // MARK: Generating

    /// A canonical key strictly between `lower` and `upper`; nil bounds mean the start and the end.
    ///
    /// Preconditions: both bounds are canonical, and `lower < upper` when both are given.
    public static func between(_ lower: OrderKey?, _ upper: OrderKey?) -> OrderKey {
        let low = lower.map { Array($0.rawValue.utf8) }
        let high = upper.map { Array($0.rawValue.utf8) }
        assert(lower?.isCanonical ?? true, "OrderKey.between needs canonical keys, not \(lower!)")
        assert(upper?.isCanonical ?? true, "OrderKey.between needs canonical keys, not \(upper!)")
        if let low, let high { precondition(low.lexicographicallyPrecedes(high), "OrderKey.between needs lower < upper") }
        return OrderKey(unchecked: keyBetween(low, high))
    }

    /// `count` canonical keys in ascending order, evenly spread from the start: `a0`, `a1`, …
    /// For 10,000 keys the longest has 4 characters.
    public static func sequence(count: Int) -> [OrderKey] {
        var keys: [OrderKey] = []
        keys.reserveCapacity(count)
        var integer = Array("a0".utf8)
        for _ in 0..<count {
            keys.append(OrderKey(unchecked: integer))
            // Past `z` followed by 25 `z`s there is no larger integer: 62^26 keys, never reached.
            integer = incrementInteger(integer) ?? integer + [digits[digits.count / 2]]
        }
        return keys
    }

    // A port of `generateKeyBetween` from the fractional-indexing library (CC0).
    private static func keyBetween(_ low: [UInt8]?, _ high: [UInt8]?) -> [UInt8] {
        guard let low else {
            guard let high else { return Array("a0".utf8) }
            let integer = Array(high.prefix(integerLength(head: high[0])!))
            let fraction = high.dropFirst(integer.count)
            if integer == smallestInteger { return integer + midpoint([], fraction) }
            if integer.count < high.count { return integer }
            // The smallest integer is reserved, so there is always one below a canonical key.
            return decrementInteger(integer)!
        }
        let lowInteger = Array(low.prefix(integerLength(head: low[0])!))
        let lowFraction = low.dropFirst(lowInteger.count)
        guard let high else {
            guard let next = incrementInteger(lowInteger) else { return lowInteger + midpoint(lowFraction, nil) }
            return next
        }
        let highInteger = Array(high.prefix(integerLength(head: high[0])!))
        if lowInteger == highInteger {
            return lowInteger + midpoint(lowFraction, high.dropFirst(highInteger.count))
        }
        if let next = incrementInteger(lowInteger), next.lexicographicallyPrecedes(high) { return next }
        return lowInteger + midpoint(lowFraction, nil)
    }

    /// `A` followed by 26 zeros: the smallest integer, kept free so that a key can always be
    /// made before any other.
    private static let smallestInteger: [UInt8] = [UInt8(ascii: "A")] + Array(repeating: digits[0], count: 26)

    /// The length of the integer part a head letter announces: `a` 2, `b` 3, … `z` 27;
    /// `Z` 2, `Y` 3, … `A` 27. Nil for a byte that is not a head.
    private static func integerLength(head: UInt8) -> Int? {
        switch head {
        case UInt8(ascii: "a")...UInt8(ascii: "z"): Int(head - UInt8(ascii: "a")) + 2
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): Int(UInt8(ascii: "Z") - head) + 2
        default: nil
        }
    }

    private static func incrementInteger(_ integer: [UInt8]) -> [UInt8]? {
        var head = integer[0]
        var body = Array(integer.dropFirst())
        for index in body.indices.reversed() {
            let value = digitValue(body[index])! + 1
            if value < digits.count {
                body[index] = digits[value]
                return [head] + body
            }
            body[index] = digits[0]
        }
        // Every digit carried: the next head letter, one digit longer (or shorter below zero).
        if head == UInt8(ascii: "Z") { return Array("a".utf8) + [digits[0]] }
        if head == UInt8(ascii: "z") { return nil }
        head += 1
        if head > UInt8(ascii: "a") { body.append(digits[0]) } else { body.removeLast() }
        return [head] + body
    }

    private static func decrementInteger(_ integer: [UInt8]) -> [UInt8]? {
        var head = integer[0]
        var body = Array(integer.dropFirst())
        let top = digits[digits.count - 1]
        for index in body.indices.reversed() {
            let value = digitValue(body[index])! - 1
            if value >= 0 {
                body[index] = digits[value]
                return [head] + body
            }
            body[index] = top
        }
        if head == UInt8(ascii: "a") { return Array("Z".utf8) + [top] }
        if head == UInt8(ascii: "A") { return nil }
        head -= 1
        if head < UInt8(ascii: "Z") { body.append(top) } else { body.removeLast() }
        return [head] + body
    }

    // A port of `midpoint` from the fractional-indexing library (CC0): a fraction strictly
    // between `low` (may be empty: zero) and `high` (nil: one); neither ends in the zero digit.
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
}

extension OrderKey: ExpressibleByStringLiteral {
    /// For tests and fixtures only: traps on an invalid literal.
    public init(stringLiteral value: String) {
        guard let key = OrderKey(value) else { preconditionFailure("invalid OrderKey literal \(value)") }
        self = key
    }
}
