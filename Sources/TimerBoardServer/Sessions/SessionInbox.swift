import Synchronization
import TimerBoardConcurrency
import TimerBoardTransport

/// What a WebSocket connection hands its messages to (on its event loop): they queue here and
/// one task at a time hands them to the session, in order, then ends, so an idle connection
/// holds no task. Once `limit` messages wait, the connection stops reading from its socket
/// until the session takes them: what one client can make the server hold is bounded (at most
/// this many messages, each of at most `maxFrameBytes`, plus what one read of the socket held).
final class SessionInbox: WebSocketMessageReceiver {
    enum Event: Sendable {
        case message(InboundMessage)
        case closed
    }

    /// Messages queued before the connection stops reading from its socket.
    static let limit = 8

    // `QueueWorker`'s discipline kept inline (`DrainQueue`): one of these per connection, so
    // the worker object and its closures would cost every idle connection about 200 bytes.
    private let queue = Mutex(DrainQueue<Event>())
    private let session: ClientSession
    private let connection: WebSocketControl
    private let heartbeat: Heartbeat
    /// The connection's place under the connection caps, given back when it closes.
    private let slot: ConnectionSlot?

    init(session: ClientSession, connection: WebSocketControl, heartbeat: Heartbeat, slot: ConnectionSlot?) {
        self.session = session
        self.connection = connection
        self.heartbeat = heartbeat
        self.slot = slot
    }

    func received(_ message: InboundMessage) -> Bool {
        enqueue(.message(message))
    }

    func connectionClosed() {
        heartbeat.unregister(session.outbound)
        slot?.giveBack()
        enqueue(.closed)
    }

    @discardableResult
    private func enqueue(_ event: Event) -> Bool {
        let (start, keepReading) = queue.withLock { $0.append(event, pauseAt: Self.limit) }
        if start {
            Task { await self.drain() }
        }
        return keepReading
    }

    private func drain() async {
        while true {
            let (events, resumeReading) = queue.withLock { $0.takeBatch() }
            if resumeReading { connection.resumeReading() }
            if events.isEmpty { return }
            await session.answer(events)
        }
    }
}
