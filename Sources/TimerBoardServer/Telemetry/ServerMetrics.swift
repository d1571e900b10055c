import BoardProtocol
import BoardStore
import CoreMetrics
import Prometheus

/// What `/metrics` shows (the table is in docs/architecture.md, "Metrics"): swift-metrics
/// objects made by a Prometheus factory over a registry of this application's own.
///
/// No `MetricsSystem.bootstrap`: it may run once per process, and a test process builds many
/// applications; each gets its own registry here, passed to every metric by `factory:`.
///
/// Cost on the hot path: each call below is one or two atomic adds (a histogram takes a lock),
/// and callers call once per decision, never once per receiver: a broadcast to 1,000
/// subscribers counts its deliveries as one `increment(by: 1_000)`, and the bytes a room
/// queued are summed in a local variable and added once per release. Gauges that are a count
/// of something (connections, live boards, running timers) are not kept up to date at all:
/// they are read from their owners when `/metrics` is scraped (`collect`).
final class ServerMetrics: Sendable {
    /// A registry nobody scrapes, for configurations that no application was built from
    /// (rooms made directly in unit tests).
    static let detached = ServerMetrics()

    let registry: PrometheusCollectorRegistry

    private let connections: CoreMetrics.Gauge
    private let liveBoards: CoreMetrics.Gauge
    private let timersRunning: CoreMetrics.Gauge
    private let snapshotJoins: CoreMetrics.Counter
    private let resumeJoins: CoreMetrics.Counter
    private let editsAccepted: CoreMetrics.Counter
    private let editsRejected: [ErrorCode: CoreMetrics.Counter]
    private let changesets: CoreMetrics.Counter
    private let changesetDeliveries: CoreMetrics.Counter
    private let sentMessages: CoreMetrics.Counter
    private let sentBytes: CoreMetrics.Counter
    private let slowClientDrops: CoreMetrics.Counter
    private let storeCommit: CoreMetrics.Timer
    private let editDurable: CoreMetrics.Timer
    private let finishedTimers: CoreMetrics.Counter
    private let heartbeatCloses: CoreMetrics.Counter
    private let lostClaims: CoreMetrics.Counter
    private let webhookDeliveries: [WebhookAttemptOutcome.Kind: CoreMetrics.Counter]
    private let webhookPending: CoreMetrics.Gauge

    /// Histogram buckets for the store's commits and for edits waiting on them: an fsync takes
    /// 0.1 to 10 ms on a local disk, a busy group commit longer.
    static let latencyBuckets: [Duration] = [
        .microseconds(250), .microseconds(500), .milliseconds(1), .milliseconds(2), .milliseconds(5), .milliseconds(10),
        .milliseconds(25), .milliseconds(50), .milliseconds(100), .milliseconds(250), .milliseconds(500), .seconds(1), .seconds(5),
    ]

    init() {
        let registry = PrometheusCollectorRegistry()
        var factory = PrometheusMetricsFactory(registry: registry)
        factory.durationHistogramBuckets = [
            "timerboard_store_commit_seconds": Self.latencyBuckets,
            "timerboard_edit_durable_seconds": Self.latencyBuckets,
        ]
        self.registry = registry
        func counter(_ name: String, _ dimensions: [(String, String)] = []) -> CoreMetrics.Counter {
            CoreMetrics.Counter(label: name, dimensions: dimensions, factory: factory)
        }
        func gauge(_ name: String, _ dimensions: [(String, String)] = []) -> CoreMetrics.Gauge {
            CoreMetrics.Gauge(label: name, dimensions: dimensions, factory: factory)
        }
        // Which version runs, as Prometheus's `*_build_info` convention has it: always 1, the
        // facts in its labels.
        gauge("timerboard_build_info", [("version", TimerBoardVersion.number), ("protocol", "\(protocolVersion)")]).record(1)
        connections = gauge("timerboard_websocket_connections")
        liveBoards = gauge("timerboard_live_boards")
        timersRunning = gauge("timerboard_timers_running")
        snapshotJoins = counter("timerboard_joins_total", [("kind", "snapshot")])
        resumeJoins = counter("timerboard_joins_total", [("kind", "resume")])
        editsAccepted = counter("timerboard_edits_accepted_total")
        // Every code made up front: a series that exists from the start shows 0, not nothing,
        // and counting never takes the registry's lock.
        editsRejected = Dictionary(
            uniqueKeysWithValues: ErrorCode.allCases.map { ($0, counter("timerboard_edits_rejected_total", [("code", $0.rawValue)])) }
        )
        changesets = counter("timerboard_changesets_total")
        changesetDeliveries = counter("timerboard_changeset_deliveries_total")
        sentMessages = counter("timerboard_sent_messages_total")
        sentBytes = counter("timerboard_sent_bytes_total")
        slowClientDrops = counter("timerboard_slow_client_drops_total")
        storeCommit = CoreMetrics.Timer(label: "timerboard_store_commit_seconds", factory: factory)
        editDurable = CoreMetrics.Timer(label: "timerboard_edit_durable_seconds", factory: factory)
        finishedTimers = counter("timerboard_timers_finished_total")
        heartbeatCloses = counter("timerboard_heartbeat_closes_total")
        lostClaims = counter("timerboard_revision_claims_lost_total")
        // Webhooks (issue 31): each attempt's outcome, and the outbox's length at the scrape.
        webhookDeliveries = Dictionary(
            uniqueKeysWithValues: WebhookAttemptOutcome.Kind.allCases.map {
                ($0, counter("timerboard_webhook_deliveries_total", [("result", $0.rawValue)]))
            }
        )
        webhookPending = gauge("timerboard_webhook_pending")
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
        if subscribers > 0 { changesetDeliveries.increment(by: subscribers) }
    }

    /// A room queued `messages` frames of `bytes` in all to its connections, in one release.
    func sent(messages: Int, bytes: Int) {
        guard messages > 0 else { return }
        sentMessages.increment(by: messages)
        sentBytes.increment(by: bytes)
    }

    /// A subscriber fell more than its queue behind and was disconnected.
    func slowClientDropped() {
        slowClientDrops.increment()
    }

    /// The store made `batch` durable in one commit that began at `started`; `applied` holds
    /// when each changeset of the batch was applied, in the same order.
    func stored(_ batch: [StoredChangeset], applied: [ContinuousClock.Instant], started: ContinuousClock.Instant) {
        let now = ContinuousClock.now
        storeCommit.recordInterval(since: started, end: now)
        // Only clients' edits: a timer's finish is the server's own and nobody waits for its ack.
        for (changeset, instant) in zip(batch, applied) where changeset.opID != nil {
            editDurable.recordInterval(since: instant, end: now)
        }
    }

    /// Timers that ran out were finished by the server.
    func timersFinished(_ count: Int) {
        if count > 0 { finishedTimers.increment(by: count) }
    }

    /// Another node wrote a revision this node had applied too (a shared store): the room reloads.
    func revisionClaimLost() {
        lostClaims.increment()
    }

    /// The heartbeat closed connections that answered no ping.
    func heartbeatClosed(_ count: Int) {
        if count > 0 { heartbeatCloses.increment(by: count) }
    }

    /// A webhook attempt ended: delivered, to be retried, or failed for good.
    func webhookAttempted(_ outcome: WebhookAttemptOutcome) {
        webhookDeliveries[outcome.kind]?.increment()
    }

    /// Deliveries waiting in the store's outbox, read at the scrape.
    func webhooksPending(_ count: Int) {
        webhookPending.record(count)
    }

    // MARK: Scraping

    /// Reads the gauges from their owners, then writes everything in Prometheus's text format.
    func collect(connections: Int, liveBoards: Int, timersRunning: Int) -> [UInt8] {
        self.connections.record(connections)
        self.liveBoards.record(liveBoards)
        self.timersRunning.record(timersRunning)
        var buffer: [UInt8] = []
        buffer.reserveCapacity(8_192)
        registry.emit(into: &buffer)
        return buffer
    }
}

extension CoreMetrics.Timer {
    fileprivate func recordInterval(since start: ContinuousClock.Instant, end: ContinuousClock.Instant) {
        let elapsed = start.duration(to: end).components
        recordNanoseconds(elapsed.seconds * 1_000_000_000 + elapsed.attoseconds / 1_000_000_000)
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
