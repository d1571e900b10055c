import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The SQLite database's files in the data directory, and who may read and write them.
///
/// Made private to the server's user: the directory 0700, the database 0600 (SQLite gives its
/// `-wal` and `-shm` files the database file's mode), whatever the umask. A database the server
/// cannot write (a restore or an import done as root, under systemd's `DynamicUser`) stops the
/// start with a message that says how to give it back, rather than failing at the first edit.
public struct DatabaseFiles: Sendable {
    public let directory: String

    public init(directory: String) {
        self.directory = directory
    }

    public var database: String { directory + "/timerboard.sqlite" }
    /// The database and the two files SQLite keeps beside it in WAL mode.
    public var all: [String] { [database, database + "-wal", database + "-shm"] }

    /// Makes the directory (0700) and an empty database file (0600) when they are missing.
    public func prepare() throws {
        if !FileManager.default.fileExists(atPath: directory) {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        }
        let descriptor = open(database, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0o600)
        if descriptor >= 0 {
            close(descriptor)
        } else if errno != EEXIST {
            throw Problem(description: "cannot create \(database): \(String(cString: strerror(errno)))")
        }
    }

    /// Why this process cannot write the database, if it cannot: nil when it can.
    public func unwritable() -> Problem? {
        let user = geteuid()
        if access(directory, W_OK | X_OK) != 0 {
            return Problem(
                description: "the data directory \(directory) is not writable by this process (uid \(user)); it is \(Self.owner(directory))"
            )
        }
        for file in all where FileManager.default.fileExists(atPath: file) && access(file, R_OK | W_OK) != 0 {
            return Problem(
                description: """
                    \(file) is not writable by this process (uid \(user)): it is \(Self.owner(file)). A restore or an import \
                    done as another user (root) leaves it so: give the folder's files back to the server's user, \
                    e.g. chown -R --reference=\(directory)/. \(directory)/
                    """
            )
        }
        return nil
    }

    /// As root, gives the database's files back to the owner of the data directory (the
    /// server's user), so that what an operator's command made or touched stays the server's.
    /// Returns the files it changed. Does nothing for another user or a directory root owns.
    @discardableResult
    public func handBackToOwner() -> [String] {
        guard geteuid() == 0, let folder = Self.owner(of: directory), folder.user != 0 else { return [] }
        return all.filter { file in
            guard let current = Self.owner(of: file), current.user != folder.user || current.group != folder.group else { return false }
            return chown(file, uid_t(folder.user), gid_t(folder.group)) == 0
        }
    }

    private static func owner(of path: String) -> (user: Int, group: Int, mode: Int)? {
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: path),
            let user = (attributes[.ownerAccountID] as? NSNumber)?.intValue,
            let group = (attributes[.groupOwnerAccountID] as? NSNumber)?.intValue,
            let mode = (attributes[.posixPermissions] as? NSNumber)?.intValue
        else { return nil }
        return (user, group, mode)
    }

    /// "owned by uid 0, mode 644"
    private static func owner(_ path: String) -> String {
        guard let owner = owner(of: path) else { return "unreadable" }
        return "owned by uid \(owner.user), mode \(String(owner.mode, radix: 8))"
    }

    /// What is wrong with the files, in words for the operator.
    public struct Problem: Error, CustomStringConvertible {
        public let description: String
    }
}
