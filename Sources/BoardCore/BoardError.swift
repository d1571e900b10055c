/// Why the board refused an operation or a change. The protocol maps each kind to a stable
/// wire code; the board itself knows nothing of the wire.
public struct BoardError: Error, Hashable, Sendable, CustomStringConvertible {
    public enum Kind: String, Hashable, Sendable {
        /// The id names no section or timer (or the wrong kind of entity).
        case notFound
        /// An insert reuses an id that a section or timer already has.
        case duplicateID
        /// A field's value is out of its allowed range or shape.
        case invalidField
        /// The board would exceed a configured size limit.
        case limitExceeded
        /// The operation does not apply to the entity as it is now (adjusting an idle timer,
        /// skipping in a section that is not a sequence).
        case invalidState
    }

    public let kind: Kind
    /// The entity the error is about, where there is one.
    public let entityID: EntityID?
    /// The field at fault, for `invalidField`.
    public let field: String?
    /// A sentence for people.
    public let message: String

    public init(kind: Kind, entityID: EntityID? = nil, field: String? = nil, message: String) {
        self.kind = kind
        self.entityID = entityID
        self.field = field
        self.message = message
    }

    public var description: String { "\(kind.rawValue): \(message)" }

    public static func notFound(_ id: EntityID, _ what: String = "section or timer") -> BoardError {
        BoardError(kind: .notFound, entityID: id, message: "no \(what) with id \(id)")
    }

    public static func duplicateID(_ id: EntityID) -> BoardError {
        BoardError(kind: .duplicateID, entityID: id, message: "id \(id) is already used on this board")
    }

    public static func invalidField(_ field: String, _ reason: String, entityID: EntityID? = nil) -> BoardError {
        BoardError(kind: .invalidField, entityID: entityID, field: field, message: "\(field) \(reason)")
    }

    public static func limitExceeded(_ message: String) -> BoardError {
        BoardError(kind: .limitExceeded, message: message)
    }

    public static func invalidState(_ id: EntityID, _ message: String) -> BoardError {
        BoardError(kind: .invalidState, entityID: id, message: message)
    }
}
