import ArgumentParser
import BoardProtocol
import BoardStore
import Foundation
import TimerBoardServer

/// `timerboard backup DEST`: a consistent copy of the database while the server runs.
struct Backup: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Copy the database to a new file, consistently, while the server runs (SQLite's online backup).",
        discussion: "Restore: stop the server, put the file in the data directory as timerboard.sqlite, start the server."
    )

    @Argument(help: "The new file to write (it must not exist).") var destination: String
    @Option(help: "Folder of the SQLite database.") var dataDirectory = ServerConfiguration().dataDirectory

    func run() async throws {
        var configuration = ServerConfiguration()
        configuration.dataDirectory = dataDirectory
        let summary = try SQLiteBackup.copy(databaseAt: configuration.databasePath, to: destination)
        print("backed up \(summary.boards) boards and \(summary.changesets) changesets (\(summary.bytes) bytes) to \(destination)")
    }
}

/// `timerboard export BOARD`: one board as JSON (`BoardTransfer`).
struct Export: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Write one board as JSON: its content, title and the hashes of its links (never the secrets)."
    )

    @Argument(help: "The board's id.") var board: String
    @Option(name: .shortAndLong, help: "File to write (default: standard output).") var output: String?
    @Option(help: "Folder of the SQLite database.") var dataDirectory = ServerConfiguration().dataDirectory

    func run() async throws {
        var configuration = ServerConfiguration()
        configuration.dataDirectory = dataDirectory
        guard FileManager.default.fileExists(atPath: configuration.databasePath) else {
            throw ValidationError("there is no database at \(configuration.databasePath)")
        }
        let store = try SQLiteBoardStore(path: configuration.databasePath)
        guard let json = try await BoardTransfer.export(boardID: board, store: store, now: SystemClock().now()) else {
            throw ValidationError("there is no board \(board) in \(configuration.databasePath)")
        }
        let data = Data(json + [UInt8(ascii: "\n")])
        if let output {
            try data.write(to: URL(fileURLWithPath: output), options: .withoutOverwriting)
        } else {
            FileHandle.standardOutput.write(data)
        }
    }
}

/// `timerboard import FILE`: adds a board from an export file.
struct Import: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Add a board from a file `timerboard export` wrote, under its own id; its links keep working. Stop the server first."
    )

    @Argument(help: "The export file ('-': standard input).") var file: String
    @Option(help: "Folder of the SQLite database.") var dataDirectory = ServerConfiguration().dataDirectory

    func run() async throws {
        var configuration = ServerConfiguration()
        configuration.dataDirectory = dataDirectory
        let data = file == "-" ? FileHandle.standardInput.readDataToEndOfFile() : try Data(contentsOf: URL(fileURLWithPath: file))
        try FileManager.default.createDirectory(atPath: configuration.dataDirectory, withIntermediateDirectories: true)
        let store = try SQLiteBoardStore(path: configuration.databasePath)
        let imported: BoardTransfer.Imported
        do {
            imported = try await BoardTransfer.importBoard(data, store: store, now: SystemClock().now())
        } catch let error as StoreError where error.kind == .duplicateBoard {
            throw ValidationError("\(error) in \(configuration.databasePath); delete it first to replace it")
        }
        print("imported board \(imported.info.id) (\(imported.info.title))")
        for (role, path) in imported.newLinks ?? [] { print("\(role.rawValue): \(path)") }
    }
}
