import NIOCore
import NIOWebSocket
import Synchronization
import TimerBoardTransport

/// Writes what a room sends an event stream's `Outbound` as server-sent events into the stream
/// the response body reads. While the body has `limit` writes it has not written (the client
/// reads slowly), the outbound is told it cannot write: frames wait in its bounded queue, and a
/// client that falls too far behind is closed as a slow socket would be.
final class EventStreamWriter: OutboundWriter, Sendable {
    /// Writes (each a few chunks) handed to the body and not yet written.
    private let pending = Atomic<Int>(0)
    private let limit: Int
    private let continuation: AsyncStream<[ByteBuffer]>.Continuation
    private let withPresence: Bool
    /// Tells the outbound to stop writing (on its event loop).
    private let onFull: @Sendable () -> Void

    /// What the response body reads: the chunks of one write at a time, written together.
    let chunks: AsyncStream<[ByteBuffer]>

    init(limit: Int = 64, withPresence: Bool, onFull: @escaping @Sendable () -> Void) {
        self.limit = limit
        self.withPresence = withPresence
        self.onFull = onFull
        (chunks, continuation) = AsyncStream.makeStream(of: [ByteBuffer].self)
    }

    /// On the outbound's event loop.
    func write(_ frames: [OutboundFrame]) {
        var chunks: [ByteBuffer] = []
        for frame in frames {
            guard let type = ServerSentEvent.type(of: frame.payload) else { continue }  // a control frame
            if !withPresence, type == "presence" || type == "presenceChanged" { continue }
            chunks += ServerSentEvent.event(for: frame.payloadBuffer) ?? []
        }
        guard !chunks.isEmpty else { return }
        continuation.yield(chunks)
        if pending.add(1, ordering: .relaxed).newValue == limit { onFull() }
    }

    /// The body wrote a chunk; true when that brought it back under the limit.
    func wrote() -> Bool {
        pending.subtract(1, ordering: .relaxed).newValue == limit - 1
    }

    /// A keep-alive comment, from the body's own timer.
    func keepAlive() {
        continuation.yield([ServerSentEvent.keepAlive])
    }

    /// The queue's `disconnect`: the WebSocket close code and reason as the last event.
    func close(_ code: WebSocketErrorCode, reason: String) {
        close(code: Int(UInt16(webSocketErrorCode: code)), reason: reason)
    }

    /// Nothing to do: an event stream reads nothing from its client after the request.
    func resumeReading() {}

    /// The last event, then the end of the stream.
    func close(code: Int, reason: String) {
        continuation.yield([ServerSentEvent.closed(code: code, reason: reason)])
        continuation.finish()
    }
}
