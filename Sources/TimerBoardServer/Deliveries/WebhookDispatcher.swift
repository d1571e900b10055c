import AsyncHTTPClient
import BoardStore
import Logging
import ServiceLifecycle
import Synchronization

/// Sends what the store's outbox holds: claims due deliveries (leased, so on a cluster each is
/// sent by one node), sends at most `concurrency` at once, records each attempt and what it
/// means (`WebhookRetryPolicy`), and disables an endpoint that failed for too long. Woken at once
/// by a room that stored deliveries (`WebhookOutbox`), and every `pollInterval` for what other
/// nodes stored or what fell due. A service: at shutdown it claims nothing more and lets the
/// sends under way finish (each within its timeout); what it did not send waits in the store.
final class WebhookDispatcher: Service, Sendable {
    struct Settings: Sendable {
        var policy = WebhookRetryPolicy(schedule: WebhookRetryPolicy.standardSchedule, disableAfter: 86_400_000)
        var allowPrivate = false
        var connectTimeout: Duration = .seconds(2)
        var timeout: Duration = .seconds(5)
        var concurrency = 16
        var pollInterval: Duration = .seconds(1)
    }

    private let store: any BoardStore
    private let outbox: WebhookOutbox
    private let registry: BoardRegistry
    private let settings: Settings
    private let sender: WebhookSender
    private let clock: any ServerClock
    private let metrics: ServerMetrics
    private let logger: Logger
    private let inFlight = Mutex(0)
    private let stopping = Atomic(false)

    init(
        store: any BoardStore,
        outbox: WebhookOutbox,
        registry: BoardRegistry,
        settings: Settings,
        clock: any ServerClock,
        metrics: ServerMetrics,
        logger: Logger
    ) {
        self.store = store
        self.outbox = outbox
        self.registry = registry
        self.settings = settings
        sender = WebhookSender(allowPrivate: settings.allowPrivate, timeout: settings.timeout)
        self.clock = clock
        self.metrics = metrics
        self.logger = logger
    }

    /// A lease outlasts any send, so a delivery is never sent by two nodes at once; one whose
    /// node died is sent again once its lease runs out.
    private var lease: Int64 { (settings.timeout + settings.connectTimeout).milliseconds * 2 + 5_000 }

    func run() async throws {
        do {
            try await store.releaseAbandonedLeases()
        } catch {
            logger.warning("could not take back the webhook leases of the last run", metadata: ["tb.error": "\(error)"])
        }
        let client = WebhookSender.makeClient(connectTimeout: settings.connectTimeout)
        await withDiscardingTaskGroup { group in
            await withGracefulShutdownHandler {
                // Cancelled too when another service failed (the port was taken): the store then
                // answers every claim with CancellationError at once, and a loop that waited only
                // for `stopping` spun and logged without end, and the process never exited.
                while !stopping.load(ordering: .relaxed), !Task.isCancelled {
                    let free = settings.concurrency - inFlight.withLock { $0 }
                    if free > 0 {
                        for delivery in await claim(free) {
                            inFlight.withLock { $0 += 1 }
                            group.addTask {
                                await self.deliver(delivery, with: client)
                                self.inFlight.withLock { $0 -= 1 }
                                self.outbox.ring()  // a slot is free
                            }
                        }
                    }
                    await outbox.waitForDeliveries(atMost: await pause(slotsFree: free > 0))
                }
            } onGracefulShutdown: { [self] in
                stopping.store(true, ordering: .relaxed)
                outbox.ring()
            }
        }
        try? await client.shutdown()
    }

    /// Until the next delivery falls due (a retry, a debounced change), at most the poll
    /// interval (for what other nodes store), and at least 10 ms, so a delivery that another node
    /// holds cannot make this one spin. With every slot busy, a finished send rings.
    private func pause(slotsFree: Bool) async -> Duration {
        guard slotsFree, let next = try? await store.nextDeliveryTime() else { return settings.pollInterval }
        return min(settings.pollInterval, .milliseconds(max(10, next - clock.now())))
    }

    private func claim(_ limit: Int) async -> [WebhookDelivery] {
        let now = clock.now()
        do {
            return try await store.claimDeliveries(now: now, limit: limit, leaseUntil: now + lease)
        } catch {
            logger.warning("could not read the webhook outbox", metadata: ["tb.error": "\(error)"])
            return []
        }
    }

    /// One attempt, recorded with what it means.
    private func deliver(_ delivery: WebhookDelivery, with client: HTTPClient) async {
        let started = clock.now()
        let answer = await sender.send(delivery, with: client, now: started)
        let finished = clock.now()
        let attempt = WebhookAttempt(
            webhookID: delivery.webhookID,
            messageID: delivery.id,
            event: delivery.event,
            time: started,
            status: answer.status,
            error: answer.error,
            durationMs: finished - started
        )
        let outcome = settings.policy.outcome(succeeded: answer.succeeded, attemptsBefore: delivery.attempts, now: finished)
        metrics.webhookAttempted(outcome)
        let endpoint: WebhookEndpoint?
        do {
            endpoint = try await store.recordAttempt(attempt, of: delivery, outcome: outcome)
        } catch {
            // Not recorded: the lease runs out and the delivery is sent again (at least once).
            return logger.error("could not record a webhook attempt", metadata: ["tb.webhook.id": "\(delivery.webhookID)", "tb.error": "\(error)"])
        }
        guard outcome != .delivered, let endpoint, endpoint.enabled, let since = endpoint.failingSince else { return }
        let why = answer.status.map { "answered HTTP \($0)" } ?? answer.error ?? "failed"
        var metadata: Logger.Metadata = ["tb.board.id": "\(endpoint.boardID)", "tb.webhook.id": "\(endpoint.id)", "tb.error": "\(why)"]
        if since == started { logger.notice("a webhook endpoint started failing", metadata: metadata) }
        guard settings.policy.disables(failingSince: since, now: finished) else { return }
        let reason = "failing since \(WebhookTimestamp.iso8601(milliseconds: since)); the last attempt \(why)"
        do {
            try await store.disableWebhook(id: endpoint.id, boardID: endpoint.boardID, reason: reason)
        } catch {
            metadata["tb.error"] = "\(error)"
            return logger.error("could not disable a failing webhook endpoint", metadata: metadata)
        }
        await registry.room(ifLoaded: endpoint.boardID)?.webhooksChanged(.disabled(id: endpoint.id, reason: reason))
        logger.warning("disabled a webhook endpoint that kept failing", metadata: metadata)
    }
}
