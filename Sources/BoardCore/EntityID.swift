/// The identity of a section or a timer, unique across one board.
///
/// Clients choose ids (so an optimistic insert can be shown at once), the board checks
/// them: 1 to 64 characters of `A-Z a-z 0-9 _ -`. Ids are unique among the sections and
/// timers a board holds now; an id deleted by an earlier edit may be added again.
public struct EntityID: Hashable, Comparable, Sendable, CustomStringConvertible {
    public static let maxLength = 64

    public let rawValue: String

    /// Returns nil when the text is not a valid id.
    public init?(_ rawValue: String) {
        guard Self.isValid(rawValue) else { return nil }
        self.rawValue = rawValue
    }

    public static func isValid(_ text: String) -> Bool {
        let utf8 = text.utf8
        guard !utf8.isEmpty, utf8.count <= maxLength else { return false }
        return utf8.allSatisfy { byte in
            (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z"))
                || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
                || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
                || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-")
        }
    }

    public var description: String { rawValue }

    public static func < (lhs: EntityID, rhs: EntityID) -> Bool { lhs.rawValue < rhs.rawValue }
}

extension EntityID: ExpressibleByStringLiteral {
    /// For tests and fixtures only: traps on an invalid literal.
    public init(stringLiteral value: String) {
        guard let id = EntityID(value) else { preconditionFailure("invalid EntityID literal \(value)") }
        self = id
    }
}
