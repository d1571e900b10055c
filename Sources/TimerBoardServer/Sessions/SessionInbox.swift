import Synchronization
import TimerBoardConcurrency
import TimerBoardTransport

/// Where a WebSocket connection's messages wait for its session (`ClientSession`), which keeps
/// it inline: they queue here, on the connection's event loop, and one task at a time takes
/// them, in order, then ends, so an idle connection holds no task. Once `limit` messages wait,
/// the connection stops reading from its socket until the session takes them: what one client
/// can make the server hold is bounded (at most this many messages, each of at most
/// `maxFrameBytes`, plus what one read of the socket held).
///
/// A value inside the session, not an object beside it: as an object of its own, with its
/// pointers to the session, the channel and the heartbeat, it cost every idle connection 64
/// bytes more of heap (docs/performance.md).
struct SessionInbox: ~Copyable, Sendable {
    enum Event: Sendable {
        case message(InboundMessage)
        case closed
    }

    /// Messages queued before the connection stops reading from its socket.
    static let limit = 8

    // `QueueWorker`'s discipline kept inline (`DrainQueue`): its worker object and closures
    // would cost every idle connection about 200 bytes.
    private let queue = Mutex(DrainQueue<Event>())

    /// Queues `event`. `startTask`: no task is taking events, the caller must start one (which
    /// calls `takeBatch` until it is empty). `keepReading`: false once `limit` messages wait.
    func add(_ event: Event) -> (startTask: Bool, keepReading: Bool) {
        let (start, keepProducing) = queue.withLock { $0.append(event, pauseAt: Self.limit) }
        return (start, keepProducing)
    }

    /// Every event waiting, oldest first; empty means the task must end. `resumeReading`: the
    /// connection had stopped reading and may read again.
    func takeBatch() -> (events: [Event], resumeReading: Bool) {
        let (events, resume) = queue.withLock { $0.takeBatch() }
        return (events, resume)
    }
}
