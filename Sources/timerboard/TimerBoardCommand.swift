import ArgumentParser
import BoardCore
import BoardProtocol
import BoardStore
import Foundation
import Hummingbird
import Logging
import NIOCore
import TimerBoardServer

/// `timerboard serve`: configuration only; everything else lives in TimerBoardServer.
@main
struct TimerBoardCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "timerboard",
        abstract: "A real-time collaboration server for boards of timers.",
        version: TimerBoardVersion.description,
        subcommands: [Serve.self, ResetLinks.self, Backup.self, Export.self, Import.self],
        defaultSubcommand: Serve.self
    )

    /// Every command's options also come from `TIMERBOARD_` variables (`EnvironmentOptions`), so
    /// the server and the operator's commands find the same data directory.
    static func main() async {
        var arguments = Array(CommandLine.arguments.dropFirst())
        var head: [String] = []
        var command: any ParsableCommand.Type = Serve.self
        if let first = arguments.first, let named = configuration.subcommands.first(where: { $0._commandName == first }) {
            head = [first]
            arguments.removeFirst()
            command = named
        } else if let first = arguments.first, ["help", "-h", "--help", "--version"].contains(first) {
            return await main(arguments)
        }
        let filled: (arguments: [String], fromEnvironment: [EnvironmentOptions.Setting])
        do {
            filled = try EnvironmentOptions(for: command).fill(arguments, environment: ProcessInfo.processInfo.environment)
        } catch {
            FileHandle.standardError.write(Data("Error: \(error)\n".utf8))
            Foundation.exit(ExitCode.validationFailure.rawValue)
        }
        let parsed: any ParsableCommand
        do {
            parsed = try await asyncParseAsRoot(head + filled.arguments)
        } catch {
            if exitCode(for: error) != .success, !filled.fromEnvironment.isEmpty {
                let names = filled.fromEnvironment.map { "\($0.variable) (--\($0.name))" }.joined(separator: ", ")
                FileHandle.standardError.write(Data("Note: from the environment: \(names)\n".utf8))
            }
            exit(withError: error)
        }
        do {
            var command = parsed
            if var asyncCommand = command as? any AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch {
            exit(withError: error)
        }
    }
}

extension LogFormat: ExpressibleByArgument {}

struct Serve: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Serve boards over HTTP and WebSocket.",
        discussion: """
            Every option can also be set in the environment: TIMERBOARD_ and the option's name in capitals, \
            with _ for - (--max-ops-per-edit: TIMERBOARD_MAX_OPS_PER_EDIT). A repeatable option takes a \
            comma-separated list, an on/off flag true or false. The command line wins over the environment.
            """
    )
    /// Every flag's default comes from the server's one configuration type, never repeated here.
    private static let defaults = ServerConfiguration()

    private static func milliseconds(_ duration: Duration) -> Int {
        Int(duration.components.seconds * 1_000 + duration.components.attoseconds / 1_000_000_000_000_000)
    }

    private static func seconds(_ duration: Duration) -> Int {
        Int(duration.components.seconds)
    }

    @Option(help: "Address to listen on.") var host = defaults.host
    @Option(help: "Port to listen on (0 picks a free one).") var port = defaults.port
    @Option(help: "Folder for the SQLite database.") var dataDirectory = defaults.dataDirectory
    @Option(
        help: """
            A PostgreSQL database shared by every node of a cluster, postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE \
            (add ?sslmode=require for TLS). Without it: SQLite in --data-directory, one node.
            """
    )
    var store: String?
    @Option(help: "Most connections a node opens to --store's database; one of them listens for the other nodes' changes.")
    var storeConnections = 20
    @Option(help: "Seconds an HTTP request or a join waits for the store before it is answered 503 (unavailable).")
    var storeTimeoutSeconds = Serve.seconds(defaults.storeTimeout)
    @Option(help: "Folder of the browser client.") var webRoot = defaults.webRoot
    @Option(help: "Largest file of the browser client's folder that is served, in bytes.") var maxStaticFileBytes = defaults.maxStaticFileBytes
    @Option(help: "Longest message accepted, in bytes.") var maxMessageBytes = defaults.limits.maxMessageBytes
    @Option(help: "Most operations in one edit.") var maxOpsPerEdit = defaults.limits.maxOpsPerEdit
    @Option(help: "Longest title, in characters.") var maxTitleLength = defaults.limits.board.maxTitleLength
    @Option(help: "Most sections per board.") var maxSections = defaults.limits.board.maxSections
    @Option(help: "Most timers per board.") var maxTimers = defaults.limits.board.maxTimers
    @Option(help: "Messages queued per connection before it is dropped as too slow.") var outboundQueueLimit = defaults.outboundQueueLimit
    @Option(help: "MiB queued per connection before it is dropped as too slow (a single message always goes).")
    var outboundQueueMib = defaults.outboundQueueMebibytes
    @Option(help: "Changesets per board kept for resume.") var retainedChangesets = defaults.retainedChangesets
    @Option(help: "Bytes of changesets per board kept in memory for resume; older ones are resumed with a snapshot.")
    var retainedChangesetBytes = defaults.retainedChangesetBytes
    @Option(help: "Store a board snapshot every this many revisions.") var snapshotInterval = defaults.snapshotInterval
    @Option(help: "Edits of a board each client can undo (its last ones).") var undoPerClient = defaults.undoPerClient
    @Option(help: "Edits of a board that can be undone in all, whoever made them.") var undoPerBoard = defaults.undoPerBoard
    @Option(help: "Milliseconds to gather presence changes into one message.") var presenceIntervalMs = Serve.milliseconds(defaults.presenceInterval)
    @Option(help: "Milliseconds between pings; a connection silent for a whole interval is closed.") var heartbeatIntervalMs = Serve.milliseconds(
        defaults.heartbeatInterval
    )
    @Flag(inversion: .prefixedNo, help: "Offer permessage-deflate: snapshots go compressed to clients that accept it.")
    var permessageDeflate = defaults.permessageDeflate
    @Option(help: "An origin (https://host[:port]) whose pages may use this server besides its own; repeatable.")
    var allowedOrigin: [String] = defaults.allowedOrigins
    @Option(help: "Edits a connection may send a second on average (0: no limit); more gets rate_limited.")
    var editsPerSecond = defaults.editsPerSecond
    @Option(help: "Edits a connection may send at once before --edits-per-second applies.") var editBurst = defaults.editBurst
    @OptionGroup var addressBudget: AddressBudgetOptions
    @Option(help: "Boards one client address may create a minute on average (0: no limit); more gets 429.")
    var boardsPerMinute = defaults.boardsPerMinute
    @Option(help: "Boards one client address may create at once before --boards-per-minute applies.") var boardBurst = defaults.boardBurst
    @Option(help: "Reads of a board's history or report one client address may make a minute on average (0: no limit); more gets 429.")
    var historyReadsPerMinute = defaults.historyReadsPerMinute
    @Option(help: "History and report reads one client address may make at once.") var historyReadBurst = defaults.historyReadBurst
    @Option(help: "Edit outcomes remembered per board in all, for idempotent resends.") var outcomesPerBoard = defaults.outcomesPerBoard
    @Option(help: "The operator's secret for listing every board (at least 16 characters); better in TIMERBOARD_ADMIN_TOKEN than on a command line.")
    var adminToken: String?
    @Option(help: "Most connections open at once (HTTP and WebSocket; at most the file limit less a reserve).")
    var maxConnections = defaults.maxConnections
    @Option(help: "Most connections open at once from one client address (IPv6: per /64); the longest idle goes first.")
    var maxConnectionsPerAddress = defaults.maxConnectionsPerAddress
    @OptionGroup var ipv6Networks: IPv6NetworkOptions
    @Option(help: "Seconds a new connection has to send its whole first request header.") var headerTimeoutSeconds = Serve.seconds(
        defaults.headerTimeout
    )
    @Option(help: "Seconds a kept-alive HTTP connection may sit idle before it is closed.") var idleTimeoutSeconds = Serve.seconds(
        defaults.idleTimeout
    )
    @Option(help: "Longest request header, in bytes; longer is answered 431.") var maxHeaderBytes = defaults.maxHeaderBytes
    @OptionGroup var slowClients: SlowClientOptions
    @OptionGroup var eventLoops: EventLoopOptions
    @OptionGroup var heapTrim: HeapTrimOptions
    @OptionGroup var boardLinger: BoardLingerOptions
    @Option(help: "Seconds a WebSocket has to send hello before it is closed (1008).") var helloTimeoutSeconds = Serve.seconds(
        defaults.helloTimeout
    )
    @Option(help: "Seconds connections get to finish after SIGTERM before the rest are closed.") var shutdownGraceSeconds = Serve.seconds(
        defaults.shutdownGrace
    )
    @Option(help: "Seconds /ready answers 503 after SIGTERM, while everything still serves, before the shutdown begins.")
    var drainSeconds = Serve.seconds(defaults.drainDelay)
    @Option(help: "A proxy (address or CIDR network) whose X-Forwarded-For / X-Real-IP name the client for per-address limits; repeatable.")
    var trustedProxy: [String] = []
    @Option(help: "On a cluster: milliseconds between a board's full presence lists to the other nodes.")
    var clusterAnnounceIntervalMs = Serve.milliseconds(defaults.clusterAnnounceInterval)
    @Option(help: "On a cluster: milliseconds after which a silent node's users are forgotten (a few announce intervals).")
    var clusterSilenceLimitMs = Serve.milliseconds(defaults.clusterSilenceLimit)
    @Option(help: "On a cluster: milliseconds a node that is not a board's timekeeper waits for the timekeeper's finish of a timer.")
    var timekeeperGraceMs = Serve.milliseconds(defaults.timekeeperGrace)
    @Flag(help: "Send webhooks to loopback, private and link-local addresses too (a receiver on this machine or network).")
    var allowPrivateWebhooks = defaults.allowPrivateWebhooks
    @Option(help: "Milliseconds before each retry of a failed webhook, comma-separated; after the last, it has failed.")
    var webhookRetryMs = defaults.webhookRetrySchedule.map { String(Serve.milliseconds($0)) }.joined(separator: ",")
    @Option(help: "Milliseconds a webhook endpoint may fail, with no success, before it is disabled.")
    var webhookDisableAfterMs = Serve.milliseconds(defaults.webhookDisableAfter)
    @Option(help: "Milliseconds a board.changed webhook waits for later changes to ride along.")
    var webhookDebounceMs = Serve.milliseconds(defaults.webhookChangeDelay)
    @Option(help: "Milliseconds to connect to a webhook endpoint.") var webhookConnectTimeoutMs = Serve.milliseconds(defaults.webhookConnectTimeout)
    @Option(help: "Milliseconds for a whole webhook attempt.") var webhookTimeoutMs = Serve.milliseconds(defaults.webhookTimeout)
    @Option(help: "Webhook deliveries a node sends at once.") var webhookConcurrency = defaults.webhookConcurrency
    @Option(help: "Most webhook endpoints per board.") var maxWebhooksPerBoard = defaults.webhooksPerBoard
    @Option(help: "Webhook endpoints one client address may register a minute on average (0: no limit); more gets 429.")
    var webhooksPerMinute = defaults.webhooksPerMinute
    @Option(help: "Webhook endpoints one client address may register at once.")
    var webhookBurst = defaults.webhookBurst
    @Option(help: "Log level: trace, debug, info, notice, warning, error.") var logLevel = "info"
    @Option(help: "Log format: text (for people) or json (one object per line).") var logFormat = LogFormat.text

    func validate() throws {
        for (flag, value) in [
            ("--max-connections", maxConnections), ("--max-connections-per-address", maxConnectionsPerAddress),
            ("--header-timeout-seconds", headerTimeoutSeconds), ("--idle-timeout-seconds", idleTimeoutSeconds),
            ("--max-header-bytes", maxHeaderBytes), ("--hello-timeout-seconds", helloTimeoutSeconds),
            ("--cluster-announce-interval-ms", clusterAnnounceIntervalMs), ("--cluster-silence-limit-ms", clusterSilenceLimitMs),
            ("--undo-per-client", undoPerClient), ("--undo-per-board", undoPerBoard),
            ("--store-timeout-seconds", storeTimeoutSeconds),
            ("--webhook-connect-timeout-ms", webhookConnectTimeoutMs), ("--webhook-timeout-ms", webhookTimeoutMs),
            ("--webhook-concurrency", webhookConcurrency), ("--max-webhooks-per-board", maxWebhooksPerBoard),
            ("--outbound-queue-mib", outboundQueueMib),
        ] where value < 1 {
            throw ValidationError("\(flag) must be at least 1")
        }
        if shutdownGraceSeconds < 0 { throw ValidationError("--shutdown-grace-seconds must not be negative") }
        if drainSeconds < 0 { throw ValidationError("--drain-seconds must not be negative") }
        if timekeeperGraceMs < 0 { throw ValidationError("--timekeeper-grace-ms must not be negative") }
        if webhookDisableAfterMs < 0 || webhookDebounceMs < 0 {
            throw ValidationError("--webhook-disable-after-ms and --webhook-debounce-ms must not be negative")
        }
        _ = try webhookRetrySchedule()
        if clusterSilenceLimitMs <= clusterAnnounceIntervalMs {
            throw ValidationError("--cluster-silence-limit-ms must be longer than --cluster-announce-interval-ms, or a node's users would be forgotten between its announcements")
        }
        if let token = adminToken, token.count < 16 {
            throw ValidationError("the admin token must be at least 16 characters: it guards every board")
        }
        if Logger.Level(rawValue: logLevel) == nil {
            throw ValidationError("--log-level must be one of \(Logger.Level.allCases.map(\.rawValue).joined(separator: ", ")), not '\(logLevel)'")
        }
        _ = try trustedProxies()
        // Values that would start a server that cannot work: a port the system wraps around,
        // pings so close that every socket is closed at once, a limit no hello fits in, and an
        // origin no browser sends (a path, a trailing slash, capitals), so its pages are refused.
        if !(0...65_535).contains(port) { throw ValidationError("--port must be 0 to 65535, not \(port)") }
        if outboundQueueMib > 65_535 { throw ValidationError("--outbound-queue-mib must be at most 65535") }
        if heartbeatIntervalMs < 100 {
            throw ValidationError("--heartbeat-interval-ms must be at least 100: a connection silent for a whole interval is closed")
        }
        if maxMessageBytes < 1_024 { throw ValidationError("--max-message-bytes must be at least 1024: a hello or a join must fit") }
        for origin in allowedOrigin where !Self.isOrigin(origin) {
            throw ValidationError(
                "--allowed-origin must be an origin as browsers send it, http(s)://host[:port] in lower case with no path (https://kitchen.example.com), not '\(origin)'"
            )
        }
        if storeConnections < 2 {
            throw ValidationError("--store-connections must be at least 2: one listens for other nodes' changes, the rest serve")
        }
        _ = try storeLocation()
    }

    /// `scheme://host[:port]` as a browser's `Origin` header has it.
    static func isOrigin(_ text: String) -> Bool {
        guard text == text.lowercased(), let url = URL(string: text), ["http", "https"].contains(url.scheme), url.host?.isEmpty == false else {
            return false
        }
        return url.path.isEmpty && url.query == nil && url.fragment == nil && url.user == nil
    }

    /// `--webhook-retry-ms`: milliseconds, comma-separated (empty: no retry).
    private func webhookRetrySchedule() throws -> [Duration] {
        guard !webhookRetryMs.isEmpty else { return [] }
        return try webhookRetryMs.split(separator: ",", omittingEmptySubsequences: false).map { part in
            guard let milliseconds = Int(part.trimmingCharacters(in: .whitespaces)), milliseconds >= 0 else {
                throw ValidationError("--webhook-retry-ms must be milliseconds separated by commas (5000,300000,…), not '\(webhookRetryMs)'")
            }
            return .milliseconds(milliseconds)
        }
    }

    private func storeLocation() throws -> PostgresLocation? {
        var location = try OperatorStoreOptions.postgresLocation(store)
        location?.maximumConnections = storeConnections
        location?.connectionWait = .seconds(storeTimeoutSeconds)
        return location
    }

    private func trustedProxies() throws -> TrustedProxies {
        do {
            return TrustedProxies(try trustedProxy.map { text throws(IPNetwork.ParseError) in try IPNetwork(parsing: text) })
        } catch {
            throw ValidationError("--trusted-proxy: \(error)")
        }
    }

    func run() async throws {
        _ = ProcessStart.seconds
        eventLoops.apply()
        var configuration = ServerConfiguration()
        configuration.host = host
        configuration.port = port
        configuration.dataDirectory = dataDirectory
        configuration.store = try storeLocation()
        configuration.webRoot = webRoot
        configuration.maxStaticFileBytes = maxStaticFileBytes
        configuration.limits.maxMessageBytes = maxMessageBytes
        configuration.limits.maxOpsPerEdit = maxOpsPerEdit
        configuration.limits.board.maxTitleLength = maxTitleLength
        configuration.limits.board.maxSections = maxSections
        configuration.limits.board.maxTimers = maxTimers
        configuration.outboundQueueLimit = outboundQueueLimit
        configuration.outboundQueueMebibytes = outboundQueueMib
        configuration.retainedChangesets = retainedChangesets
        configuration.retainedChangesetBytes = retainedChangesetBytes
        configuration.snapshotInterval = snapshotInterval
        configuration.undoPerClient = undoPerClient
        configuration.undoPerBoard = undoPerBoard
        configuration.presenceInterval = .milliseconds(presenceIntervalMs)
        configuration.permessageDeflate = permessageDeflate
        configuration.heartbeatInterval = .milliseconds(heartbeatIntervalMs)
        configuration.allowedOrigins = allowedOrigin
        configuration.editsPerSecond = editsPerSecond
        configuration.editBurst = editBurst
        configuration.boardsPerMinute = boardsPerMinute
        configuration.boardBurst = boardBurst
        configuration.historyReadsPerMinute = historyReadsPerMinute
        configuration.historyReadBurst = historyReadBurst
        configuration.outcomesPerBoard = outcomesPerBoard
        configuration.adminToken = adminToken
        configuration.maxConnections = maxConnections
        configuration.maxConnectionsPerAddress = maxConnectionsPerAddress
        configuration.headerTimeout = .seconds(headerTimeoutSeconds)
        configuration.idleTimeout = .seconds(idleTimeoutSeconds)
        slowClients.apply(to: &configuration)
        heapTrim.apply(to: &configuration)
        boardLinger.apply(to: &configuration)
        addressBudget.apply(to: &configuration)
        ipv6Networks.apply(to: &configuration)
        configuration.maxHeaderBytes = maxHeaderBytes
        configuration.helloTimeout = .seconds(helloTimeoutSeconds)
        configuration.shutdownGrace = .seconds(shutdownGraceSeconds)
        configuration.drainDelay = .seconds(drainSeconds)
        configuration.trustedProxies = try trustedProxies()
        configuration.clusterAnnounceInterval = .milliseconds(clusterAnnounceIntervalMs)
        configuration.clusterSilenceLimit = .milliseconds(clusterSilenceLimitMs)
        configuration.timekeeperGrace = .milliseconds(timekeeperGraceMs)
        configuration.storeTimeout = .seconds(storeTimeoutSeconds)
        configuration.allowPrivateWebhooks = allowPrivateWebhooks
        configuration.webhookRetrySchedule = try webhookRetrySchedule()
        configuration.webhookDisableAfter = .milliseconds(webhookDisableAfterMs)
        configuration.webhookChangeDelay = .milliseconds(webhookDebounceMs)
        configuration.webhookConnectTimeout = .milliseconds(webhookConnectTimeoutMs)
        configuration.webhookTimeout = .milliseconds(webhookTimeoutMs)
        configuration.webhookConcurrency = webhookConcurrency
        configuration.webhooksPerBoard = maxWebhooksPerBoard
        configuration.webhooksPerMinute = webhooksPerMinute
        configuration.webhookBurst = webhookBurst

        if logFormat == .json {
            LoggingSystem.bootstrap { label in JSONLogHandler(label: label) }
        }
        var logger = Logger(label: "timerboard")
        logger.logLevel = Logger.Level(rawValue: logLevel) ?? .info
        logger.notice("starting TimerBoard", metadata: ["tb.version": "\(TimerBoardVersion.number)", "tb.protocol": "\(protocolVersion)"])
        if let files = OpenFileLimit.raiseToHardLimit() {
            logger.info("each connection is an open file; this process may open \(files.soft)")
        }
        logger.info("connections are served by \(NIOSingletons.groupLoopCountSuggestion) event loops")
        for variable in EnvironmentOptions(for: Serve.self).unknownVariables(in: ProcessInfo.processInfo.environment) {
            logger.warning("ignoring an environment variable that names no option of serve", metadata: ["tb.variable": "\(variable)"])
        }
        do {
            try await runServer(configuration: configuration, logger: logger)
        } catch {
            // In the log's own format (one JSON object under --log-format json), then exit 1:
            // a service manager shows the reason and does not count it as a clean stop.
            let inUse = (error as? IOError)?.errnoCode == EADDRINUSE
            let message: Logger.Message = inUse ? "cannot serve: another process listens on \(host) port \(port)" : "cannot serve"
            logger.critical(message, metadata: ["tb.event": "server.failed", "tb.error": "\(error)"])
            throw ExitCode.failure
        }
    }
}

/// `timerboard reset-links BOARD`: new links for a board, for an operator (see `resetLinks`).
struct ResetLinks: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Give a board new owner, edit and view links; every old link stops working.",
        discussion: """
            While a server serves --data-directory (SQLite), the command asks that server, with the operator token \
            (--admin-token, or TIMERBOARD_ADMIN_TOKEN as the server reads it): it closes the old links' sockets at once. \
            With --store, nodes may keep serving: each hears of the change from the database and closes the sockets \
            that came in through an old link.
            """
    )

    @Argument(help: "The board's id.") var board: String
    @OptionGroup var location: OperatorStoreOptions
    @Option(help: "The operator's token of the server that serves --data-directory, if one does.") var adminToken: String?

    func run() async throws {
        if try location.postgresLocation() == nil, let server = ServingMark.server(dataDirectory: location.dataDirectory) {
            let links = try await resetThroughServer(url: server.url, pid: server.pid)
            for (role, path) in links { print("\(role): \(path)") }
            return
        }
        let links = try await location.withStore(.refuse) { store, name in
            guard let links = try await resetLinks(boardID: board, store: store) else {
                throw CommandFailure("there is no board \(board) in \(name)")
            }
            return links
        }
        for (role, path) in links { print("\(role.rawValue): \(path)") }
    }

    /// `POST /api/boards/BOARD/reset-links` to the server serving the data directory.
    private func resetThroughServer(url: String, pid: String) async throws -> [(String, String)] {
        let serving = "a server (pid \(pid), \(url)) serves \(location.dataDirectory)"
        guard let adminToken else {
            throw ValidationError(
                "\(serving): give its operator token (--admin-token or TIMERBOARD_ADMIN_TOKEN) so that it resets the links, or stop it first"
            )
        }
        let answer: LocalHTTP.Answer
        do {
            answer = try LocalHTTP.post(url: url + "/api/boards/\(board)/reset-links", bearer: adminToken)
        } catch {
            throw CommandFailure("\(serving), but it did not answer: \(error)")
        }
        guard answer.status == 200 else {
            let message = (try? JSONSerialization.jsonObject(with: answer.body) as? [String: Any])?["message"] as? String
            // A 404 for a board that exists is the server's answer to a wrong token too.
            let hint = answer.status == 404 ? " (or the operator token is not this server's)" : ""
            throw CommandFailure("\(serving) and answered \(answer.status): \(message ?? String(decoding: answer.body, as: UTF8.self))\(hint)")
        }
        guard let document = try? JSONSerialization.jsonObject(with: answer.body) as? [String: Any],
            let links = document["links"] as? [String: String]
        else { throw CommandFailure("\(serving) and answered what is not a set of links") }
        return BoardRole.allCases.compactMap { role in links[role.rawValue].map { (role.rawValue, $0) } }
    }
}
