import BoardCore
import Foundation

extension ClientMessage {
    /// Reads one client message, enforcing the message limits.
    ///
    /// Every failure is a `ProtocolError` with its wire code; when the message is an edit whose
    /// `opId` could be read, the error carries it, so the client gets a `reject` for that edit.
    public static func decode(_ data: Data, limits: ProtocolLimits) throws(ProtocolError) -> ClientMessage {
        // An oversized message is still read when it can be, only to find the opId to reject.
        let tooLarge = data.count > limits.maxMessageBytes
        let tooLargeError = ProtocolError(.tooLarge, "the message is \(data.count) bytes; the limit is \(limits.maxMessageBytes)")
        guard let json = JSONValue.parse(data), case .object = json else {
            if tooLarge { throw tooLargeError }
            guard JSONValue.parse(data) != nil else {
                throw ProtocolError(.badJSON, "the message is not valid JSON (or has a number beyond a double's range)")
            }
            throw ProtocolError(.badJSON, "the message is not a JSON object")
        }
        let reader = try FieldReader(json)
        guard let type = try? reader.string("type") else {
            if tooLarge { throw tooLargeError }
            throw ProtocolError(.unknownType, reader.value("type") == nil ? "the message has no type" : "type must be a string")
        }
        switch type {
        case MessageType.hello:
            guard !tooLarge else { throw tooLargeError }
            guard let version = try reader.optionalInt("protocol") else {
                throw ProtocolError(.badMessage, "protocol is missing")
            }
            let clientID = try reader.string("clientId")
            guard EntityID.isValid(clientID) else {
                throw ProtocolError(.invalidField, "clientId must be 1 to 64 characters of A-Z a-z 0-9 _ -")
            }
            let name = try reader.optionalString("name")
            if let name,
                name.count > 40 || name.utf8.count > 160 || OneLineText.breaksALine(name)
            {
                throw ProtocolError(.invalidField, "name must be at most 40 characters and 160 bytes, without control characters or line breaks")
            }
            return .hello(Hello(protocolVersion: Int(clamping: version), clientID: clientID, name: name))
        case MessageType.join:
            guard !tooLarge else { throw tooLargeError }
            let board = try reader.string("board")
            // A join without a secret is answered as one with a wrong secret: no such board.
            let secret = try reader.optionalString("secret") ?? ""
            let since = try reader.optionalInt("since")
            if let since, since < 0 { throw ProtocolError(.invalidField, "since must not be negative") }
            return .join(Join(board: board, secret: secret, since: since))
        case MessageType.edit:
            return .edit(try decodeEdit(reader, tooLarge: tooLarge ? tooLargeError : nil, limits: limits))
        case MessageType.ping:
            guard !tooLarge else { throw tooLargeError }
            return .ping(t: try reader.optionalNumber("t"))
        case MessageType.leave:
            guard !tooLarge else { throw tooLargeError }
            return .leave
        case MessageType.presence:
            guard !tooLarge else { throw tooLargeError }
            let clockError = try reader.optionalInt("clockError")
            if let clockError, !(0...maxClockError).contains(clockError) {
                throw ProtocolError(.invalidField, "clockError must be between 0 and \(maxClockError) milliseconds")
            }
            return .presence(editing: try reader.optionalID("editing"), clockError: clockError)
        default:
            if tooLarge { throw tooLargeError }
            throw ProtocolError(.unknownType, "\"\(type)\" is not a message type")
        }
    }

    /// Reads an edit sent as the body of `POST /api/boards/ID/edits`: the same object as a
    /// WebSocket `edit`, its `type` optional.
    public static func decodeEdit(_ data: Data, limits: ProtocolLimits) throws(ProtocolError) -> Edit {
        guard data.count <= limits.maxMessageBytes else {
            throw ProtocolError(.tooLarge, "the edit is \(data.count) bytes; the limit is \(limits.maxMessageBytes)")
        }
        guard let json = JSONValue.parse(data), case .object = json else { throw ProtocolError(.badJSON, "the body is not a JSON object") }
        let reader = try FieldReader(json)
        if let type = try reader.optionalString("type"), type != MessageType.edit {
            throw ProtocolError(.unknownType, "the body of an edit has type \"edit\" or none, not \"\(type)\"")
        }
        return try decodeEdit(reader, tooLarge: nil, limits: limits)
    }

    /// An edit's opId and operations; a failure after the opId was read carries it.
    private static func decodeEdit(_ reader: FieldReader, tooLarge: ProtocolError?, limits: ProtocolLimits) throws(ProtocolError) -> Edit {
        let opID = try reader.string("opId")
        // Counted as a person counts (grapheme clusters), with a byte bound too, as titles are.
        guard (1...ProtocolLimits.maxOpIDCharacters).contains(opID.count), opID.utf8.count <= ProtocolLimits.maxOpIDBytes else {
            throw ProtocolError(
                .invalidField,
                "opId must be 1 to \(ProtocolLimits.maxOpIDCharacters) characters and at most \(ProtocolLimits.maxOpIDBytes) bytes"
            )
        }
        do throws(ProtocolError) {
            if let tooLarge { throw tooLarge }
            if let target = try undoTarget(reader) { return Edit(opID: opID, undoing: target) }
            return Edit(opID: opID, ops: try decodeOperations(reader, limits: limits))
        } catch {
            var error = error
            error.opID = opID
            throw error
        }
    }

    /// The opId an edit of one `{"op":"undo","opId":…}` undoes; nil for any other edit. An undo
    /// goes alone: with other operations it is refused.
    private static func undoTarget(_ reader: FieldReader) throws(ProtocolError) -> String? {
        guard case .array(let items)? = reader.value("ops") else { return nil }
        let undoIndices = items.indices.filter { index in
            if case .object(let fields) = items[index], case .string("undo")? = fields["op"] { true } else { false }
        }
        guard let index = undoIndices.first else { return nil }
        guard items.count == 1 else {
            throw ProtocolError(.badMessage, "an undo goes alone in its edit: send the other operations in an edit of their own", opIndex: index)
        }
        let undo = try FieldReader(items[index], path: "ops[0]", refusingUnknownKeys: true)
        _ = undo.value("op")
        let target = try undo.string("opId")
        do throws(ProtocolError) {
            try undo.refuseKeysNotRead()
        } catch {
            var error = error
            error.opIndex = 0
            throw error
        }
        guard (1...ProtocolLimits.maxOpIDCharacters).contains(target.count), target.utf8.count <= ProtocolLimits.maxOpIDBytes else {
            throw ProtocolError(.invalidField, "ops[0].opId must be the opId of an edit of yours", opIndex: 0)
        }
        return target
    }

    private static func decodeOperations(_ reader: FieldReader, limits: ProtocolLimits) throws(ProtocolError) -> [BoardOperation] {
        guard let value = reader.value("ops") else { throw ProtocolError(.badMessage, "ops is missing") }
        guard case .array(let items) = value else {
            throw ProtocolError(.badMessage, "ops must be an array, not \(value.typeName)")
        }
        guard !items.isEmpty else { throw ProtocolError(.badMessage, "ops must not be empty") }
        guard items.count <= limits.maxOpsPerEdit else {
            throw ProtocolError(.tooManyOps, "an edit has at most \(limits.maxOpsPerEdit) operations; this one has \(items.count)")
        }
        var operations: [BoardOperation] = []
        operations.reserveCapacity(items.count)
        for (index, item) in items.enumerated() {
            do throws(ProtocolError) {
                operations.append(try BoardOperation(wire: item, path: "ops[\(index)]"))
            } catch {
                var error = error
                error.opIndex = index
                throw error
            }
        }
        return operations
    }

    /// The message as JSON text, as a client sends it.
    public func encoded() -> [UInt8] {
        var writer = JSONWriter()
        writer.beginObject()
        switch self {
        case .hello(let hello):
            writer.field("type", MessageType.hello)
            writer.field("protocol", hello.protocolVersion)
            writer.field("clientId", hello.clientID)
            if let name = hello.name { writer.field("name", name) }
        case .join(let join):
            writer.field("type", MessageType.join)
            writer.field("board", join.board)
            writer.field("secret", join.secret)
            if let since = join.since { writer.field("since", since) }
        case .edit(let edit):
            writer.field("type", MessageType.edit)
            writer.field("opId", edit.opID)
            writer.key("ops")
            writer.beginArray()
            if let target = edit.undoing {
                writer.beginObject()
                writer.field("op", "undo")
                writer.field("opId", target)
                writer.endObject()
            }
            for operation in edit.ops { writer.operation(operation) }
            writer.endArray()
        case .ping(let t):
            writer.field("type", MessageType.ping)
            if let t {
                writer.key("t")
                writer.double(t)
            }
        case .leave:
            writer.field("type", MessageType.leave)
        case .presence(let editing, let clockError):
            writer.field("type", MessageType.presence)
            writer.key("editing")
            if let editing { writer.string(editing.rawValue) } else { writer.null() }
            if let clockError { writer.field("clockError", clockError) }
        }
        writer.endObject()
        return writer.bytes
    }
}
