/// What a `Range` header asks of a file of `size` bytes (RFC 9110 14.1.2, 14.2). Only one byte
/// range is served; what the server may ignore (several ranges, another unit, a header it cannot
/// read) gets the whole file, as the RFC allows.
enum ByteRange: Equatable, Sendable {
    /// No range to honour: 200 with the whole file.
    case whole
    /// One satisfiable range, clamped to the file: 206 with these bytes.
    case partial(ClosedRange<Int>)
    /// A range that starts past the end, or asks for the last 0 bytes: 416.
    case unsatisfiable

    init(header: String?, size: Int) {
        guard let header else {
            self = .whole
            return
        }
        let trimmed = header.trimmingSpaces
        // The unit is case-insensitive (RFC 9110 14.1).
        guard trimmed.utf8.count > 6, trimmed.prefix(6).lowercased() == "bytes=" else {
            self = .whole
            return
        }
        let spec = String(trimmed.dropFirst(6)).trimmingSpaces
        guard !spec.contains(","), let dash = spec.firstIndex(of: "-") else {
            self = .whole
            return
        }
        let first = spec[..<dash]
        let last = spec[spec.index(after: dash)...]
        switch (Self.number(first), Self.number(last)) {
        case (nil, let suffix?) where first.isEmpty:
            // The last `suffix` bytes.
            guard suffix > 0, size > 0 else {
                self = .unsatisfiable
                return
            }
            self = .partial(max(0, size - suffix)...(size - 1))
        case (let start?, nil) where last.isEmpty:
            self = start < size ? .partial(start...(size - 1)) : .unsatisfiable
        case (let start?, let end?):
            guard start <= end else {
                self = .whole
                return
            }  // invalid: ignored
            self = start < size ? .partial(start...min(end, size - 1)) : .unsatisfiable
        default:
            self = .whole
        }
    }

    /// Decimal digits only; a number too large for `Int` counts as `Int.max` (past any file's end).
    private static func number(_ text: Substring) -> Int? {
        guard !text.isEmpty, text.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else { return nil }
        return Int(text) ?? Int.max
    }
}
