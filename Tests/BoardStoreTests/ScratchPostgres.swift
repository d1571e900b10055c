import Foundation
import Logging
import PostgresNIO

@testable import BoardStore

/// A real PostgreSQL server for the tests of this process, started on first use by
/// scripts/scratch-postgres (Debian's postgresql, as its own user, on a free port, in a fresh
/// folder) and stopped when the process exits. Each test gets a database of its own.
enum ScratchPostgres {
    private static let folder = FileManager.default.temporaryDirectory.appendingPathComponent("timerboard-pg-\(getpid())").path

    private static let server: Result<PostgresLocation, any Error> = Result {
        let url = try run(["start", folder])
        atexit {
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("timerboard-pg-\(getpid())").path
            _ = try? ScratchPostgres.run(["stop", folder])
            try? FileManager.default.removeItem(atPath: folder)
        }
        guard let location = PostgresLocation(url: url) else { throw ScratchError(message: "scratch-postgres printed \(url)") }
        return location
    }

    struct ScratchError: Error, CustomStringConvertible {
        let message: String
        var description: String { message }
    }

    /// The repository's scripts/scratch-postgres, run to its end; returns what it printed.
    /// Through `system`: Foundation's `Process.waitUntilExit` was seen to hang here once the
    /// script had started a server that outlives it.
    static func run(_ arguments: [String]) throws -> String {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("scratch-postgres-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: output) }
        let command = ([root.appendingPathComponent("scripts/scratch-postgres").path] + arguments).map { "'\($0)'" }.joined(separator: " ")
        guard system("\(command) > '\(output)'") == 0 else { throw ScratchError(message: "scratch-postgres \(arguments) failed") }
        return try String(contentsOfFile: output, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// A server of the caller's own, for a test that restarts it (others would see their
    /// connections drop); `stop` it at the end.
    struct Private {
        let folder: String
        let location: PostgresLocation

        init() throws {
            folder = FileManager.default.temporaryDirectory.appendingPathComponent("timerboard-pg-\(UUID().uuidString)").path
            guard let location = PostgresLocation(url: try ScratchPostgres.run(["start", folder])) else {
                throw ScratchError(message: "scratch-postgres printed no URL")
            }
            self.location = location
        }

        /// Stops it at once and starts it again on the same port: a database crash and restart.
        func restart() throws { _ = try ScratchPostgres.run(["restart", folder]) }

        func stop() {
            _ = try? ScratchPostgres.run(["stop", folder])
            try? FileManager.default.removeItem(atPath: folder)
        }
    }

    /// The location of database `name` on the scratch server, made empty the first time it is asked for.
    static func database(_ name: String) async throws -> PostgresLocation {
        var location = try server.get()
        let client = PostgresClient(configuration: location.testClientConfiguration, backgroundLogger: Logger(label: "test"))
        let running = await PostgresBoardStore.startRunning(client)
        defer { running.cancel() }
        let exists = try await client.query("SELECT 1 FROM pg_database WHERE datname = \(name)").collect().count == 1
        if !exists {
            try await client.query(PostgresQuery(unsafeSQL: "CREATE DATABASE \"\(name)\""))
        }
        location.database = name
        return location
    }
}

extension PostgresLocation {
    var testClientConfiguration: PostgresClient.Configuration {
        PostgresClient.Configuration(host: host, port: port, username: username, password: password, database: database, tls: .disable)
    }
}
