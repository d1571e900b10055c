/// Reads JSON text (RFC 8259) into a `JSONValue`: one value with whitespace around it, UTF-8
/// strings, finite numbers, no comments, at most `maxDepth` nested arrays and objects.
///
/// Written by hand because every message a client sends is parsed here: Foundation's
/// `JSONDecoder` into `JSONValue` through `Decodable` was a fifth of the server's CPU with
/// edits pipelined. It reads what that decoder read, the same way (JSONParserTests compares
/// them), so no client sees a difference: a trailing comma in an array or object is accepted,
/// a repeated key keeps its first value, and a number with an integral value that fits in
/// `Int64` is an `.int` (also `1e2` or `3.0`), any other a `.double`.
struct JSONParser {
    /// Deeper documents are refused rather than risk the stack: no message needs more than a few.
    static let maxDepth = 128

    private let bytes: UnsafeBufferPointer<UInt8>
    private var index = 0
    private var depth = 0

    private struct Invalid: Error {}

    /// The value, or nil when the text is not exactly one JSON value.
    static func parse(_ bytes: UnsafeBufferPointer<UInt8>) -> JSONValue? {
        var parser = JSONParser(bytes: bytes)
        do {
            parser.skipWhitespace()
            let value = try parser.value()
            parser.skipWhitespace()
            return parser.index == bytes.count ? value : nil
        } catch {
            return nil
        }
    }

    private init(bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    private var current: UInt8? { index < bytes.count ? bytes[index] : nil }

    private mutating func skipWhitespace() {
        while let byte = current, byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 { index += 1 }
    }

    private mutating func expect(_ literal: StaticString) throws(Invalid) {
        let count = literal.utf8CodeUnitCount
        guard index + count <= bytes.count else { throw Invalid() }
        for offset in 0..<count where bytes[index + offset] != literal.utf8Start[offset] { throw Invalid() }
        index += count
    }

    private mutating func value() throws(Invalid) -> JSONValue {
        guard let byte = current else { throw Invalid() }
        switch byte {
        case UInt8(ascii: "{"): return try object()
        case UInt8(ascii: "["): return try array()
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"):
            try expect("true")
            return .bool(true)
        case UInt8(ascii: "f"):
            try expect("false")
            return .bool(false)
        case UInt8(ascii: "n"):
            try expect("null")
            return .null
        default: return try number()
        }
    }

    private mutating func object() throws(Invalid) -> JSONValue {
        depth += 1
        guard depth <= Self.maxDepth else { throw Invalid() }
        index += 1  // {
        var fields: [String: JSONValue] = [:]
        skipWhitespace()
        if current == UInt8(ascii: "}") {
            index += 1
            depth -= 1
            return .object(fields)
        }
        while true {
            skipWhitespace()
            guard current == UInt8(ascii: "\"") else { throw Invalid() }
            let key = try string()
            skipWhitespace()
            guard current == UInt8(ascii: ":") else { throw Invalid() }
            index += 1
            skipWhitespace()
            let value = try value()
            if fields[key] == nil { fields[key] = value }
            skipWhitespace()
            switch current {
            case UInt8(ascii: ","):
                index += 1
                skipWhitespace()
                if current == UInt8(ascii: "}") { fallthrough }
            case UInt8(ascii: "}"):
                index += 1
                depth -= 1
                return .object(fields)
            default: throw Invalid()
            }
        }
    }

    private mutating func array() throws(Invalid) -> JSONValue {
        depth += 1
        guard depth <= Self.maxDepth else { throw Invalid() }
        index += 1  // [
        var items: [JSONValue] = []
        skipWhitespace()
        if current == UInt8(ascii: "]") {
            index += 1
            depth -= 1
            return .array(items)
        }
        while true {
            skipWhitespace()
            items.append(try value())
            skipWhitespace()
            switch current {
            case UInt8(ascii: ","):
                index += 1
                skipWhitespace()
                if current == UInt8(ascii: "]") { fallthrough }
            case UInt8(ascii: "]"):
                index += 1
                depth -= 1
                return .array(items)
            default: throw Invalid()
            }
        }
    }

    /// A string, at its opening quote. Text without escapes is taken as one slice.
    private mutating func string() throws(Invalid) -> String {
        index += 1  // "
        let start = index
        while let byte = current, byte != UInt8(ascii: "\""), byte != UInt8(ascii: "\\") {
            guard byte >= 0x20 else { throw Invalid() }
            index += 1
        }
        guard let stop = current else { throw Invalid() }
        let text: String?
        if stop == UInt8(ascii: "\"") {
            text = String(validating: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
        } else {
            var utf8 = Array(UnsafeBufferPointer(rebasing: bytes[start..<index]))
            try escapedRest(into: &utf8)
            text = String(validating: utf8, as: UTF8.self)
        }
        index += 1  // closing "
        guard let text else { throw Invalid() }
        return text
    }

    /// The rest of a string that has escapes, up to (not past) its closing quote.
    private mutating func escapedRest(into utf8: inout [UInt8]) throws(Invalid) {
        while let byte = current, byte != UInt8(ascii: "\"") {
            guard byte >= 0x20 else { throw Invalid() }
            guard byte == UInt8(ascii: "\\") else {
                utf8.append(byte)
                index += 1
                continue
            }
            index += 1
            guard let escape = current else { throw Invalid() }
            index += 1
            switch escape {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): utf8.append(escape)
            case UInt8(ascii: "b"): utf8.append(0x08)
            case UInt8(ascii: "f"): utf8.append(0x0C)
            case UInt8(ascii: "n"): utf8.append(0x0A)
            case UInt8(ascii: "r"): utf8.append(0x0D)
            case UInt8(ascii: "t"): utf8.append(0x09)
            case UInt8(ascii: "u"):
                var scalar = try hex4()
                if (0xD800...0xDBFF).contains(scalar) {
                    // A high surrogate must be followed by an escaped low one.
                    try expect("\\u")
                    let low = try hex4()
                    guard (0xDC00...0xDFFF).contains(low) else { throw Invalid() }
                    scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                }
                guard let unicode = Unicode.Scalar(scalar) else { throw Invalid() }
                utf8.append(contentsOf: String(Character(unicode)).utf8)
            default: throw Invalid()
            }
        }
        guard current != nil else { throw Invalid() }
    }

    private mutating func hex4() throws(Invalid) -> UInt32 {
        guard index + 4 <= bytes.count else { throw Invalid() }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[index]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw Invalid()
            }
            value = value << 4 | UInt32(digit)
            index += 1
        }
        return value
    }

    /// `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`
    private mutating func number() throws(Invalid) -> JSONValue {
        let start = index
        if current == UInt8(ascii: "-") { index += 1 }
        guard let first = current, isDigit(first) else { throw Invalid() }
        if first == UInt8(ascii: "0") {
            index += 1
        } else {
            while let byte = current, isDigit(byte) { index += 1 }
        }
        var isInteger = true
        if current == UInt8(ascii: ".") {
            isInteger = false
            index += 1
            guard let byte = current, isDigit(byte) else { throw Invalid() }
            while let byte = current, isDigit(byte) { index += 1 }
        }
        if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
            isInteger = false
            index += 1
            if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { index += 1 }
            guard let byte = current, isDigit(byte) else { throw Invalid() }
            while let byte = current, isDigit(byte) { index += 1 }
        }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
        if isInteger, let int = Int64(text) { return .int(int) }
        guard let double = Double(text), double.isFinite else { throw Invalid() }
        if let int = Int64(exactly: double) {
            // Beyond 2^53 a Double skips integers: read the digits instead, as Foundation does.
            if double.magnitude < 0x1p53 { return .int(int) }
            if let exact = Self.integerPart(text) { return .int(exact) }
        }
        return .double(double)
    }

    /// The integer part of a number, read digit by digit the way Foundation's decoder reads a
    /// large one: `89183833166430E4` is 891838331664300000, which no `Double` holds. Nil when
    /// its digits, without the exponent, overflow `UInt64`, or its magnitude `Int64` (so also for
    /// `Int64.min`): there Foundation reads a `.double`.
    static func integerPart(_ text: String) -> Int64? {
        let isNegative = text.hasPrefix("-")
        let unsigned = text.drop { $0 == "-" }
        let mantissa = unsigned.prefix { $0 != "e" && $0 != "E" }
        let exponentText = unsigned.dropFirst(mantissa.count + 1)
        let integerDigits = mantissa.prefix { $0 != "." }
        let fractionDigits = mantissa.dropFirst(integerDigits.count + 1)
        // Trailing zeros move into the exponent, as Foundation's Decimal compacts them.
        var digits = Array(integerDigits + fractionDigits)
        var trailingZeros = 0
        while digits.count > 1, digits.last == "0" {
            digits.removeLast()
            trailingZeros += 1
        }
        var magnitude: UInt64 = 0
        for digit in digits {
            let (shifted, overflowed) = magnitude.multipliedReportingOverflow(by: 10)
            let (sum, carried) = shifted.addingReportingOverflow(UInt64(digit.asciiValue! - UInt8(ascii: "0")))
            guard !overflowed, !carried else { return nil }
            magnitude = sum
        }
        // Clamped: twenty places either way already leave zero or overflow.
        let exponentSign = exponentText.first == "-" ? -1 : 1
        let exponentDigits = exponentText.drop { $0 == "+" || $0 == "-" }.drop { $0 == "0" }
        let exponent = exponentSign * (exponentDigits.count > 5 ? 99_999 : Int(exponentDigits) ?? 0)
        let shift = max(-20, min(20, exponent - fractionDigits.count + trailingZeros))
        for _ in 0..<max(-shift, 0) { magnitude /= 10 }
        for _ in 0..<max(shift, 0) {
            let (shifted, overflowed) = magnitude.multipliedReportingOverflow(by: 10)
            guard !overflowed else { return nil }
            magnitude = shifted
        }
        guard let signed = Int64(exactly: magnitude) else { return nil }
        return isNegative ? -signed : signed
    }

    private func isDigit(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }
}
