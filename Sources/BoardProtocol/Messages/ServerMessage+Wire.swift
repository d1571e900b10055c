import BoardCore
import Foundation

extension ServerMessage {
    /// The message as compact JSON text. A changeset is encoded once and the same bytes go to
    /// every subscriber.
    public func encoded() -> [UInt8] {
        var writer = JSONWriter()
        writer.beginObject()
        switch self {
        case .welcome(let serverTime, let limits):
            writer.field("type", MessageType.welcome)
            writer.field("protocol", protocolVersion)
            writer.field("serverTime", serverTime)
            writer.key("limits")
            writer.beginObject()
            writer.field("maxMessageBytes", limits.maxMessageBytes)
            writer.field("maxOpsPerEdit", limits.maxOpsPerEdit)
            writer.field("maxTitleLength", limits.board.maxTitleLength)
            writer.field("maxMinutes", limits.board.maxMinutes)
            writer.field("maxSeconds", BoardLimits.maxSeconds)
            writer.field("maxSections", limits.board.maxSections)
            writer.field("maxTimers", limits.board.maxTimers)
            writer.endObject()
        case .snapshot(let snapshot):
            writer.field("type", MessageType.snapshot)
            writer.field("board", snapshot.board)
            writer.field("title", snapshot.title)
            writer.field("rev", snapshot.revision)
            writer.boardContentFields(snapshot.content)
        case .access(let board, let role, let userID):
            writer.field("type", MessageType.access)
            writer.field("board", board)
            writer.field("role", role.rawValue)
            writer.field("userId", userID)
        case .resume(let board, let title, let since, let revision):
            writer.field("type", MessageType.resume)
            writer.field("board", board)
            writer.field("title", title)
            writer.field("since", since)
            writer.field("rev", revision)
        case .renamed(let title):
            writer.field("type", MessageType.renamed)
            writer.field("title", title)
        case .changes(let changeset):
            writer.field("type", MessageType.changes)
            writer.field("rev", changeset.revision)
            writer.key("changes")
            writer.beginArray()
            for change in changeset.changes { writer.change(change) }
            writer.endArray()
        case .ack(let opID, let revision, let duplicate, let skipped, let unchanged):
            writer.field("type", MessageType.ack)
            writer.field("opId", opID)
            writer.field("rev", revision)
            if duplicate { writer.field("duplicate", true) }
            if unchanged { writer.field("unchanged", true) }
            if !skipped.isEmpty {
                writer.key("skipped")
                writer.beginArray()
                for field in skipped {
                    writer.beginObject()
                    if let id = field.id { writer.field("id", id.rawValue) }
                    writer.field("field", field.field)
                    writer.endObject()
                }
                writer.endArray()
            }
        case .reject(let reject):
            writer.field("type", MessageType.reject)
            writer.field("opId", reject.opID)
            writer.field("code", reject.code.rawValue)
            writer.field("message", reject.message)
            if let opIndex = reject.opIndex { writer.field("op", opIndex) }
            if let retryAfterMs = reject.retryAfterMs { writer.field("retryAfterMs", retryAfterMs) }
            switch reject.current {
            case .section(let section)?:
                writer.key("current")
                writer.section(section)
            case .timer(let timer)?:
                writer.key("current")
                writer.timer(timer)
            case nil: break
            }
        case .pong(let t, let serverTime):
            writer.field("type", MessageType.pong)
            // A ping without `t` gets a pong without it: nothing made up is echoed.
            if let t {
                writer.key("t")
                writer.double(t)
            }
            writer.field("serverTime", serverTime)
        case .error(let code, let message, let retryAfterMs):
            writer.field("type", MessageType.error)
            writer.field("code", code.rawValue)
            writer.field("message", message)
            if let retryAfterMs { writer.field("retryAfterMs", retryAfterMs) }
        case .presence(let users, let more):
            writer.field("type", MessageType.presence)
            writer.presenceUsers(users)
            if more > 0 { writer.field("more", more) }
        case .presenceChanged(let users, let left, let more):
            writer.field("type", MessageType.presenceChanged)
            writer.presenceUsers(users)
            writer.key("left")
            writer.beginArray()
            for userID in left { writer.string(userID) }
            writer.endArray()
            if let more { writer.field("more", more) }
        }
        writer.endObject()
        return writer.bytes
    }

    /// Reads a server message, as a client (the tests, the load generator) does.
    public static func decode(_ data: Data) throws(ProtocolError) -> ServerMessage {
        guard let json = JSONValue.parse(data) else { throw ProtocolError(.badJSON, "not JSON") }
        let reader = try FieldReader(json)
        let type = try reader.string("type")
        switch type {
        case MessageType.welcome:
            let limitsReader = try FieldReader(reader.value("limits") ?? .null, path: "limits")
            let board = BoardLimits(
                maxTitleLength: try limitsReader.smallInt("maxTitleLength"),
                maxMinutes: try limitsReader.smallInt("maxMinutes"),
                maxSections: try limitsReader.smallInt("maxSections"),
                maxTimers: try limitsReader.smallInt("maxTimers")
            )
            let limits = ProtocolLimits(
                maxMessageBytes: try limitsReader.smallInt("maxMessageBytes"),
                maxOpsPerEdit: try limitsReader.smallInt("maxOpsPerEdit"),
                board: board
            )
            return .welcome(serverTime: try reader.int("serverTime"), limits: limits)
        case MessageType.snapshot:
            let content = try Board(wire: reader)
            return .snapshot(
                Snapshot(board: try reader.string("board"), title: try reader.string("title"), revision: try reader.int("rev"), content: content)
            )
        case MessageType.resume:
            return .resume(
                board: try reader.string("board"),
                title: try reader.string("title"),
                since: try reader.int("since"),
                revision: try reader.int("rev")
            )
        case MessageType.access:
            let roleName = try reader.string("role")
            guard let role = BoardRole(rawValue: roleName) else { throw ProtocolError(.invalidField, "role \"\(roleName)\" is not known") }
            return .access(board: try reader.string("board"), role: role, userID: try reader.string("userId"))
        case MessageType.renamed:
            return .renamed(title: try reader.string("title"))
        case MessageType.changes:
            let changes = try reader.array("changes").enumerated().map { (index, value) throws(ProtocolError) in
                try Change(wire: value, path: "changes[\(index)]")
            }
            return .changes(Changeset(revision: try reader.int("rev"), changes: changes))
        case MessageType.ack:
            return .ack(
                opID: try reader.string("opId"),
                revision: try reader.int("rev"),
                duplicate: try reader.optionalBool("duplicate") ?? false,
                skipped: try (reader.value("skipped") == nil ? [] : reader.array("skipped")).enumerated().map { (index, item) throws(ProtocolError) in
                    let field = try FieldReader(item, path: "skipped[\(index)]")
                    return SkippedField(id: try field.optionalID("id"), field: try field.string("field"))
                },
                unchanged: try reader.optionalBool("unchanged") ?? false
            )
        case MessageType.reject:
            var current: Entity?
            if let value = reader.value("current") {
                let entity = try FieldReader(value, path: "current")
                current =
                    entity.value("sectionID") == nil
                    ? .section(try Section(wire: entity)) : .timer(try BoardTimer(wire: entity))
            }
            return .reject(
                Reject(
                    opID: try reader.string("opId"),
                    code: try errorCode(reader),
                    message: try reader.string("message"),
                    opIndex: try reader.optionalSmallInt("op"),
                    current: current,
                    retryAfterMs: try reader.optionalInt("retryAfterMs")
                )
            )
        case MessageType.pong:
            return .pong(t: try reader.optionalNumber("t"), serverTime: try reader.int("serverTime"))
        case MessageType.error:
            return .error(code: try errorCode(reader), message: try reader.string("message"), retryAfterMs: try reader.optionalInt("retryAfterMs"))
        case MessageType.presence:
            return .presence(try presenceUsers(reader), more: Int(try reader.optionalInt("more") ?? 0))
        case MessageType.presenceChanged:
            let left = try reader.array("left").enumerated().map { (index, value) throws(ProtocolError) in
                guard case .string(let userID) = value else { throw ProtocolError(.badMessage, "left[\(index)] must be a string") }
                return userID
            }
            return .presenceChanged(users: try presenceUsers(reader), left: left, more: try reader.optionalInt("more").map { Int($0) })
        default:
            throw ProtocolError(.unknownType, "\"\(type)\" is not a server message type")
        }
    }

    private static func presenceUsers(_ reader: FieldReader) throws(ProtocolError) -> [PresenceUser] {
        try reader.array("users").enumerated().map { (index, value) throws(ProtocolError) in
            let user = try FieldReader(value, path: "users[\(index)]")
            return PresenceUser(
                userID: try user.string("userId"),
                name: try user.string("name"),
                color: try user.string("color"),
                editing: try user.optionalID("editing"),
                clockError: try user.optionalInt("clockError")
            )
        }
    }

    private static func errorCode(_ reader: FieldReader) throws(ProtocolError) -> ErrorCode {
        let text = try reader.string("code")
        guard let code = ErrorCode(rawValue: text) else { throw ProtocolError(.badMessage, "unknown error code \(text)") }
        return code
    }
}
