import ArgumentParser
import BoardStore
import Foundation
import Logging
import TimerBoardServer

/// Where an operator's command (`export`, `import`, `reset-links`) finds the boards: the same
/// two options as `serve`, so an environment file that points a node at its store points the
/// operator's commands at it too.
struct OperatorStoreOptions: ParsableArguments {
    @Option(help: "Folder of the SQLite database.") var dataDirectory = ServerConfiguration().dataDirectory
    @Option(help: "The cluster's PostgreSQL database, postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE. Without it: SQLite in --data-directory.")
    var store: String?

    /// An open store and a name for it in messages (never a password).
    struct Opened {
        let store: any BoardStore
        let name: String
        let close: () -> Void
    }

    /// What a missing SQLite database means to the command.
    enum Missing {
        /// Nothing to read: say so instead of creating an empty database.
        case refuse
        /// A new database is made (an import into a fresh folder).
        case create
    }

    func validate() throws {
        _ = try postgresLocation()
    }

    func postgresLocation() throws -> PostgresLocation? {
        try Self.postgresLocation(store)
    }

    /// `--store` as `serve` and the operator's commands read it: nil for SQLite.
    static func postgresLocation(_ store: String?) throws -> PostgresLocation? {
        guard let store else { return nil }
        guard let location = PostgresLocation(url: store) else {
            throw ValidationError("--store must be postgres://USER@HOST[:PORT]/DATABASE, not '\(store)'")
        }
        return location
    }

    func open(_ missing: Missing) async throws -> Opened {
        if let location = try postgresLocation() {
            let store = try await connect(to: location)
            return Opened(store: store, name: "\(location)", close: store.close)
        }
        var configuration = ServerConfiguration()
        configuration.dataDirectory = dataDirectory
        let path = configuration.databasePath
        switch missing {
        case .refuse:
            guard FileManager.default.fileExists(atPath: path) else { throw ValidationError("there is no database at \(path)") }
        case .create:
            try FileManager.default.createDirectory(atPath: dataDirectory, withIntermediateDirectories: true)
        }
        return Opened(store: try SQLiteBoardStore(path: path), name: path, close: {})
    }

    /// A server waits for its database; an operator's command gives up after `patience` and says so.
    private func connect(to location: PostgresLocation, patience: Duration = .seconds(30)) async throws -> PostgresBoardStore {
        let logger = {
            var logger = Logger(label: "timerboard")
            logger.logLevel = .warning
            return logger
        }()
        return try await withThrowingTaskGroup(of: PostgresBoardStore?.self) { group in
            group.addTask { try await PostgresBoardStore(location: location, logger: logger) }
            group.addTask {
                try await Task.sleep(for: patience)
                return nil
            }
            defer { group.cancelAll() }
            guard let store = try await group.next() ?? nil else {
                throw ValidationError("no answer from \(location) within \(patience.components.seconds) s")
            }
            return store
        }
    }
}
