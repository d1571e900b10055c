import ArgumentParser
import BoardCore
import BoardProtocol
import Hummingbird
import Logging
import TimerBoardServer

/// `timerboard serve`: configuration only; everything else lives in TimerBoardServer.
@main
struct TimerBoardCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "timerboard",
        abstract: "A real-time collaboration server for boards of timers.",
        subcommands: [Serve.self, Bench.self],
        defaultSubcommand: Serve.self
    )
}

struct Serve: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Serve boards over HTTP and WebSocket.")

    @Option(help: "Address to listen on.") var host = "127.0.0.1"
    @Option(help: "Port to listen on (0 picks a free one).") var port = 8080
    @Option(help: "Folder for the SQLite database.") var dataDirectory = "data"
    @Option(help: "Folder of the browser client.") var webRoot = "web-static"
    @Option(help: "Longest message accepted, in bytes.") var maxMessageBytes = 65_536
    @Option(help: "Most operations in one edit.") var maxOpsPerEdit = 100
    @Option(help: "Longest title, in characters.") var maxTitleLength = 200
    @Option(help: "Most sections per board.") var maxSections = 1_000
    @Option(help: "Most timers per board.") var maxTimers = 10_000
    @Option(help: "Messages queued per connection before it is dropped as too slow.") var outboundQueueLimit = 1_024
    @Option(help: "Changesets per board kept for resume.") var retainedChangesets = 1_000
    @Option(help: "Store a board snapshot every this many revisions.") var snapshotInterval = 100
    @Option(help: "Milliseconds to gather presence changes into one message.") var presenceIntervalMs = 50
    @Option(help: "Milliseconds between pings; a connection silent for a whole interval is closed.") var heartbeatIntervalMs = 30_000
    @Flag(inversion: .prefixedNo, help: "Offer permessage-deflate: snapshots go compressed to clients that accept it.")
    var permessageDeflate = true
    @Option(help: "Log level: trace, debug, info, notice, warning, error.") var logLevel = "info"

    func run() async throws {
        var configuration = ServerConfiguration()
        configuration.host = host
        configuration.port = port
        configuration.dataDirectory = dataDirectory
        configuration.webRoot = webRoot
        configuration.limits.maxMessageBytes = maxMessageBytes
        configuration.limits.maxOpsPerEdit = maxOpsPerEdit
        configuration.limits.board.maxTitleLength = maxTitleLength
        configuration.limits.board.maxSections = maxSections
        configuration.limits.board.maxTimers = maxTimers
        configuration.outboundQueueLimit = outboundQueueLimit
        configuration.retainedChangesets = retainedChangesets
        configuration.snapshotInterval = snapshotInterval
        configuration.presenceInterval = .milliseconds(presenceIntervalMs)
        configuration.permessageDeflate = permessageDeflate
        configuration.heartbeatInterval = .milliseconds(heartbeatIntervalMs)

        var logger = Logger(label: "timerboard")
        logger.logLevel = Logger.Level(rawValue: logLevel) ?? .info
        let app = try buildApplication(configuration: configuration, logger: logger)
        try await app.runService()
    }
}
