import BoardCore

/// Every message a client may send (docs/protocol.md, "Messages from the client").
public enum ClientMessage: Hashable, Sendable {
    case hello(Hello)
    case join(Join)
    case edit(Edit)
    /// `t` (optional: any number, usually the client's clock) is echoed back in the pong.
    case ping(t: Double?)
    case leave
    /// What this client is editing now (a section or timer id), for the others to see, and
    /// the bound of its clock's error in milliseconds (nil: unchanged).
    case presence(editing: EntityID?, clockError: Int64? = nil)

    /// The largest `clockError` a client may report, in milliseconds: it caps its bound there.
    public static let maxClockError: Int64 = 60_000

    public struct Hello: Hashable, Sendable {
        public var protocolVersion: Int
        public var clientID: String
        public var name: String?

        public init(protocolVersion: Int = BoardProtocol.protocolVersion, clientID: String, name: String? = nil) {
            self.protocolVersion = protocolVersion
            self.clientID = clientID
            self.name = name
        }
    }

    public struct Join: Hashable, Sendable {
        public var board: String
        /// One of the board's link secrets; its role decides what the connection may do.
        public var secret: String
        /// The last revision the client applied, to resume from.
        public var since: Int64?

        public init(board: String, secret: String, since: Int64? = nil) {
            self.board = board
            self.secret = secret
            self.since = since
        }
    }

    public struct Edit: Hashable, Sendable {
        public var opID: String
        public var ops: [BoardOperation]
        /// The opId of this client's own earlier edit that this one undoes (`{"op":"undo","opId":…}`,
        /// alone in its edit); `ops` is then empty.
        public var undoing: String?

        public init(opID: String, ops: [BoardOperation]) {
            self.opID = opID
            self.ops = ops
        }

        /// An edit that undoes this client's own edit `target`.
        public init(opID: String, undoing target: String) {
            self.opID = opID
            ops = []
            undoing = target
        }
    }
}

/// The message types' wire names.
enum MessageType {
    static let hello = "hello"
    static let join = "join"
    static let edit = "edit"
    static let ping = "ping"
    static let leave = "leave"
    static let presence = "presence"
    static let welcome = "welcome"
    static let snapshot = "snapshot"
    static let resume = "resume"
    static let access = "access"
    static let renamed = "renamed"
    static let changes = "changes"
    static let ack = "ack"
    static let reject = "reject"
    static let pong = "pong"
    static let error = "error"
    static let presenceChanged = "presenceChanged"
}
