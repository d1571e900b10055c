import BoardCore

/// Reads the fields of one JSON object, turning every missing or mistyped field into a
/// `ProtocolError` that names it (`ops[2].minutes must be a number`).
struct FieldReader {
    /// Who wrote the JSON: input is validated, a board the server itself wrote out is trusted.
    enum Origin {
        case wire
        /// Rules that only input must obey are not checked (order keys are taken as they are
        /// and repaired when a room loads the board), so a board the server exported always
        /// imports.
        case server
    }

    let fields: [String: JSONValue]
    /// Where this object sits in the message, for error messages ("ops[2]"); empty at the top.
    let path: String
    let origin: Origin
    /// The keys asked for so far, for `refuseKeysNotRead`; nil unless the reader was made to
    /// refuse unknown keys (an operation), so every other object is read without the bookkeeping.
    private let keysRead: KeysRead?

    private final class KeysRead {
        var keys: Set<String> = []
    }

    init(_ value: JSONValue, path: String = "", origin: Origin = .wire, refusingUnknownKeys: Bool = false) throws(ProtocolError) {
        guard case .object(let fields) = value else {
            throw ProtocolError(.badMessage, "\(path.isEmpty ? "the message" : path) must be a JSON object")
        }
        self.fields = fields
        self.path = path
        self.origin = origin
        keysRead = refusingUnknownKeys ? KeysRead() : nil
    }

    func name(_ key: String) -> String { path.isEmpty ? key : "\(path).\(key)" }

    /// The value, or nil when the key is absent or null.
    func value(_ key: String) -> JSONValue? {
        keysRead?.keys.insert(key)
        return switch fields[key] {
        case nil, .null?: nil
        case let value?: value
        }
    }

    /// The field as written, null included: for the fields where null means "cleared".
    func written(_ key: String) -> JSONValue? {
        keysRead?.keys.insert(key)
        return fields[key]
    }

    /// Refuses a field nothing read: a typo (`titel`) or another operation's field
    /// (`sectionID` in `updateTimer`) would otherwise be dropped unseen and the edit acked.
    func refuseKeysNotRead() throws(ProtocolError) {
        guard let keysRead else { preconditionFailure("a FieldReader made without refusingUnknownKeys") }
        guard let unknown = fields.keys.filter({ !keysRead.keys.contains($0) }).min() else { return }
        let known = keysRead.keys.sorted().joined(separator: ", ")
        throw ProtocolError(.badMessage, "\(name(unknown)) is not a field here; the fields are \(known)")
    }

    private func missing(_ key: String) -> ProtocolError {
        ProtocolError(.badMessage, "\(name(key)) is missing")
    }

    private func wrongType(_ key: String, _ expected: String, _ found: JSONValue) -> ProtocolError {
        ProtocolError(.badMessage, "\(name(key)) must be \(expected), not \(found.typeName)")
    }

    func optionalString(_ key: String) throws(ProtocolError) -> String? {
        guard let value = value(key) else { return nil }
        guard case .string(let text) = value else { throw wrongType(key, "a string", value) }
        return text
    }

    func string(_ key: String) throws(ProtocolError) -> String {
        guard let text = try optionalString(key) else { throw missing(key) }
        return text
    }

    /// An integer field. The rule for every one (docs/protocol.md, "Errors"): any JSON number
    /// without a fraction is that integer (`2`, `2.0` and `2e0` alike); a number with a fraction,
    /// or too large to be exact, is `invalid_field`; anything but a number is `bad_message`.
    func optionalInt(_ key: String) throws(ProtocolError) -> Int64? {
        guard let value = value(key) else { return nil }
        switch value {
        case .int(let int): return int
        case .double(let double) where double == double.rounded() && abs(double) < 9e15: return Int64(double)
        case .double(let double) where double == double.rounded(): throw ProtocolError(.invalidField, "\(name(key)) is out of range")
        case .double: throw ProtocolError(.invalidField, "\(name(key)) must be a whole number")
        default: throw wrongType(key, "an integer", value)
        }
    }

    func int(_ key: String) throws(ProtocolError) -> Int64 {
        guard let int = try optionalInt(key) else { throw missing(key) }
        return int
    }

    func optionalNumber(_ key: String) throws(ProtocolError) -> Double? {
        guard let value = value(key) else { return nil }
        switch value {
        case .int(let int): return Double(int)
        case .double(let double): return double
        default: throw wrongType(key, "a number", value)
        }
    }

    /// The array at `key`; missing or of another type is an error.
    func array(_ key: String) throws(ProtocolError) -> [JSONValue] {
        guard case .array(let items)? = value(key) else {
            throw ProtocolError(.badMessage, "\(name(key)) must be an array")
        }
        return items
    }

    func optionalBool(_ key: String) throws(ProtocolError) -> Bool? {
        guard let value = value(key) else { return nil }
        guard case .bool(let bool) = value else { throw wrongType(key, "a boolean", value) }
        return bool
    }

    func bool(_ key: String) throws(ProtocolError) -> Bool {
        guard let bool = try optionalBool(key) else { throw missing(key) }
        return bool
    }

    func optionalID(_ key: String) throws(ProtocolError) -> EntityID? {
        guard let text = try optionalString(key) else { return nil }
        guard let id = EntityID(text) else {
            throw ProtocolError(.invalidField, "\(name(key)) must be 1 to 64 characters of A-Z a-z 0-9 _ -")
        }
        return id
    }

    func id(_ key: String) throws(ProtocolError) -> EntityID {
        guard let id = try optionalID(key) else { throw missing(key) }
        return id
    }

    func orderKey(_ key: String) throws(ProtocolError) -> OrderKey {
        guard let key = try optionalOrderKey(key) else { throw missing(key) }
        return key
    }

    func optionalOrderKey(_ key: String) throws(ProtocolError) -> OrderKey? {
        guard let text = try optionalString(key) else { return nil }
        if origin == .server { return OrderKey(stored: text) }
        guard let order = OrderKey(text) else { throw ProtocolError(.invalidField, "\(name(key)) is not a valid order key") }
        return order
    }

    /// An integer field that must fit in `Int` (minutes, seconds); range checks are the board's.
    func optionalSmallInt(_ key: String) throws(ProtocolError) -> Int? {
        guard let value = try optionalInt(key) else { return nil }
        guard let small = Int(exactly: value), abs(small) <= 1_000_000_000 else {
            throw ProtocolError(.invalidField, "\(name(key)) is out of range")
        }
        return small
    }

    func smallInt(_ key: String) throws(ProtocolError) -> Int {
        guard let value = try optionalSmallInt(key) else { throw missing(key) }
        return value
    }

    /// A number that may be null: nil when absent (unchanged), `.some(nil)` when null (cleared).
    func nullableInt(_ key: String) throws(ProtocolError) -> Int64?? {
        guard let value = written(key) else { return nil }
        if value == .null { return .some(nil) }
        return .some(try int(key))
    }

    /// A timer's `kind`, when present.
    func optionalKind(_ key: String) throws(ProtocolError) -> TimerKind? {
        guard let name = try optionalString(key) else { return nil }
        guard let kind = TimerKind(rawValue: name) else {
            throw ProtocolError(.invalidField, "\(self.name(key)) must be one of \(TimerKind.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        return kind
    }
}
