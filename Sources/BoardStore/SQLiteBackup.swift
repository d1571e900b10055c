import Foundation
import GRDB

/// A consistent copy of a SQLite store's database, taken while a server writes to it
/// (`timerboard backup DEST`).
///
/// SQLite's online backup API copies every page inside one read transaction: in WAL mode that
/// reader sees exactly the transactions committed when it began, and the server's writer goes
/// on meanwhile. So the copy holds every changeset acked before the backup started (an ack
/// follows its commit) and no half of any transaction. The copy is written beside the
/// destination, checked (`PRAGMA quick_check`) and then renamed into place, so a file at the
/// destination is always a whole backup. It is in rollback-journal mode: one self-contained
/// file, restored by putting it in a data directory as `timerboard.sqlite`.
public enum SQLiteBackup {
    /// What went wrong, said for an operator.
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    /// What a backup holds.
    public struct Summary: Sendable {
        public let boards: Int
        public let changesets: Int
        public let bytes: Int
    }

    /// Copies the database at `source` to a new file `destination` (which must not exist).
    public static func copy(databaseAt source: String, to destination: String) throws -> Summary {
        let files = FileManager.default
        guard files.fileExists(atPath: source) else { throw Failure(description: "there is no database at \(source)") }
        guard !files.fileExists(atPath: destination) else {
            throw Failure(description: "\(destination) exists; back up to a new file")
        }
        let partial = destination + ".partial"
        try? files.removeItem(atPath: partial)
        do {
            var sourceConfiguration = Configuration()
            // The server's group commit holds the write lock briefly; the backup only reads.
            sourceConfiguration.busyMode = .timeout(30)
            let from = try DatabaseQueue(path: source, configuration: sourceConfiguration)
            // Private as the database is (0600, whatever the umask): SQLite keeps a file's mode.
            guard files.createFile(atPath: partial, contents: nil, attributes: [.posixPermissions: 0o600]) else {
                throw Failure(description: "cannot create \(partial)")
            }
            let to = try DatabaseQueue(path: partial)
            try from.backup(to: to)
            try from.close()
            let summary = try to.writeWithoutTransaction { db in
                try db.execute(sql: "PRAGMA journal_mode = DELETE")
                let check = try String.fetchOne(db, sql: "PRAGMA quick_check")
                guard check == "ok" else { throw Failure(description: "the copy failed its check: \(check ?? "no answer")") }
                return Summary(
                    boards: try Int.fetchOne(db, sql: "SELECT count(*) FROM board") ?? 0,
                    changesets: try Int.fetchOne(db, sql: "SELECT count(*) FROM changeset") ?? 0,
                    bytes: 0
                )
            }
            try to.close()
            try files.moveItem(atPath: partial, toPath: destination)
            let bytes = (try? files.attributesOfItem(atPath: destination)[.size] as? Int) ?? 0
            return Summary(boards: summary.boards, changesets: summary.changesets, bytes: bytes)
        } catch {
            try? files.removeItem(atPath: partial)
            if let failure = error as? Failure { throw failure }
            throw Failure(description: "backing up \(source) failed: \(error)")
        }
    }
}
