import BoardCore
import BoardProtocol
import BoardStore
import Foundation

/// One board as a JSON file, to move it between servers or keep it aside
/// (`timerboard export BOARD`, `timerboard import FILE`):
///
///     {"format":"timerboard.board","version":1,"id":"kT3vQ9mZ2pXa","title":"Kitchen",
///      "createdDate":1714550000000,"revision":42,"exportedAt":1714553600000,
///      "access":{"ownerHash":"…hex…","editHash":"…","viewHash":"…","editGeneration":0,"viewGeneration":1},
///      "board":{"sections":[…],"timers":[…]}}
///
/// `board` is the snapshot's content in the wire vocabulary (docs/protocol.md). `access` holds
/// the SHA-256 hashes of the link secrets, never the secrets: the board's links keep working
/// after an import, and nobody can get a link back from the file. The change log and the
/// remembered edit outcomes stay behind; an imported board starts again at revision 1, so a
/// client that had it open gets a snapshot when it rejoins.
public enum BoardTransfer {
    /// The `format` of every export file.
    public static let format = "timerboard.board"
    public static let version = 1

    /// Why an import refused a file.
    public struct ImportError: Error, CustomStringConvertible {
        public let description: String
    }

    /// The board as an export file's JSON; nil when the store has no such board.
    public static func export(boardID: String, store: any BoardStore, now: Int64) async throws -> [UInt8]? {
        guard let stored = try await store.loadBoard(id: boardID) else { return nil }
        var writer = JSONWriter()
        writer.beginObject()
        writer.field("format", format)
        writer.field("version", version)
        writer.field("id", stored.info.id)
        writer.field("title", stored.info.title)
        writer.field("createdDate", stored.info.createdDate)
        writer.field("revision", stored.revision)
        writer.field("exportedAt", now)
        writer.key("access")
        if let access = stored.access {
            writer.beginObject()
            writer.field("ownerHash", hex(access.ownerHash))
            writer.field("editHash", hex(access.editHash))
            writer.field("viewHash", hex(access.viewHash))
            writer.field("editGeneration", access.editGeneration)
            writer.field("viewGeneration", access.viewGeneration)
            writer.endObject()
        } else {
            writer.null()
        }
        writer.key("board")
        writer.raw(BoardJSON.encode(stored.content))
        writer.endObject()
        return writer.bytes
    }

    /// What an import added.
    public struct Imported: Sendable {
        public let info: BoardInfo
        /// New links by role when the file had no access (a board made before links existed);
        /// nil when the board's old links go on working.
        public let newLinks: [(role: BoardRole, path: String)]?
    }

    /// Adds the board of an export file to the store, under its own id, as one changeset that
    /// inserts everything (revision 1, with a snapshot). Throws `ImportError` for a file that is
    /// not an export, `StoreError.duplicateBoard` when the id is taken.
    @discardableResult
    public static func importBoard(_ data: Data, store: any BoardStore, now: Int64) async throws -> Imported {
        guard case .object(let file)? = JSONValue.parse(data) else { throw ImportError(description: "the file is not JSON") }
        guard case .string(format)? = file["format"] else {
            throw ImportError(description: "the file is not a TimerBoard board export (its \"format\" is not \"\(format)\")")
        }
        guard case .int(let fileVersion)? = file["version"], fileVersion == version else {
            throw ImportError(description: "this server reads export version \(version), not \(file["version"].map { "\($0)" } ?? "none")")
        }
        guard case .string(let id)? = file["id"], EntityID(id) != nil else {
            throw ImportError(description: "\"id\" must be a board id")
        }
        guard case .string(let title)? = file["title"] else { throw ImportError(description: "\"title\" must be a string") }
        guard case .int(let createdDate)? = file["createdDate"] else { throw ImportError(description: "\"createdDate\" must be a number") }
        guard let boardJSON = file["board"] else { throw ImportError(description: "\"board\" is missing") }
        var boardWriter = JSONWriter()
        boardJSON.write(to: &boardWriter)
        let board: Board
        do {
            board = try BoardJSON.decode(Data(boardWriter.bytes))
        } catch {
            throw ImportError(description: "\"board\": \(error.message)")
        }
        let info = BoardInfo(id: id, title: title, createdDate: createdDate)
        var newLinks: [(role: BoardRole, path: String)]?
        let access: BoardAccess
        if let old = try readAccess(file["access"]) {
            access = old
        } else {
            // A board made before links existed: it gets links now, as `reset-links` would.
            let secrets = BoardSecrets.mint()
            access = secrets.access
            newLinks = BoardRole.allCases.map { ($0, BoardSecrets.link(boardID: id, role: $0, secret: secrets.secret(for: $0))) }
        }
        try await store.createBoard(info, access: access)
        let changes = diff(Board(), board)
        if !changes.isEmpty {
            let changeset = StoredChangeset(boardID: id, revision: 1, changes: changes, clientID: nil, opID: nil, time: now)
            try await store.append([changeset], snapshot: board)
        }
        return Imported(info: info, newLinks: newLinks)
    }

    private static func readAccess(_ value: JSONValue?) throws(ImportError) -> BoardAccess? {
        guard let value, value != .null else { return nil }
        guard case .object(let fields) = value,
            case .string(let owner)? = fields["ownerHash"], let ownerHash = bytes(hex: owner),
            case .string(let edit)? = fields["editHash"], let editHash = bytes(hex: edit),
            case .string(let view)? = fields["viewHash"], let viewHash = bytes(hex: view),
            case .int(let editGeneration)? = fields["editGeneration"],
            case .int(let viewGeneration)? = fields["viewGeneration"]
        else {
            throw ImportError(description: "\"access\" must hold ownerHash, editHash and viewHash (64 hex digits each) and two generations")
        }
        return BoardAccess(
            ownerHash: ownerHash,
            editHash: editHash,
            viewHash: viewHash,
            editGeneration: Int(editGeneration),
            viewGeneration: Int(viewGeneration)
        )
    }

    private static func hex(_ bytes: [UInt8]) -> String {
        bytes.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
    }

    /// A SHA-256 hash from 64 hex digits; nil for anything else.
    private static func bytes(hex text: String) -> [UInt8]? {
        let digits = Array(text.utf8)
        guard digits.count == 64 else { return nil }
        var bytes: [UInt8] = []
        for index in stride(from: 0, to: 64, by: 2) {
            guard let byte = UInt8(String(decoding: digits[index..<index + 2], as: UTF8.self), radix: 16) else { return nil }
            bytes.append(byte)
        }
        return bytes
    }
}
