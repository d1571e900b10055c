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
                )
            else { return nil }
            return BoardAccess(
                ownerHash: row["ownerHash"] as Data?,
                editHash: row["editHash"] as Data?,
                viewHash: row["viewHash"] as Data?,
                editGeneration: row["editGeneration"],
                viewGeneration: row["viewGeneration"]
            )
        }
    }
}
