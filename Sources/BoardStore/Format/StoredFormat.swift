import BoardCore
import Foundation

/// The version of the JSON the store writes for changesets and snapshots, kept in every row
/// beside the JSON itself.
///
/// The disk format is the store's own, not the wire's: a change to the protocol must not
/// change what is on disk, and what was written once must be read by every later version. A
/// new format is a new case with its own codec; rows keep the format they were written in
/// and are read by it, so nothing has to be rewritten when the format moves on.
public enum StoredFormat: Int, Sendable, CaseIterable {
    /// Compact JSON, field names as protocol version 1 had them when it was frozen for the
    /// disk (`StoredFormat1`). Rows from before the format column are this one.
    case json1 = 1
    /// Format 1 plus warnings, sequences and when a timer finished (`StoredFormat2`); a board
    /// that uses none of them has the bytes format 1 would write.
    case json2 = 2
    /// Format 2 plus a board's display (message, blackout, time zone) and time of day (a timer's
    /// kind, scheduled start and target time, a section's finish-together instant): `StoredFormat3`.
    case json3 = 3

    /// What new rows are written in.
    public static let current = StoredFormat.json3

    /// Changes as one JSON array, in the current format.
    static func encode(_ changes: [Change]) -> [UInt8] {
        StoredFormat2.encode(changes)
    }

    /// A whole board, in the current format.
    static func encode(_ board: Board) -> [UInt8] {
        StoredFormat2.encode(board)
    }

    /// Reads the changes of one log row written in format `rawFormat`.
    static func decodeChanges(_ text: String, format rawFormat: Int, boardID: String, revision: Int64) throws(StoreError) -> [Change] {
        let format = try Self.format(rawFormat, boardID: boardID, revision: revision, what: "changeset")
        do {
            switch format {
            case .json1: return try StoredFormat1.decodeChanges(Data(text.utf8))
            case .json2, .json3: return try StoredFormat2.decodeChanges(Data(text.utf8))
            }
        } catch {
            throw StoreError(.corrupt, boardID: boardID, revision: revision, "the changeset cannot be read: \(error)")
        }
    }

    /// Reads a snapshot row written in format `rawFormat`.
    static func decodeBoard(_ text: String, format rawFormat: Int, boardID: String, revision: Int64) throws(StoreError) -> Board {
        let format = try Self.format(rawFormat, boardID: boardID, revision: revision, what: "snapshot")
        do {
            switch format {
            case .json1: return try StoredFormat1.decodeBoard(Data(text.utf8))
            case .json2, .json3: return try StoredFormat2.decodeBoard(Data(text.utf8))
            }
        } catch {
            throw StoreError(.corrupt, boardID: boardID, revision: revision, "the snapshot cannot be read: \(error)")
        }
    }

    private static func format(_ rawValue: Int, boardID: String, revision: Int64, what: String) throws(StoreError) -> StoredFormat {
        guard let format = StoredFormat(rawValue: rawValue) else {
            // Written by a newer server (a downgrade): refuse rather than guess.
            throw StoreError(
                .unsupportedFormat,
                boardID: boardID,
                revision: revision,
                "the \(what) is in stored format \(rawValue); this server reads \(allCases.map { String($0.rawValue) }.joined(separator: ", "))"
            )
        }
        return format
    }
}
