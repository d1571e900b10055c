import NIOCore
import NIOWebSocket
import Synchronization

/// One connection's bounded queue of outgoing frames, written straight to its socket.
///
/// The board enqueues and moves on: `send` only appends under a lock and, when the queue was
/// empty, asks the connection's event loop to drain it. The drain writes everything pending and
/// flushes once, so a busy connection gets many frames per system call, and no task is woken
/// per frame. While the socket cannot take more (the peer is not reading), frames wait here;
/// when a client falls more than `capacity` frames, or `byteLimit` bytes, behind, it is
/// disconnected (it resumes from its revision) instead of growing the server's memory.
package final class Outbound: Sendable, Identifiable {
    /// Unique per connection, for logs and for the room's subscriber table.
    package let id: Int
    // The four fields below share one word, in this order (Swift lays a class out as declared):
    // one per connection, 104 bytes in all fit malloc's 112-byte blocks, 113 took 128.
    /// The most frames queued at once (`capacity`).
    private let frameLimit: UInt32
    /// The connection negotiated permessage-deflate: it may be sent compressed frames.
    package let acceptsDeflate: Bool
    /// Something arrived from the peer since the heartbeat last looked (set by the connection).
    private let heardFrom = Atomic<Bool>(true)
    /// `byteLimit` in MiB.
    private let mebibyteLimit: UInt16
    private let state = Mutex(State())
    /// What writes the frames out (the channel handler of a WebSocket, or an event stream's
    /// body); set by `attach`. Read and written on `eventLoop` only, which is what makes it safe
    /// without a lock. Not in a `NIOLoopBoundBox`: the box was one more heap object (48 bytes)
    /// for every connection, and its check of the thread ran on every drain.
    nonisolated(unsafe) private var writer: (any OutboundWriter)?
    /// The event loop the connection's writes happen on.
    package let eventLoop: any EventLoop

    /// The most frames queued at once; one more and the connection is dropped as too slow.
    package var capacity: Int { Int(frameLimit) }

    /// The most bytes queued at once, past which the connection is dropped as past `capacity`: a
    /// client that stopped reading (and only pinged) held gigabytes of a large board's frames. A
    /// frame alone in the queue always goes, so the largest snapshot still reaches a joiner.
    package var byteLimit: Int { Int(mebibyteLimit) << 20 }

    // Laid out so the two counters share a word and the flags end it: one per connection.
    private struct State {
        var frames: [OutboundFrame] = []
        /// Waiting in `untilRoomToAnswer` for the queue to empty out.
        var roomWaiters: [CheckedContinuation<Void, Never>] = []
        /// The bytes of `frames` (at most `byteLimit` and one frame).
        var queuedBytes: UInt32 = 0
        /// Answers a board holds for this connection until the edits before them are durable
        /// (`holdAnswer`); they join the queue together, a commit at a time.
        var heldAnswers: Int32 = 0
        /// A drain is queued on the event loop; no need to queue another.
        var drainScheduled = false
        /// False while the channel's send buffer is full.
        var writable = true
        var isOpen = true
        var overflowed = false
        /// `disconnect` may still close the writer: at most once, and never after `finish`.
        var mayClose = true

        /// Whether a session may answer its client: the socket takes frames and the queue is
        /// under half full, the other half left for what the board sends meanwhile. A held answer
        /// counts twice: an edit's ack comes with the edit's changeset.
        func hasRoomToAnswer(capacity: Int) -> Bool {
            writable && frames.count + 2 * Int(heldAnswers) < max(1, capacity / 2)
        }

        /// Empties `roomWaiters`, for the caller to resume once out of the lock.
        mutating func takeWaiters() -> [CheckedContinuation<Void, Never>] {
            defer { roomWaiters = [] }
            return roomWaiters
        }
    }

    /// An outbound queue for a connection on `eventLoop`; `attach` it before sending.
    package init(id: Int, capacity: Int, byteLimit: Int = 32 << 20, acceptsDeflate: Bool = false, eventLoop: any EventLoop) {
        self.id = id
        self.acceptsDeflate = acceptsDeflate
        frameLimit = UInt32(clamping: capacity)
        mebibyteLimit = UInt16(clamping: max(1, byteLimit >> 20))
        self.eventLoop = eventLoop
    }

    /// Writes the frames with `writer` (a WebSocket connection, or an event stream over HTTP):
    /// on the event loop. The writer says when it is full (`setWritable(false)`) and when it has
    /// room again, as a socket's writability does. The two hold each other until the writer
    /// ends (`writerEnded`, or the connection's channel closes).
    package func attach(writer: any OutboundWriter) {
        eventLoop.assertInEventLoop()
        self.writer = writer
    }

    /// The writer attached with `attach(writer:)` can take frames again, or cannot. On the
    /// event loop.
    package func setWritable(_ writable: Bool) {
        writabilityChanged(to: writable)
    }

    /// The stream that `attach(writer:)` fed has ended: nothing more is taken.
    package func writerEnded() {
        writerRemoved()
    }

    /// What `enqueue` did.
    package enum Enqueued {
        case queued
        /// Queued, and the queue needs a drain on the event loop: call `drain()` there.
        case needsDrain
        /// The connection is gone or has just overflowed.
        case refused
    }

    /// Queues a frame and drains it soon. Returns false when the connection is gone or has just
    /// overflowed.
    @discardableResult
    package func send(_ frame: OutboundFrame) -> Bool {
        switch enqueue(frame) {
        case .queued: return true
        case .needsDrain:
            eventLoop.execute { self.drain() }
            return true
        case .refused: return false
        }
    }

    /// Queues a frame; the caller schedules the drain (a broadcast schedules one per event
    /// loop for all its connections, see `LoopSubscribers`).
    package func enqueue(_ frame: OutboundFrame) -> Enqueued {
        enum Outcome {
            case enqueued(Enqueued)
            case overflowed
        }
        var waiters: [CheckedContinuation<Void, Never>] = []
        let outcome = state.withLock { state -> Outcome in
            guard state.isOpen else { return .enqueued(.refused) }
            let bytes = frame.bytes.readableBytes
            guard state.frames.count < capacity, state.frames.isEmpty || Int(state.queuedBytes) + bytes <= byteLimit else {
                state.isOpen = false
                state.overflowed = true
                state.frames = []
                state.queuedBytes = 0
                waiters = state.takeWaiters()
                return .overflowed
            }
            state.frames.append(frame)
            state.queuedBytes = UInt32(clamping: Int(state.queuedBytes) + bytes)
            guard state.writable, !state.drainScheduled else { return .enqueued(.queued) }
            state.drainScheduled = true
            return .enqueued(.needsDrain)
        }
        switch outcome {
        case .enqueued(let result): return result
        case .overflowed:
            for waiter in waiters { waiter.resume() }
            disconnect(.policyViolation, reason: "too far behind; rejoin with since")
            return .refused
        }
    }

    /// On the event loop: writes the frame at once when nothing is queued before it and the
    /// socket takes it, else queues it as `enqueue` does (a drain already due writes it). A
    /// broadcast on the loop (`LoopSubscribers`) touches each connection once this way, with no
    /// queue array made and freed per frame. Returns false when the connection refused it.
    package func sendOnLoop(_ frame: OutboundFrame) -> Bool {
        eventLoop.assertInEventLoop()
        let writesNow = state.withLock { state in
            state.isOpen && state.writable && !state.drainScheduled && state.frames.isEmpty
        }
        guard writesNow else {
            switch enqueue(frame) {
            case .queued: return true
            case .needsDrain:
                drain()
                return true
            case .refused: return false
            }
        }
        // Anything queued from another thread after the check schedules a drain, which runs on
        // this loop after this write.
        writer?.write(frame)
        return true
    }

    /// Returns once the queue has room for an answer: at once if it has, or once the socket has
    /// taken what is queued, or once the connection is closed. The session waits here before it
    /// answers its client's next message, so a client that sends without reading its answers is
    /// held back by TCP (the session stops reading it) instead of its answers piling up here until
    /// it is dropped as too far behind. The socket being writable is not enough: one read can
    /// bring thousands of small messages, and their answers queue up faster than the event loop,
    /// busy decoding that read, gets round to draining them.
    package func untilRoomToAnswer() async {
        // A drain wakes every waiter; answers a board still holds may leave no room yet.
        while state.withLock({ $0.isOpen && !$0.hasRoomToAnswer(capacity: capacity) }) {
            await waitForChange { $0.hasRoomToAnswer(capacity: $1) }
        }
    }

    /// Returns once every answer a board held for this connection is queued (or dropped with
    /// it), or once the connection is closed: what the session sends itself from then on, with no
    /// board to put it behind them, leaves after them.
    package func untilNoAnswerHeld() async {
        while state.withLock({ $0.isOpen && $0.heldAnswers > 0 }) {
            await waitForChange { state, _ in state.heldAnswers == 0 }
        }
    }

    /// Returns at once when the connection is closed or `isDone` holds; else waits for the next
    /// drain, release of held answers or close. The caller checks again.
    private func waitForChange(until isDone: (State, _ capacity: Int) -> Bool) async {
        await withCheckedContinuation { continuation in
            let waits = state.withLock { state -> Bool in
                guard state.isOpen, !isDone(state, capacity) else { return false }
                state.roomWaiters.append(continuation)
                return true
            }
            if !waits { continuation.resume() }
        }
    }

    /// A board holds an answer for this connection until what comes before it is durable: it
    /// counts against the room to answer, so a client that sends without reading is held back
    /// before a commit releases more answers than the queue takes.
    package func holdAnswer() {
        state.withLock { $0.heldAnswers += 1 }
    }

    /// The board queued `count` held answers (or dropped them with the connection).
    package func releaseHeldAnswers(_ count: Int) {
        let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.heldAnswers = Int32(clamping: max(0, Int(state.heldAnswers) - count))
            return state.hasRoomToAnswer(capacity: capacity) || state.heldAnswers == 0 ? state.takeWaiters() : []
        }
        for waiter in waiters { waiter.resume() }
    }

    /// Whether a board holds answers for this connection: the session's own answers then go
    /// behind them, through the board, so every answer leaves in the order of the messages.
    package var holdsAnswers: Bool { state.withLock { $0.heldAnswers > 0 } }

    /// How many wait in `untilRoomToAnswer` (for tests).
    var waitingForRoom: Int { state.withLock(\.roomWaiters.count) }

    /// Whether the peer sent anything since the last call; resets it.
    package func takeHeardFrom() -> Bool {
        heardFrom.exchange(false, ordering: .relaxed)
    }

    /// True once a frame was refused because the queue was full.
    package var didOverflow: Bool { state.withLock(\.overflowed) }

    /// Takes no more frames; what is queued is still written.
    package func finish() {
        stopTakingFrames()
        state.withLock { $0.mayClose = false }
    }

    /// Takes no more frames and closes the connection, on its event loop.
    package func disconnect(_ code: WebSocketErrorCode, reason: String) {
        stopTakingFrames()
        let closes = state.withLock { state in
            defer { state.mayClose = false }
            return state.mayClose
        }
        guard closes else { return }
        eventLoop.execute { self.writer?.close(code, reason: reason) }
    }

    /// What the peer sends may be read again: its receiver had said it was full. From any thread.
    package func resumeReading() {
        eventLoop.execute { self.writer?.resumeReading() }
    }

    /// Takes no more frames, and lets go of whoever waits for room to answer.
    private func stopTakingFrames() {
        let waiters = state.withLock { state in
            state.isOpen = false
            return state.takeWaiters()
        }
        for waiter in waiters { waiter.resume() }
    }

    // MARK: On the event loop

    /// Writes every queued frame and flushes once. On the event loop.
    package func drain() {
        let (frames, waiters) = state.withLock { state -> ([OutboundFrame], [CheckedContinuation<Void, Never>]) in
            state.drainScheduled = false
            guard state.writable else { return ([], []) }
            let frames = state.frames
            state.frames = []
            state.queuedBytes = 0
            return (frames, state.takeWaiters())
        }
        for waiter in waiters { waiter.resume() }
        eventLoop.assertInEventLoop()
        guard !frames.isEmpty, let writer else { return }
        writer.write(frames)
    }

    /// Writes what is queued, whether or not the socket has room, and nothing after it: the
    /// server's close frame goes next. On the event loop.
    package func flushBeforeClose() {
        let (frames, waiters) = state.withLock { state -> ([OutboundFrame], [CheckedContinuation<Void, Never>]) in
            state.isOpen = false
            state.writable = false  // no drain writes anything after the close
            let frames = state.frames
            state.frames = []
            state.queuedBytes = 0
            return (frames, state.takeWaiters())
        }
        for waiter in waiters { waiter.resume() }
        eventLoop.assertInEventLoop()
        guard !frames.isEmpty, let writer else { return }
        writer.write(frames)
    }

    /// The channel closed: drop the writer, which holds this queue (the two would keep each
    /// other alive).
    fileprivate func writerRemoved() {
        eventLoop.assertInEventLoop()
        writer = nil
        stopTakingFrames()
    }

    /// Bytes arrived from the peer: it is alive.
    package func heardFromPeer() {
        heardFrom.store(true, ordering: .relaxed)
    }

    /// The channel's writability changed: stop feeding it while full, drain when it empties.
    fileprivate func writabilityChanged(to writable: Bool) {
        let (drainNow, waiters) = state.withLock { state -> (Bool, [CheckedContinuation<Void, Never>]) in
            state.writable = writable
            let waiters = state.hasRoomToAnswer(capacity: capacity) ? state.takeWaiters() : []
            guard writable, !state.frames.isEmpty, !state.drainScheduled else { return (false, waiters) }
            state.drainScheduled = true
            return (true, waiters)
        }
        if drainNow { drain() }
        for waiter in waiters { waiter.resume() }
    }
}

/// What an `Outbound` writes its frames with. On the outbound's event loop only.
package protocol OutboundWriter: AnyObject {
    /// Writes the frames, in order, and flushes.
    func write(_ frames: [OutboundFrame])
    /// Writes one frame and flushes.
    func write(_ frame: OutboundFrame)
    /// Ends the stream with a code and a reason (a WebSocket's close frame).
    func close(_ code: WebSocketErrorCode, reason: String)
    /// Reads from the peer again after its receiver said it was full (a WebSocket's socket).
    func resumeReading()
}

extension OutboundWriter {
    package func write(_ frame: OutboundFrame) { write([frame]) }
}
