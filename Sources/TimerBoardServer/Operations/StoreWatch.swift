import BoardStore
import Foundation
import Logging
import ServiceLifecycle
import Synchronization

/// Whether the store answers: the one check behind `/ready`, `timerboard_store_up` and the
/// log's `store.down` and `store.up` events. `/ready` asks it at every probe; as a service it
/// also asks every `interval`, so the metric and the log follow the store without a balancer
/// polling. A check is `BoardStore.check()` bounded by `timeout`, and at most one runs at a
/// time: a database that hangs makes the checks answer "no" in time, never pile up.
final class StoreWatch: Service, Sendable {
    private struct State {
        var answered = true
        var downSince: ContinuousClock.Instant?
        var running: Task<Void, any Error>?
    }

    private let store: any BoardStore
    /// Where the store is, for the log (never a password).
    private let storeName: String
    private let timeout: Duration
    private let interval: Duration
    private let metrics: ServerMetrics
    private let logger: Logger
    private let state = Mutex(State())

    init(
        store: any BoardStore,
        storeName: String,
        timeout: Duration = .seconds(2),
        interval: Duration = .seconds(2),
        metrics: ServerMetrics,
        logger: Logger
    ) {
        self.store = store
        self.storeName = storeName
        self.timeout = timeout
        self.interval = interval
        self.metrics = metrics
        self.logger = logger
    }

    /// What the last check said (true before the first: the store answered at start).
    var answered: Bool { state.withLock { $0.answered } }

    /// Asks the store now (or waits for the check already under way) and returns whether it
    /// answered within the timeout.
    func check() async -> Bool {
        let check = state.withLock { state in
            if let running = state.running { return running }
            let running = Task { [store] in try await store.check() }
            state.running = running
            return running
        }
        let outcome = await Deadline.wait(for: check, within: timeout)
        if case .finished = outcome {
            state.withLock { if $0.running == check { $0.running = nil } }
        } else {
            // Forgotten once it ends, so the next check starts afresh.
            Task { [weak self] in
                _ = await check.result
                self?.state.withLock { if $0.running == check { $0.running = nil } }
            }
        }
        switch outcome {
        case .finished(.success): record(nil)
        case .finished(.failure(let error)): record("\(error)")
        case .late: record("no answer within \(timeout)")
        }
        return answered
    }

    func run() async throws {
        await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                _ = await self.check()
                try? await Task.sleep(for: self.interval)
            }
        }
    }

    /// Notes a check's result (nil: it answered); logs a change.
    private func record(_ failure: String?) {
        let now = ContinuousClock.now
        let change = state.withLock { state -> (wentDown: Bool, downFor: Duration?)? in
            switch (state.answered, failure) {
            case (true, .some):
                state.answered = false
                state.downSince = now
                return (true, nil)
            case (false, nil):
                state.answered = true
                defer { state.downSince = nil }
                return (false, state.downSince.map { $0.duration(to: now) })
            default:
                return nil
            }
        }
        metrics.storeAnswered(failure == nil)
        guard let change else { return }
        if change.wentDown {
            logger.error(
                "the store does not answer",
                metadata: ["tb.event": "store.down", "tb.store": "\(storeName)", "tb.error": "\(failure ?? "")"]
            )
        } else {
            let seconds = change.downFor.map { String(format: "%.1f", Double($0.components.seconds) + Double($0.components.attoseconds) / 1e18) }
            logger.notice(
                "the store answers again",
                metadata: ["tb.event": "store.up", "tb.store": "\(storeName)", "tb.down.seconds": "\(seconds ?? "?")"]
            )
        }
    }
}
