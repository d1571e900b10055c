import BoardCore

/// The stable error codes of the wire protocol (docs/protocol.md, "Errors").
public enum ErrorCode: String, Hashable, Sendable, CaseIterable {
    case badJSON = "bad_json"
    case unknownType = "unknown_type"
    case badMessage = "bad_message"
    case unknownOp = "unknown_op"
    case invalidField = "invalid_field"
    case notFound = "not_found"
    case duplicateID = "duplicate_id"
    case limitExceeded = "limit_exceeded"
    /// The operation does not apply to the entity as it is now (adjusting an idle timer).
    case invalidState = "invalid_state"
    case tooManyOps = "too_many_ops"
    case tooLarge = "too_large"
    case versionMismatch = "version_mismatch"
    case helloRequired = "hello_required"
    case notJoined = "not_joined"
    case boardNotFound = "board_not_found"
    /// The link's role may not do this (a view link editing), or a page of another site may
    /// not (its `Origin` is not allowed).
    case forbidden = "forbidden"
    /// The connection sent edits faster than its budget allows; nothing changed, send the edit
    /// again after `retryAfterMs`. Over HTTP (429), too many boards created from one address.
    case rateLimited = "rate_limited"
    /// The server cannot store anything now (a full disk, a failing database); try again later.
    case unavailable = "unavailable"
    /// HTTP only (503 with `Retry-After`): the server, or the client's address, has as many
    /// connections open as it allows; a refused WebSocket upgrade says this, never `unavailable`.
    case tooManyConnections = "too_many_connections"
    case `internal` = "internal"

    /// The one place where a domain error becomes a wire code.
    public init(_ kind: BoardError.Kind) {
        switch kind {
        case .notFound: self = .notFound
        case .duplicateID: self = .duplicateID
        case .invalidField: self = .invalidField
        case .limitExceeded: self = .limitExceeded
        case .invalidState: self = .invalidState
        }
    }
}

/// A request the server cannot accept, as it goes back to the client.
public struct ProtocolError: Error, Hashable, Sendable, CustomStringConvertible {
    public let code: ErrorCode
    public let message: String
    /// The edit's opId when the failing message was an edit whose opId could be read:
    /// the answer is then a `reject` instead of an `error`.
    public var opID: String?
    /// The index of the failing operation, when one operation is to blame.
    public var opIndex: Int?

    public init(_ code: ErrorCode, _ message: String, opID: String? = nil, opIndex: Int? = nil) {
        self.code = code
        self.message = message
        self.opID = opID
        self.opIndex = opIndex
    }

    public var description: String { "\(code.rawValue): \(message)" }
}
