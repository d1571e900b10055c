import ArgumentParser
import BoardStore
import Foundation
import Logging
import TimerBoardServer

/// Where an operator's command (`export`, `import`, `reset-links`) finds the boards: the same
/// two options as `serve`, and the same choice (`BoardStoreChoice`), so an environment file that
/// points a node at its store points the operator's commands at it too.
struct OperatorStoreOptions: ParsableArguments {
    @Option(help: "Folder of the SQLite database.") var dataDirectory = ServerConfiguration().dataDirectory
    @Option(help: "The cluster's PostgreSQL database, postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE. Without it: SQLite in --data-directory.")
    var store: String?

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
            throw ValidationError("--store must be postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE, not '\(PostgresLocation.redacted(store))'")
        }
        return location
    }

    /// Runs `body` with the store open and the name of where it is (never a password), then
    /// closes it. A server waits for its database; an operator's command gives up after 30 s.
    func withStore<Result>(_ missing: BoardStoreChoice.Missing, _ body: (any BoardStore, String) async throws -> Result) async throws -> Result {
        var configuration = ServerConfiguration()
        configuration.dataDirectory = dataDirectory
        configuration.store = try postgresLocation()
        let choice = BoardStoreChoice(configuration)
        var logger = Logger(label: "timerboard")
        logger.logLevel = .warning
        let store: any BoardStore
        do {
            store = try await choice.open(missing: missing, patience: .seconds(30), logger: logger)
        } catch let error as BoardStoreChoice.Unavailable {
            throw CommandFailure(error.description)
        }
        // Run as root on a server's data directory, the files SQLite made or touched go back to
        // the directory's owner (the server's user), which must go on writing them.
        defer { if configuration.store == nil { DatabaseFiles(directory: dataDirectory).handBackToOwner() } }
        let result: Result
        do {
            result = try await body(store, choice.description)
        } catch {
            try? await store.close()  // the body's error is the one to report
            throw error
        }
        try await store.close()
        return result
    }
}
