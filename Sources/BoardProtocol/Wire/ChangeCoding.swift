import BoardCore
import Foundation

/// JSON for stored changes and boards, shared by the stores so that the log on disk uses the
/// same vocabulary as the wire.
public enum ChangeCoding {
    /// A list of changes as a JSON array.
    public static func encode(_ changes: [Change]) -> [UInt8] {
        var writer = JSONWriter()
        writer.beginArray()
        for change in changes { writer.change(change) }
        writer.endArray()
        return writer.bytes
    }

    public static func decodeChanges(_ data: Data) throws(ProtocolError) -> [Change] {
        guard case .array(let items)? = JSONValue.parse(data) else {
            throw ProtocolError(.badJSON, "stored changes are not a JSON array")
        }
        return try items.enumerated().map { (index, item) throws(ProtocolError) in
            try Change(wire: item, path: "changes[\(index)]", origin: .store)
        }
    }

    /// A whole board as `{"sections":[…],"timers":[…]}`.
    public static func encode(_ board: Board) -> [UInt8] {
        var writer = JSONWriter(reservingCapacity: 128 * board.entityCount + 32)
        writer.beginObject()
        writer.key("sections")
        writer.beginArray()
        for section in board.orderedSections { writer.section(section) }
        writer.endArray()
        writer.key("timers")
        writer.beginArray()
        for timer in board.orderedTimers { writer.timer(timer) }
        writer.endArray()
        writer.endObject()
        return writer.bytes
    }

    public static func decodeBoard(_ data: Data) throws(ProtocolError) -> Board {
        guard let json = JSONValue.parse(data) else { throw ProtocolError(.badJSON, "stored board is not JSON") }
        return try decodeBoard(FieldReader(json, origin: .store))
    }

    static func decodeBoard(_ reader: FieldReader) throws(ProtocolError) -> Board {
        let sections = try array(reader, "sections").enumerated().map { (index, value) throws(ProtocolError) in
            try Section(wire: FieldReader(value, path: "sections[\(index)]", origin: reader.origin))
        }
        let timers = try array(reader, "timers").enumerated().map { (index, value) throws(ProtocolError) in
            try BoardTimer(wire: FieldReader(value, path: "timers[\(index)]", origin: reader.origin))
        }
        do {
            return try Board(sections: sections, timers: timers)
        } catch {
            throw ProtocolError(ErrorCode(error.kind), error.message)
        }
    }

    static func array(_ reader: FieldReader, _ key: String) throws(ProtocolError) -> [JSONValue] {
        guard case .array(let items)? = reader.value(key) else {
            throw ProtocolError(.badMessage, "\(reader.name(key)) must be an array")
        }
        return items
    }
}
