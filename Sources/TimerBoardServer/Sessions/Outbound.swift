import NIOCore
import Synchronization

/// One connection's bounded queue of outgoing frames.
///
/// The board enqueues and moves on; the connection's own writer task drains the queue. So a
/// slow socket never stalls the board or the other subscribers, and when a client falls more
/// than `capacity` messages behind, it is cut off (it resumes from its revision) instead of
/// growing the server's memory.
final class Outbound: Sendable {
    /// Unique per connection, for logs and for the room's subscriber table.
    let id: Int
    let frames: AsyncStream<ByteBuffer>
    private let continuation: AsyncStream<ByteBuffer>.Continuation
    private let overflowed = Atomic<Bool>(false)

    init(id: Int, capacity: Int) {
        self.id = id
        (frames, continuation) = AsyncStream.makeStream(of: ByteBuffer.self, bufferingPolicy: .bufferingOldest(capacity))
    }

    /// Queues a frame. Returns false when the connection is gone or has just overflowed.
    @discardableResult
    func send(_ frame: ByteBuffer) -> Bool {
        switch continuation.yield(frame) {
        case .enqueued: return true
        case .dropped:
            overflowed.store(true, ordering: .relaxed)
            continuation.finish()
            return false
        case .terminated: return false
        @unknown default: return false
        }
    }

    /// True once a frame was refused because the queue was full.
    var didOverflow: Bool { overflowed.load(ordering: .relaxed) }

    /// Ends the queue: the writer stops after what is queued.
    func finish() {
        continuation.finish()
    }
}
