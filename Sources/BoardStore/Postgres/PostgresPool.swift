import Logging
import PostgresNIO
import Synchronization
import _ConnectionPoolModule

/// The store's connections to PostgreSQL: postgres-nio's pool (`PostgresClient`), with what it
/// does not offer.
///
/// - It counts the store's calls that wait for a connection and those that hold one: the pool's
///   own counts are not public (`/metrics`: `timerboard_store_pool_*`).
/// - Its errors come out readable (`PostgresFailure`), and a call cancelled while it waits for a
///   connection throws `CancellationError`: nothing reached the database. A call cancelled once
///   its statement was sent throws `StoreError.unavailable`: the statement may still complete.
/// - It can start afresh (`renew`). After the database has been away, postgres-nio retries
///   connecting with a backoff that grows by a quarter per failure up to a minute, and queues
///   every call meanwhile: a node would go on failing for up to a minute after its database was
///   back. A new pool connects at once.
final class PostgresPool: Sendable {
    private struct Running {
        var client: PostgresClient
        var task: Task<Void, Never>
        /// Pools replaced by `renew`, stopping; `close` waits for them too.
        var retired: [Task<Void, Never>] = []
    }

    let location: PostgresLocation
    private let logger: Logger
    private let running: Mutex<Running>
    private let waiting = Atomic<Int>(0)
    private let inUse = Atomic<Int>(0)

    /// Starts a pool; it connects on first use.
    init(location: PostgresLocation, logger: Logger) async {
        self.location = location
        self.logger = logger
        let client = PostgresClient(configuration: location.clientConfiguration, backgroundLogger: logger)
        running = Mutex(Running(client: client, task: await Self.startRunning(client)))
    }

    /// The pool in use now.
    var client: PostgresClient { running.withLock { $0.client } }

    /// Calls that wait for a connection now.
    var callsWaiting: Int { waiting.load(ordering: .relaxed) }
    /// Calls that hold a connection now (a node's `LISTEN` holds one for as long as it listens).
    var connectionsInUse: Int { inUse.load(ordering: .relaxed) }

    /// Runs `body` on a connection of the pool, counted, with its errors made readable. A call
    /// that gets no connection within `location.connectionWait` throws `unavailable` (nothing
    /// was sent); `body` itself runs as long as it needs (a node's `LISTEN` runs for ever).
    func withConnection<Result: Sendable>(_ body: @escaping @Sendable (PostgresConnection) async throws -> Result) async throws -> Result {
        guard let limit = location.connectionWait else { return try await withConnectionUnboundedWait(body) }
        let gotConnection = Flag()
        return try await withThrowingTaskGroup(of: Result?.self) { group in
            group.addTask {
                try await self.withConnectionUnboundedWait { connection in
                    gotConnection.set()
                    return try await body(connection)
                }
            }
            group.addTask {
                // Never throws: a cancelled call must end with what the lease says (nothing sent,
                // or a statement that may still complete), not with the timer's cancellation.
                try? await Task.sleep(for: limit)
                return nil
            }
            defer { group.cancelAll() }
            while let outcome = try await group.next() {
                if let result = outcome { return result }
                // The wait is over; a call that has its connection, or was cancelled, hears from the lease.
                guard gotConnection.isSet || Task.isCancelled else {
                    throw StoreError(.unavailable, "no connection to PostgreSQL at \(location.host):\(location.port) within \(limit)")
                }
            }
            throw CancellationError()
        }
    }

    /// Set once, read from another task.
    private final class Flag: Sendable {
        private let value = Atomic<Bool>(false)
        func set() { value.store(true, ordering: .relaxed) }
        var isSet: Bool { value.load(ordering: .relaxed) }
    }

    /// `withConnection` without `connectionWait`: for a caller that retries on its own and
    /// would rather wait (a node's `LISTEN`, `PostgresBoardStore.followChanges`).
    func withConnectionUnboundedWait<Result: Sendable>(_ body: (PostgresConnection) async throws -> Result) async throws -> Result {
        let client = client
        waiting.add(1, ordering: .relaxed)
        // Moved from waiting to in use by the body, which runs before `withConnection` returns.
        var leased = false
        defer {
            if leased { inUse.subtract(1, ordering: .relaxed) } else { waiting.subtract(1, ordering: .relaxed) }
        }
        do {
            return try await client.withConnection { connection in
                waiting.subtract(1, ordering: .relaxed)
                inUse.add(1, ordering: .relaxed)
                leased = true
                return try await body(connection)
            }
        } catch {
            // Given up on once the statement was sent (a result being read when the caller was
            // cancelled): PostgreSQL may still complete it, so this is no "nothing was written".
            if leased, error is CancellationError || (error as? ConnectionPoolError) == .requestCancelled {
                throw StoreError(
                    .unavailable,
                    "given up while PostgreSQL at \(location.host):\(location.port) ran the statement, which may still complete"
                )
            }
            throw PostgresFailure.storeError(error, host: location.host, port: location.port)
        }
    }

    /// Opens one connection outside the pool and closes it: whether the database answers now,
    /// and lets us in. Throws the database's refusal or why it could not be reached.
    func connectOnce() async throws {
        do {
            let connection = try await PostgresConnection.connect(
                configuration: try location.connectionConfiguration(),
                id: 0,
                logger: logger
            )
            try? await connection.close()
        } catch {
            throw RefusedOrAway(error: error, description: PostgresFailure.describe(error, host: location.host, port: location.port))
        }
    }

    /// A failed `connectOnce`: readable, and whether the database refused us (`isRefusedLogin`).
    struct RefusedOrAway: Error, CustomStringConvertible {
        let error: any Error
        let description: String
        var isRefusedLogin: Bool { PostgresFailure.isRefusedLogin(error) }
    }

    /// Replaces the pool with a new one, which connects at once, when no call holds a
    /// connection of the old one; the old one's waiting calls fail and are retried by their
    /// callers. Returns whether it replaced it.
    func renew() async -> Bool {
        guard connectionsInUse == 0 else { return false }
        let client = PostgresClient(configuration: location.clientConfiguration, backgroundLogger: logger)
        let task = await Self.startRunning(client)
        let old = running.withLock { running in
            let old = running.task
            running.retired.append(old)
            running.client = client
            running.task = task
            return old
        }
        old.cancel()
        return true
    }

    /// Closes every connection, of this pool and of those it replaced, and returns once they are closed.
    func close() async {
        let tasks = running.withLock { [$0.task] + $0.retired }
        for task in tasks {
            task.cancel()
            await task.value
        }
    }

    /// Starts the pool and returns once its task has begun. The task calls `run()` right after it
    /// signals, on its own thread (`run()` is nonisolated: no hop), and `run()` marks the pool as
    /// running first thing, so the first lease finds it running. Leased sooner, it would wait
    /// all the same, but postgres-nio logs a warning: it did at most starts.
    static func startRunning(_ client: PostgresClient) async -> Task<Void, Never> {
        let (started, signal) = AsyncStream<Void>.makeStream()
        let task = Task {
            signal.finish()
            await client.run()
        }
        for await _ in started {}
        return task
    }

    deinit {
        running.withLock { running in
            running.task.cancel()
            for task in running.retired { task.cancel() }
        }
    }
}
