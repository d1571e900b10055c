import BoardCore
import Foundation

/// A board's content as JSON in the wire vocabulary, `{"sections":[…],"timers":[…]}`, the way a
/// snapshot carries it: for files that hold a board outside a connection (an export). The store
/// does not use it; its disk format is its own (BoardStore's `StoredFormat`).
public enum BoardJSON {
    public static func encode(_ board: Board) -> [UInt8] {
        var writer = JSONWriter(reservingCapacity: 128 * board.entityCount + 32)
        writer.beginObject()
        writer.boardContentFields(board)
        writer.endObject()
        return writer.bytes
    }

    /// Reads a board the server wrote: fields are checked, but order keys are taken as they
    /// are (a board is exported as stored, before a room repairs its keys), so what was
    /// exported always imports.
    public static func decode(_ data: Data) throws(ProtocolError) -> Board {
        guard let json = JSONValue.parse(data) else { throw ProtocolError(.badJSON, "the board is not JSON") }
        return try Board(wire: FieldReader(json, origin: .server))
    }
}
