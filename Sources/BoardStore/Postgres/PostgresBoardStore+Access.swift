import Foundation
import PostgresNIO

extension PostgresBoardStore {
    /// The board's link hashes alone, one row read: a secret is checked before its board is
    /// loaded (nil: no such board, or one without links).
    public func loadAccess(id: String) async throws -> BoardAccess? {
        let logger = logger
        return try await transaction(readOnly: true) { connection -> BoardAccess? in
            let rows = try await connection.query(
                "SELECT owner_hash, edit_hash, view_hash, edit_generation, view_generation FROM board WHERE id = \(id)",
                logger: logger
            )
            var access: BoardAccess?
            for try await (owner, edit, view, editGeneration, viewGeneration) in rows.decode((Data?, Data?, Data?, Int, Int).self) {
                access = BoardAccess(ownerHash: owner, editHash: edit, viewHash: view, editGeneration: editGeneration, viewGeneration: viewGeneration)
            }
            return access
        }
    }
}
