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
    @OptionGroup var location: OperatorStoreOptions

    func run() async throws {
        // A cluster's database is PostgreSQL's to copy: pg_dump is consistent while nodes write.
        if try location.postgresLocation() != nil {
            throw ValidationError("backup copies the SQLite database; for the PostgreSQL store use pg_dump (deploy/README.md, Backups)")
        }
        var configuration = ServerConfiguration()
        configuration.dataDirectory = location.dataDirectory
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
    @OptionGroup var location: OperatorStoreOptions

    func run() async throws {
        let json = try await location.withStore(.refuse) { store, name in
            guard let json = try await BoardTransfer.export(boardID: board, store: store, now: SystemClock().now()) else {
                throw CommandFailure("there is no board \(board) in \(name)")
            }
            return json
        }
        let data = Data(json + [UInt8(ascii: "\n")])
        if let output {
            // An export holds the board's content: private as the database is (0600), and new.
            let descriptor = open(output, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0o600)
            guard descriptor >= 0 else { throw CommandFailure("cannot create \(output): \(String(cString: strerror(errno)))") }
            let file = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
            try file.write(contentsOf: data)
            try file.close()
        } else {
            FileHandle.standardOutput.write(data)
        }
    }
}

/// `timerboard import FILE`: adds a board from an export file.
struct Import: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Add a board from a file `timerboard export` wrote, under its own id; its links keep working.",
        discussion: "The server may keep serving: the board is new to it (and, with --store, to every node)."
    )

    @Argument(help: "The export file ('-': standard input).") var file: String
    @OptionGroup var location: OperatorStoreOptions

    func run() async throws {
        let data = file == "-" ? FileHandle.standardInput.readDataToEndOfFile() : try Data(contentsOf: URL(fileURLWithPath: file))
        let imported = try await location.withStore(.create) { store, name in
            do {
                return try await BoardTransfer.importBoard(data, store: store, now: SystemClock().now())
            } catch let error as StoreError where error.kind == .duplicateBoard {
                throw CommandFailure("\(error) in \(name); delete it first to replace it")
            }
        }
        print("imported board \(imported.info.id) (\(imported.info.title))")
        for (role, path) in imported.newLinks ?? [] { print("\(role.rawValue): \(path)") }
    }
}
