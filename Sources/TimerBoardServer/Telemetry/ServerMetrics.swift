import BoardProtocol
import BoardStore
import Prometheus

/// What `/metrics` shows (the table is in docs/architecture.md, "Metrics"): swift-prometheus's
/// counters, gauges and histograms in a registry of this application's own, each family with
/// its `# HELP` line.
///
/// One registry per application, never a process-wide one: a test process builds many.
///
/// Cost on the hot path: each call below is one or two atomic adds (a histogram takes a lock),
/// and callers call once per decision, never once per receiver: a broadcast to 1,000
/// subscribers counts its deliveries as one `increment(by: 1_000)`, and the bytes a room
/// queued are summed in a local variable and added once per release. Gauges that are a count
/// of something (connections, live boards, running timers, the store's pool, the process) are
/// not kept up to date at all: they are read from their owners when `/metrics` is scraped
/// (`collect`).
final class ServerMetrics: Sendable {
    /// A registry nobody scrapes, for configurations that no application was built from
    /// (rooms made directly in unit tests).
    static let detached = ServerMetrics()

    let registry: PrometheusCollectorRegistry

    private let connections: Gauge
    private let liveBoards: Gauge
    private let timersRunning: Gauge
    private let snapshotJoins: Counter
    private let resumeJoins: Counter
    private let editsAccepted: Counter
    private let editsRejected: [ErrorCode: Counter]
    private let changesets: Counter
    private let changesetDeliveries: Counter
    private let sentMessages: Counter
    private let sentBytes: Counter
    private let slowClientDrops: Counter
    private let storeCommit: DurationHistogram
    private let editDurable: DurationHistogram
    private let finishedTimers: Counter
    private let heartbeatCloses: Counter
    private let heapTrims: Counter
    private let heapTrimmedBytes: Counter
    private let lostClaims: Counter
    private let refusals: [HTTPRefusal: Counter]
    private let storeUp: Gauge
    private let poolInUse: Gauge
    private let poolWaiting: Gauge
    private let poolMax: Gauge
    private let clusterNodes: Gauge
    private let webhookDeliveries: [WebhookAttemptOutcome.Kind: Counter]
    private let webhookPending: Gauge
    private let process: ProcessGauges

    /// Histogram buckets for the store's commits and for edits waiting on them: an fsync takes
    /// 0.1 to 10 ms on a local disk, a busy group commit longer.
    static let latencyBuckets: [Duration] = [
        .microseconds(250), .microseconds(500), .milliseconds(1), .milliseconds(2), .milliseconds(5), .milliseconds(10),
        .milliseconds(25), .milliseconds(50), .milliseconds(100), .milliseconds(250), .milliseconds(500), .seconds(1), .seconds(5),
    ]

    /// `maxConnections`: the configured cap (`--max-connections`), shown as a gauge so dashboards
    /// and alerts compare against the cap the node runs with.
    init(maxConnections: Int = 0) {
        _ = ProcessStart.seconds
        let registry = PrometheusCollectorRegistry()
        self.registry = registry
        func counter(_ name: String, _ help: String, _ labels: [(String, String)] = []) -> Counter {
            registry.makeCounter(descriptor: .named(name, help), labels: labels)
        }
        func gauge(_ name: String, _ help: String, _ labels: [(String, String)] = []) -> Gauge {
            registry.makeGauge(descriptor: .named(name, help), labels: labels)
        }
        // Which version runs, as Prometheus's `*_build_info` convention has it: always 1, the
        // facts in its labels.
        gauge(
            "timerboard_build_info",
            "Always 1: the TimerBoard version this node runs and the protocol version it speaks.",
            [("version", TimerBoardVersion.number), ("protocol", "\(protocolVersion)")]
        ).set(Int64(1))
        gauge("timerboard_max_connections", "The most connections this node keeps open at once, WebSockets, event streams and plain HTTP together (--max-connections).")
            .set(Int64(maxConnections))
        connections = gauge("timerboard_websocket_connections", "WebSocket connections open now.")
        liveBoards = gauge("timerboard_live_boards", "Boards in memory now.")
        timersRunning = gauge("timerboard_timers_running", "Timers running on the boards in memory now.")
        let joins = "Joins answered, by kind: snapshot (the whole board) or resume (the changesets missed)."
        snapshotJoins = counter("timerboard_joins_total", joins, [("kind", "snapshot")])
        resumeJoins = counter("timerboard_joins_total", joins, [("kind", "resume")])
        editsAccepted = counter("timerboard_edits_accepted_total", "Edits applied, or acked unchanged; resends of a known op id not counted.")
        // Every code and reason made up front: a series that exists from the start shows 0,
        // not nothing, and counting never takes the registry's lock.
        editsRejected = Dictionary(
            uniqueKeysWithValues: ErrorCode.allCases.map {
                ($0, counter("timerboard_edits_rejected_total", "Edits rejected, by error code; nothing changed.", [("code", $0.rawValue)]))
            }
        )
        changesets = counter("timerboard_changesets_total", "Revisions made: clients' edits and the server's timer finishes.")
        changesetDeliveries = counter(
            "timerboard_changeset_deliveries_total",
            "Changesets times the subscribers on the board when each was made."
        )
        sentMessages = counter("timerboard_sent_messages_total", "Frames the boards queued to connections.")
        sentBytes = counter("timerboard_sent_bytes_total", "Bytes of the frames the boards queued to connections.")
        slowClientDrops = counter(
            "timerboard_slow_client_drops_total",
            "Subscribers disconnected for falling --outbound-queue-limit messages behind."
        )
        storeCommit = registry.makeDurationHistogram(
            descriptor: .named("timerboard_store_commit_seconds", "One group commit of a board's changesets to the store."),
            buckets: Self.latencyBuckets
        )
        editDurable = registry.makeDurationHistogram(
            descriptor: .named("timerboard_edit_durable_seconds", "An accepted edit, from applied to durable (just before its ack)."),
            buckets: Self.latencyBuckets
        )
        finishedTimers = counter("timerboard_timers_finished_total", "Timers the server finished when they ran out.")
        heartbeatCloses = counter("timerboard_heartbeat_closes_total", "Connections closed for answering no ping.")
        heapTrims = counter("timerboard_heap_trims_total", "Times the server gave the heap's free pages back to the kernel (--heap-trim-seconds).")
        heapTrimmedBytes = counter("timerboard_heap_trimmed_bytes_total", "Resident bytes those trims gave back.")
        lostClaims = counter(
            "timerboard_revision_claims_lost_total",
            "Appends refused because another node had written that revision first (the board was reloaded)."
        )
        refusals = Dictionary(
            uniqueKeysWithValues: HTTPRefusal.allCases.map {
                let help = "Connections and requests refused before any route ran, by reason (which cap or limit)."
                return ($0, counter("timerboard_http_refusals_total", help, [("reason", $0.rawValue)]))
            }
        )
        storeUp = gauge("timerboard_store_up", "1 when the store answered its last check (the one /ready makes), 0 when it did not.")
        storeUp.set(Int64(1))
        poolInUse = gauge("timerboard_store_pool_connections_in_use", "Database connections the store's calls hold now (PostgreSQL; 0 on SQLite).")
        poolWaiting = gauge(
            "timerboard_store_pool_waiting_calls",
            "Store calls waiting for a database connection now (PostgreSQL; 0 on SQLite)."
        )
        poolMax = gauge("timerboard_store_pool_connections_max", "The most database connections the store opens (--store-connections; 0 on SQLite).")
        clusterNodes = gauge("timerboard_cluster_nodes", "Nodes of the cluster this node hears, itself included (1 on a node of its own).")
        webhookDeliveries = Dictionary(
            uniqueKeysWithValues: WebhookAttemptOutcome.Kind.allCases.map {
                let help = "Webhook delivery attempts, by result: delivered, retried (to be tried again) or failed (for good)."
                return ($0, counter("timerboard_webhook_deliveries_total", help, [("result", $0.rawValue)]))
            }
        )
        webhookPending = gauge("timerboard_webhook_pending", "Webhook deliveries waiting in the store's outbox, read at the scrape.")
        process = ProcessGauges(registry: registry)
    }

    // MARK: Counting (any thread)

    /// A join answered with a snapshot, or with a resume and the changesets missed.
    func joined(resumed: Bool) {
        (resumed ? resumeJoins : snapshotJoins).increment()
    }

    /// An edit was applied (or changed nothing and was acked as it stood).
    func editAccepted() {
        editsAccepted.increment()
    }

    /// An edit was refused with `code`; nothing changed.
    func editRejected(_ code: ErrorCode) {
        editsRejected[code]?.increment()
    }

    /// A new revision; it goes to the `subscribers` on the board now.
    func changesetCommitted(subscribers: Int) {
        changesets.increment()
        if subscribers > 0 { changesetDeliveries.increment(by: Int64(subscribers)) }
    }

    /// A room queued `messages` frames of `bytes` in all to its connections, in one release.
    func sent(messages: Int, bytes: Int) {
        guard messages > 0 else { return }
        sentMessages.increment(by: Int64(messages))
        sentBytes.increment(by: Int64(bytes))
    }

    /// A subscriber fell more than its queue behind and was disconnected.
    func slowClientDropped() {
        slowClientDrops.increment()
    }

    /// The store made `batch` durable in one commit that began at `started`; `applied` holds
    /// when each changeset of the batch was applied, in the same order.
    func stored(_ batch: [StoredChangeset], applied: [ContinuousClock.Instant], started: ContinuousClock.Instant) {
        let now = ContinuousClock.now
        storeCommit.record(started.duration(to: now))
        // Only clients' edits: a timer's finish is the server's own and nobody waits for its ack.
        for (changeset, instant) in zip(batch, applied) where changeset.opID != nil {
            editDurable.record(instant.duration(to: now))
        }
    }

    /// Timers that ran out were finished by the server.
    func timersFinished(_ count: Int) {
        if count > 0 { finishedTimers.increment(by: Int64(count)) }
    }

    /// Another node wrote a revision this node had applied too (a shared store): the room reloads.
    func revisionClaimLost() {
        lostClaims.increment()
    }

    /// The heartbeat closed connections that answered no ping.
    func heartbeatClosed(_ count: Int) {
        if count > 0 { heartbeatCloses.increment(by: Int64(count)) }
    }

    /// The heap's free pages went back to the kernel; resident memory fell by `bytes`.
    func heapTrimmed(bytes: Int) {
        heapTrims.increment()
        heapTrimmedBytes.increment(by: Int64(bytes))
    }

    /// A connection or request was refused before any route ran.
    func refused(_ reason: HTTPRefusal) {
        refusals[reason]?.increment()
    }

    /// What the store's last check said (`StoreWatch`).
    func storeAnswered(_ answered: Bool) {
        storeUp.set(Int64(answered ? 1 : 0))
    }

    /// A webhook attempt ended: delivered, to be retried, or failed for good.
    func webhookAttempted(_ outcome: WebhookAttemptOutcome) {
        webhookDeliveries[outcome.kind]?.increment()
    }

    /// Deliveries waiting in the store's outbox, read at the scrape.
    func webhooksPending(_ count: Int) {
        webhookPending.set(Int64(count))
    }

    // MARK: Scraping

    /// What `collect` reads from the gauges' owners.
    struct Readings {
        var connections = 0
        var liveBoards = 0
        var timersRunning = 0
        var pool: (any StoreConnectionPool)?
        var clusterNodes = 1
    }

    /// Reads the gauges from their owners, then writes everything in Prometheus's text format.
    func collect(_ readings: Readings) -> [UInt8] {
        connections.set(Int64(readings.connections))
        liveBoards.set(Int64(readings.liveBoards))
        timersRunning.set(Int64(readings.timersRunning))
        poolInUse.set(Int64(readings.pool?.connectionsInUse ?? 0))
        poolWaiting.set(Int64(readings.pool?.callsWaiting ?? 0))
        poolMax.set(Int64(readings.pool?.maximumConnections ?? 0))
        clusterNodes.set(Int64(readings.clusterNodes))
        process.record(ProcessStats.read())
        var buffer: [UInt8] = []
        buffer.reserveCapacity(16_384)
        registry.emit(into: &buffer)
        return buffer
    }
}

extension MetricNameDescriptor {
    /// A family by its whole name (the names are docs/architecture.md's), with its `# HELP`.
    static func named(_ name: String, _ help: String) -> MetricNameDescriptor {
        MetricNameDescriptor(metricName: name, unitName: "", helpText: help)
    }
}

extension WebhookAttemptOutcome {
    /// The `result` label of `timerboard_webhook_deliveries_total`.
    enum Kind: String, CaseIterable {
        case delivered, retried, failed
    }

    var kind: Kind {
        switch self {
        case .delivered: .delivered
        case .retry: .retried
        case .failed: .failed
        }
    }
}
