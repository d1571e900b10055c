import BoardProtocol
import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import TimerBoardServer

/// A real server on a loopback port (port 0: the system picks a free one), with its own
/// SQLite data folder. Run it again on the same folder to test a restart.
struct LiveServer: Sendable {
    var configuration: ServerConfiguration

    /// A server configuration with a fresh, empty data folder.
    static func fresh(_ adjust: (inout ServerConfiguration) -> Void = { _ in }) throws -> LiveServer {
        var configuration = ServerConfiguration()
        configuration.port = 0
        configuration.dataDirectory =
            FileManager.default.temporaryDirectory
            .appendingPathComponent("timerboard-test-\(UUID().uuidString)").path
        configuration.webRoot =
            URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("web-static").path
        // These tests are not about a store that does not answer: on a machine loaded a hundred
        // times over (load 13 on 2 cores was seen), a board's load passed the 5 s default.
        configuration.storeTimeout = .seconds(60)
        adjust(&configuration)
        return LiveServer(configuration: configuration)
    }

    /// Starts the server, runs `body` with a handle on it, and stops the server.
    func run<Value: Sendable>(
        clock: any ServerClock = SystemClock(),
        _ body: @Sendable (Handle) async throws -> Value
    ) async throws -> Value {
        var logger = Logger(label: "timerboard-test")
        logger.logLevel = .warning
        let app = try buildApplication(configuration: configuration, clock: clock, logger: logger)
        return try await app.test(.live) { client in
            try await body(Handle(client: client, port: client.port!))
        }
    }

    struct Handle: Sendable {
        let client: any TestClientProtocol
        let port: Int

        var webSocketURL: String { "ws://127.0.0.1:\(port)/ws" }

        /// Creates a board over HTTP and returns its id and secrets.
        func createBoard(title: String = "Test board") async throws -> TestBoard {
            let response = try await client.execute(
                uri: "/api/boards",
                method: .post,
                headers: [.contentType: "application/json"],
                body: ByteBuffer(string: #"{"title":"\#(title)"}"#)
            )
            guard response.status == .created, case .object(let fields)? = JSONValue.parse(Data(response.body.readableBytesView)),
                case .string(let id)? = fields["id"], case .object(let secrets)? = fields["secrets"],
                case .string(let owner)? = secrets["owner"], case .string(let edit)? = secrets["edit"], case .string(let view)? = secrets["view"]
            else { throw TestFailure("creating a board answered \(response.status)") }
            return TestBoard(id: id, owner: owner, edit: edit, view: view)
        }

        /// How many boards the server holds in memory, from `/health`.
        func liveBoards() async throws -> Int {
            let response = try await client.execute(uri: "/health", method: .get)
            guard case .object(let fields)? = JSONValue.parse(Data(response.body.readableBytesView)),
                case .int(let count)? = fields["liveBoards"]
            else { throw TestFailure("health has no liveBoards") }
            return Int(count)
        }

        /// A new client that has said hello.
        func peer(_ clientID: String = "c-\(UUID().uuidString.prefix(8))") async throws -> Peer {
            try await Peer(url: webSocketURL, clientID: clientID)
        }

        /// The server's own state of a board, read by a fresh client's join.
        func serverSnapshot(_ board: TestBoard) async throws -> ServerMessage.Snapshot {
            let observer = try await peer()
            let snapshot = try await observer.join(board)
            await observer.close()
            return snapshot
        }
    }
}

/// A board a test made: its id and the three secrets `POST /api/boards` returned.
struct TestBoard: Sendable, Hashable, CustomStringConvertible {
    let id: String
    let owner: String
    let edit: String
    let view: String

    func secret(_ role: BoardRole) -> String {
        switch role {
        case .owner: owner
        case .edit: edit
        case .view: view
        }
    }

    var description: String { id }
}

struct TestFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
