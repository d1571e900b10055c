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

    private let inbox: QueueWorker<Event>
    private let heartbeat: Heartbeat
    private let outbound: Outbound

    init(session: ClientSession, connection: WebSocketControl, heartbeat: Heartbeat) {
        inbox = QueueWorker(pauseAt: Self.limit, resume: { connection.resumeReading() }) { events in await session.answer(events) }
        self.heartbeat = heartbeat
        outbound = session.outbound
    }

    func received(_ message: InboundMessage) -> Bool {
        inbox.enqueue(.message(message))
    }

    func connectionClosed() {
        heartbeat.unregister(outbound)
        inbox.enqueue(.closed)
    }
}
