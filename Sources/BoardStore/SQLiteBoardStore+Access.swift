import Foundation
import GRDB

extension SQLiteBoardStore {
    /// The board's link hashes alone, one row read: a secret is checked before its board is
    /// loaded (nil: no such board, or one without links).
    public func loadAccess(id: String) async throws -> BoardAccess? {
        try await pool.read { db -> BoardAccess? in
            guard
                let row = try Row.fetchOne(
                    db,
                    sql: "SELECT ownerHash, editHash, viewHash, editGeneration, viewGeneration FROM board WHERE id = ?",
                    arguments: [id]
                ),
                let owner = row["ownerHash"] as Data?, let edit = row["editHash"] as Data?, let view = row["viewHash"] as Data?
            else { return nil }
            return BoardAccess(
                ownerHash: Array(owner),
                editHash: Array(edit),
                viewHash: Array(view),
                editGeneration: row["editGeneration"],
                viewGeneration: row["viewGeneration"]
            )
        }
    }
}
