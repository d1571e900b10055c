import BoardProtocol
import BoardStore

/// Every limit and tunable of the server, with its default. The README's configuration table
/// lists each one with its command-line flag. Values only: the live objects built from them
/// (the store, metrics, the other nodes) are made once by `App/` and handed to what needs them.
public struct ServerConfiguration: Sendable {
    public var host: String = "127.0.0.1"
    public var port: Int = 8080
    /// Where the SQLite database lives.
    public var dataDirectory: String = "data"
    /// A PostgreSQL store shared by every node of a cluster (`postgres://USER@HOST:PORT/DB`);
    /// nil for the embedded default, SQLite in `dataDirectory`.
    public var store: PostgresLocation?
    /// The browser client's files.
    public var webRoot: String = "web-static"
    /// Largest file of the web root that is served; a larger one answers 404 (files are read
    /// into memory whole, and the client's largest is about 30 KiB).
    public var maxStaticFileBytes: Int = 16 << 20
    /// Message and board limits, announced to clients in `welcome`.
    public var limits = ProtocolLimits()
    /// Largest WebSocket frame accepted; a larger one closes the connection (1009). Messages
    /// between `limits.maxMessageBytes` and this get a `too_large` answer instead.
    public var maxFrameBytes: Int = 1 << 20
    /// Messages queued for one connection before it counts as too slow and is disconnected.
    public var outboundQueueLimit: Int = 1_024
    /// MiB queued for one connection before it counts as too slow and is disconnected (a message
    /// alone in the queue always goes).
    public var outboundQueueMebibytes: Int = 32
    /// Changesets per board kept for resume (in memory and in the store's log).
    public var retainedChangesets: Int = 1_000
    /// Bytes of changesets per board kept in memory for resume: past it, the oldest are no
    /// longer resumed from (a snapshot instead), whatever `retainedChangesets` says.
    public var retainedChangesetBytes: Int = 16 << 20
    /// Remembered edit outcomes per client per board, for idempotent resubmission.
    public var outcomesPerClient: Int = 1_000
    /// Edits a connection may send a second, on average (0: no limit); an edit that makes more
    /// than 100 changes counts as one per 100. Over it, `rate_limited` and nothing changes.
    public var editsPerSecond: Double = 100
    /// Edits a connection may send at once before `editsPerSecond` applies.
    public var editBurst: Int = 300
    /// Edits and joins one client address may send a second, on average, over all its sockets
    /// and HTTP edits together (0: no limit), so opening new sockets brings no fresh burst. (HTTP
    /// edits also have a budget per address of their own, at `editsPerSecond` and `editBurst`.)
    public var addressEditsPerSecond: Double = 300
    /// Edits and joins one client address may send at once before `addressEditsPerSecond` applies.
    public var addressEditBurst: Int = 900
    /// Edits one board may take a second, on average, from all its sockets and HTTP edits
    /// together (0: no limit), so many addresses cannot keep its room, and a core, busy for
    /// everyone else on it. Well above a busy board (30 people editing at once send a few dozen a
    /// second); over it, `rate_limited` as for a connection.
    public var boardEditsPerSecond: Double = 200
    /// Edits one board may take at once before `boardEditsPerSecond` applies.
    public var boardEditBurst: Int = 600
    /// Wrong operator tokens one client address may present a minute, on average, on the
    /// operator's routes (`GET /api/boards`, `reset-links`, `/metrics`) before its operator
    /// requests get `429` (0: no limit). The right token takes nothing.
    public var operatorGuessesPerMinute: Double = 5
    /// Wrong operator tokens one client address may present at once.
    public var operatorGuessBurst: Int = 10
    /// Boards one client address may create a minute, on average (0: no limit); over it, 429.
    public var boardsPerMinute: Double = 10
    /// Boards one client address may create at once before `boardsPerMinute` applies.
    public var boardBurst: Int = 20
    /// Reads of a board's history and report one client address may make a minute, on average
    /// (0: no limit), and at once: each report reads the whole retained log.
    public var historyReadsPerMinute: Double = 120
    public var historyReadBurst: Int = 30
    /// Remembered edit outcomes per board in all, whatever the number of client ids.
    public var outcomesPerBoard: Int = 20_000
    /// A client can undo its last this many edits of a board (what each replaced is kept with it,
    /// in memory and in the store's log)...
    public var undoPerClient: Int = 100
    /// ...and a board keeps that for this many edits in all, oldest forgotten first.
    public var undoPerBoard: Int = 2_000
    /// A snapshot of a board is stored every this many revisions.
    public var snapshotInterval: Int = 100
    /// Presence changes (arrivals, departures, what someone edits) are gathered this long and
    /// then sent as one message, so a crowd joining a board costs each client a few messages.
    public var presenceInterval: Duration = .milliseconds(50)
    /// Accept permessage-deflate offers: a snapshot then goes compressed (about 14× smaller),
    /// compressed once per revision for every such connection; changesets stay plain.
    public var permessageDeflate = true
    /// Every connection is pinged this often; one that sent nothing (not even the pong) for a
    /// whole interval is closed, so a vanished client does not hold a subscription forever.
    public var heartbeatInterval: Duration = .seconds(30)
    /// A board an HTTP request or an event stream used stays in memory this long after the
    /// last of them, for the next: a script polling or pressing buttons every few seconds finds
    /// it loaded instead of loading the whole board for each request. Zero: it leaves at once.
    public var boardLinger: Duration = .seconds(30)
    /// The heap's free pages go back to the kernel this often (`HeapTrimmer`, glibc only); nil:
    /// never, and what a moment of load freed stays resident until the next such moment reuses it.
    public var heapTrimInterval: Duration? = .seconds(10)
    /// Origins of pages (besides this server's own) that may open the board socket and make
    /// state-changing requests; requests without `Origin` (scripts) are always allowed.
    public var allowedOrigins: [String] = []
    /// The operator's secret: with it, `GET /api/boards` lists every board and it works as the
    /// owner's on a board's read and delete. Nil: there is no server-wide list at all.
    public var adminToken: String?

    // MARK: Connections, time and shutdown

    /// Most TCP connections open at once, WebSockets and plain HTTP alike, and never more than
    /// the process's file limit less a reserve (`OpenFileLimit`). At the cap, the longest-idle
    /// kept-alive HTTP connection is closed for a new one; with none idle, the new one's
    /// request is answered `503` (`ConnectionGuard`).
    public var maxConnections: Int = 10_000
    /// Most TCP connections open at once from one client address (`ClientAddress`: the TCP
    /// peer's IP, an IPv6 one by its /64; everyone behind one NAT shares it), with the same
    /// eviction. A trusted proxy's connections count in all only, and its WebSockets and event
    /// streams against the client it names.
    public var maxConnectionsPerAddress: Int = 1_000
    /// Most TCP connections open at once from one IPv6 network of `ipv6NetworkPrefix` bits,
    /// all its /64s together (a site usually holds a whole /48: ten of its /64s must not fill
    /// the server), with the same eviction. IPv4 addresses count per address only.
    public var maxConnectionsPerIPv6Network: Int = 1_000
    /// The IPv6 network `maxConnectionsPerIPv6Network` counts by: 16 to 64 bits.
    public var ipv6NetworkPrefix: Int = 48
    /// A connection must have sent its first request's whole header this soon after it was
    /// accepted, or it is closed without an answer.
    public var headerTimeout: Duration = .seconds(10)
    /// A kept-alive HTTP connection with no request in progress for this long is closed (later
    /// requests on it must also finish their header within it).
    public var idleTimeout: Duration = .seconds(30)
    /// A request must arrive whole, body included, this soon after its header, or it is answered
    /// `408` and the connection closed: a body dripped a byte at a time holds no connection.
    public var requestTimeout: Duration = .seconds(30)
    /// A kept-alive HTTP connection is closed this long after it was accepted (after the answer
    /// in progress, with `Connection: close`), however often it asks: clients open a new one.
    public var keepAliveLifetime: Duration = .seconds(300)
    /// Longest request header accepted, in bytes, for one field and for all of them together;
    /// a longer one is answered `431` and the connection closed.
    public var maxHeaderBytes: Int = 16 * 1_024
    /// A WebSocket must send `hello` this soon after the upgrade, or it is closed with 1008.
    public var helloTimeout: Duration = .seconds(10)
    /// After SIGTERM, connections get this long to finish (sockets are sent a close, idle HTTP
    /// ones are closed at once); then every connection still open is closed.
    public var shutdownGrace: Duration = .seconds(10)
    /// After SIGTERM and before anything else stops, `/ready` answers `503` for this long while
    /// everything goes on serving, so a load balancer that polls it can stop sending new clients.
    public var drainDelay: Duration = .zero

    // MARK: Operations

    /// How long an HTTP request (create, list, read, rename, share, delete) and a join wait for
    /// the store before they are answered `unavailable` (503): a database that is away costs
    /// clients a prompt error and a retry, never a hang. A board whose creation was answered
    /// so is deleted if the store made it after all.
    public var storeTimeout: Duration = .seconds(5)

    /// Proxies whose `X-Forwarded-For` / `X-Real-IP` name the client for per-address limits.
    public var trustedProxies = TrustedProxies()

    // MARK: A cluster (`store` set)

    /// How often each room tells the other nodes its whole list of users, so a node that starts
    /// later learns it.
    public var clusterAnnounceInterval: Duration = .seconds(10)
    /// A node not heard from this long has died: its users leave the other nodes' presence.
    /// Several announce intervals, so one lost message forgets nobody.
    public var clusterSilenceLimit: Duration = .seconds(30)
    /// How long a node that is not a board's timekeeper waits past a timer's deadline for the
    /// timekeeper's finish before it writes the finish itself.
    public var timekeeperGrace: Duration = .seconds(1)

    // MARK: Webhooks

    /// Send webhooks to loopback, private, link-local and other non-internet addresses too (a
    /// receiver on the same machine or network); off, such targets are refused (SSRF).
    public var allowPrivateWebhooks = false
    /// After a failed attempt, wait this long before the next (one entry per retry); after the
    /// last, the delivery has failed. Standard Webhooks' schedule: about a day.
    public var webhookRetrySchedule: [Duration] = [
        .seconds(5), .seconds(300), .seconds(1_800), .seconds(7_200), .seconds(18_000), .seconds(36_000), .seconds(36_000),
    ]
    /// An endpoint that has only failed for this long is disabled (its owner sees why).
    public var webhookDisableAfter: Duration = .seconds(86_400)
    /// A `board.changed` webhook waits this long for later changes to ride along (one per endpoint).
    public var webhookChangeDelay: Duration = .seconds(1)
    /// Longest wait to connect to an endpoint, and for a whole attempt.
    public var webhookConnectTimeout: Duration = .seconds(2)
    public var webhookTimeout: Duration = .seconds(5)
    /// Deliveries a node sends at once.
    public var webhookConcurrency = 16
    /// Endpoints one board may have.
    public var webhooksPerBoard = 10
    /// Endpoints one client address may register a minute, on average (0: no limit), and at once.
    public var webhooksPerMinute: Double = 10
    public var webhookBurst = 20

    public init() {}

    /// The SQLite file inside the data directory.
    public var databasePath: String { dataDirectory + "/timerboard.sqlite" }
}
