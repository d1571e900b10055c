import BoardStore
import Foundation
import Logging

/// The one place that chooses and opens the store: PostgreSQL when `store` names one (a
/// cluster's shared database), otherwise SQLite in the data directory. The server and the
/// operator's commands both open it here, so they always agree on where the boards are.
public struct BoardStoreChoice: Sendable, CustomStringConvertible {
    /// What to do when the SQLite database does not exist yet.
    public enum Missing: Sendable {
        /// Make it (a server's first start, an import into a new folder).
        case create
        /// Say so instead of making an empty one (a command that reads boards).
        case refuse
    }

    /// The database could not be opened as asked.
    public struct Unavailable: Error, CustomStringConvertible {
        public let description: String
    }

    private let configuration: ServerConfiguration

    public init(_ configuration: ServerConfiguration) {
        self.configuration = configuration
    }

    /// Where the boards are, for messages: the SQLite file, or the database URL without its password.
    public var description: String {
        configuration.store.map { "\($0)" } ?? configuration.databasePath
    }

    /// Opens the store. A server waits for PostgreSQL as long as it takes (`patience` nil: it
    /// may start before its database); an operator's command gives up after `patience`.
    public func open(missing: Missing, patience: Duration? = nil, logger: Logger) async throws -> any BoardStore {
        if let location = configuration.store {
            logger.info("opening the shared store", metadata: ["tb.store": "\(location)"])
            let retained = configuration.retainedChangesets
            let loadBytes = configuration.retainedChangesetBytes
            guard let patience else { return try await PostgresBoardStore(location: location, retainedChangesets: retained, loadBytes: loadBytes, logger: logger) }
            return try await withThrowingTaskGroup(of: PostgresBoardStore?.self) { group in
                group.addTask { try await PostgresBoardStore(location: location, retainedChangesets: retained, loadBytes: loadBytes, logger: logger) }
                group.addTask {
                    try await Task.sleep(for: patience)
                    return nil
                }
                defer { group.cancelAll() }
                guard let store = try await group.next() ?? nil else {
                    throw Unavailable(description: "no answer from \(location) within \(patience.components.seconds) s")
                }
                return store
            }
        }
        let files = DatabaseFiles(directory: configuration.dataDirectory)
        switch missing {
        case .refuse:
            guard FileManager.default.fileExists(atPath: files.database) else {
                throw Unavailable(description: "there is no database at \(files.database)")
            }
        case .create:
            try files.prepare()
            if let problem = files.unwritable() { throw Unavailable(description: problem.description) }
        }
        return try SQLiteBoardStore(
            path: files.database,
            retainedChangesets: configuration.retainedChangesets,
            loadBytes: configuration.retainedChangesetBytes
        )
    }
}
