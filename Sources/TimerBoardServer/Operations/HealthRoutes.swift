import BoardStore
import Hummingbird
import NIOCore
import Synchronization

/// `/health` and `/ready`, for load balancers, container runtimes and operators. They differ:
/// `/health` says the process answers at all (restart it if not); `/ready` says it should get
/// new clients: its store answers and it is not shutting down (send clients elsewhere if not).
struct HealthRoutes {
    let registry: BoardRegistry
    let store: any BoardStore
    let readiness: ServerReadiness
    /// How long the store may take to answer before the server counts as not ready.
    let storeTimeout: Duration

    func addRoutes(to router: Router<TimerBoardRequestContext>) {
        router.get("/health") { _, _ in
            // How many boards are in memory tells an operator (and a test) that idle boards leave.
            Self.json(.ok, #"{"status":"ok","liveBoards":\#(await registry.liveRoomCount)}"#)
        }
        router.get("/ready") { _, _ in
            if readiness.isDraining { return Self.json(.serviceUnavailable, #"{"status":"draining"}"#) }
            guard await storeAnswers() else { return Self.json(.serviceUnavailable, #"{"status":"store_unavailable"}"#) }
            return Self.json(.ok, #"{"status":"ready"}"#)
        }
    }

    /// One small read through the store, bounded in time: a locked or vanished database must
    /// make the server not ready rather than hang the probe. The read is not cancellable, so it
    /// runs on a task of its own and is left to finish when the time is up.
    private func storeAnswers() async -> Bool {
        let answer = OnceAnswer()
        return await withCheckedContinuation { continuation in
            answer.set(continuation)
            let read = Task { [store] in answer.resume((try? await store.boards(limit: 1)) != nil) }
            Task { [storeTimeout] in
                try? await Task.sleep(for: storeTimeout)
                answer.resume(false)
                read.cancel()
            }
        }
    }

    private static func json(_ status: HTTPResponse.Status, _ body: String) -> Response {
        Response(
            status: status,
            headers: [.contentType: "application/json", .cacheControl: "no-store"],
            body: .init(byteBuffer: ByteBuffer(string: body))
        )
    }
}

/// A continuation resumed by whichever of two tasks comes first.
private final class OnceAnswer: Sendable {
    private let continuation = Mutex<CheckedContinuation<Bool, Never>?>(nil)

    func set(_ continuation: CheckedContinuation<Bool, Never>) {
        self.continuation.withLock { $0 = continuation }
    }

    func resume(_ value: Bool) {
        continuation.withLock { $0.take() }?.resume(returning: value)
    }
}
