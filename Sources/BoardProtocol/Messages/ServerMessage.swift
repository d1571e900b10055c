import BoardCore

/// Every message the server sends (docs/protocol.md, "Messages from the server").
public enum ServerMessage: Hashable, Sendable {
    case welcome(serverTime: Int64, limits: ProtocolLimits)
    case snapshot(Snapshot)
    /// The first answer to a join: the role the secret gives and the joiner's id in presence.
    case access(board: String, role: BoardRole, userID: String)
    case resume(board: String, title: String, since: Int64, revision: Int64)
    /// The owner renamed the board.
    case renamed(title: String)
    case changes(Changeset)
    /// The edit is stored at `revision`. For an undo, `skipped` names what it left as it was,
    /// because someone else changed it since the edit being undone. `unchanged`: the edit changed
    /// nothing (the board had its values already; an undo whose every field was changed since),
    /// so `revision` is the board's revision as it was and there is nothing to undo.
    case ack(opID: String, revision: Int64, duplicate: Bool, skipped: [SkippedField] = [], unchanged: Bool = false)
    case reject(Reject)
    case pong(t: Double?, serverTime: Int64)
    /// `retryAfterMs` only with `rate_limited` (a join over the budget): how long to wait.
    case error(code: ErrorCode, message: String, retryAfterMs: Int64? = nil)
    /// Everyone on the board now, the receiver included; sent to a client when it joins. Never stored.
    /// `more`: users on the board the list does not name (it names at most 100).
    case presence([PresenceUser], more: Int = 0)
    /// Who arrived or changed what they edit (`users`) and who is no longer listed (`left`,
    /// user ids) since the last presence message, and how many are unlisted now (`more`; nil
    /// when unchanged at none). Sent to everyone on the board, a few at a time, so that a crowd
    /// joining costs each client small updates rather than the whole list again and again.
    case presenceChanged(users: [PresenceUser], left: [String], more: Int? = nil)

    public struct PresenceUser: Hashable, Sendable {
        /// Derived from the board and the client id, which stays secret (it keys idempotency).
        public var userID: String
        public var name: String
        /// A CSS colour, the same for a user id every time.
        public var color: String
        public var editing: EntityID?
        /// The bound of the error of this user's clock, in milliseconds, as it last reported
        /// it; nil when it never did.
        public var clockError: Int64?

        public init(userID: String, name: String, color: String, editing: EntityID?, clockError: Int64? = nil) {
            self.userID = userID
            self.name = name
            self.color = color
            self.editing = editing
            self.clockError = clockError
        }
    }

    public struct Snapshot: Hashable, Sendable {
        public var board: String
        /// The board's name, as given when it was created or last renamed.
        public var title: String
        public var revision: Int64
        public var content: Board

        public init(board: String, title: String, revision: Int64, content: Board) {
            self.board = board
            self.title = title
            self.revision = revision
            self.content = content
        }
    }

    public struct Reject: Hashable, Sendable {
        public var opID: String
        public var code: ErrorCode
        public var message: String
        public var opIndex: Int?
        /// The current state of the entity the failing operation named, when it exists.
        public var current: Entity?
        /// With `rate_limited`: how long to wait before sending the edit again.
        public var retryAfterMs: Int64?

        public init(opID: String, code: ErrorCode, message: String, opIndex: Int? = nil, current: Entity? = nil, retryAfterMs: Int64? = nil) {
            self.opID = opID
            self.code = code
            self.message = message
            self.opIndex = opIndex
            self.current = current
            self.retryAfterMs = retryAfterMs
        }
    }

    /// A section or a timer, for a reject's `current`.
    public enum Entity: Hashable, Sendable {
        case section(Section)
        case timer(BoardTimer)
    }
}
