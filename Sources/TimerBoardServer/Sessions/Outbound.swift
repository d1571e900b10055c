import NIOCore
import NIOWebSocket
import Synchronization

/// One connection's bounded queue of outgoing frames, written straight into its channel.
///
/// The board enqueues and moves on: `send` only appends under a lock and, when the queue was
/// empty, asks the connection's event loop to drain it. The drain writes everything pending and
/// flushes once, so a busy connection gets many frames per system call, and no task is woken
/// per frame. While the socket cannot take more (the peer is not reading), frames wait here;
/// when a client falls more than `capacity` frames behind, it is disconnected (it resumes from
/// its revision) instead of growing the server's memory.
final class Outbound: Sendable {
    /// Unique per connection, for logs and for the room's subscriber table.
    let id: Int
    private let capacity: Int
    private let state = Mutex(State())
    /// The handler that writes into the channel; set by `attach`, used on its event loop only.
    private let writer: NIOLoopBoundBox<FrameWriter?>
    private let eventLoop: any EventLoop
    /// Asks the session to close the WebSocket (once), with a close code and reason.
    let closeRequests: AsyncStream<CloseRequest>
    private let closeContinuation: AsyncStream<CloseRequest>.Continuation

    struct CloseRequest: Sendable {
        let code: WebSocketErrorCode
        let reason: String
    }

    private struct State {
        var frames: [ByteBuffer] = []
        /// A drain is queued on the event loop; no need to queue another.
        var drainScheduled = false
        /// False while the channel's send buffer is full.
        var writable = true
        var isOpen = true
        var overflowed = false
    }

    /// An outbound queue for a connection on `eventLoop`; `attach` it before sending.
    init(id: Int, capacity: Int, eventLoop: any EventLoop) {
        self.id = id
        self.capacity = capacity
        self.eventLoop = eventLoop
        writer = .makeEmptyBox(valueType: FrameWriter.self, eventLoop: eventLoop)
        (closeRequests, closeContinuation) = AsyncStream.makeStream(of: CloseRequest.self, bufferingPolicy: .bufferingNewest(1))
    }

    /// Puts the writer at the end of `channel`'s pipeline, after the WebSocket frame encoder.
    func attach(to channel: any Channel) async throws {
        try await eventLoop.submit {
            let handler = FrameWriter(outbound: self)
            try channel.pipeline.syncOperations.addHandler(handler)
            self.writer.value = handler
        }.get()
    }

    /// Queues a frame. Returns false when the connection is gone or has just overflowed.
    @discardableResult
    func send(_ frame: ByteBuffer) -> Bool {
        enum Outcome { case queued, scheduleDrain, refused, overflowed }
        let outcome = state.withLock { state -> Outcome in
            guard state.isOpen else { return .refused }
            guard state.frames.count < capacity else {
                state.isOpen = false
                state.overflowed = true
                state.frames = []
                return .overflowed
            }
            state.frames.append(frame)
            guard state.writable, !state.drainScheduled else { return .queued }
            state.drainScheduled = true
            return .scheduleDrain
        }
        switch outcome {
        case .queued: return true
        case .scheduleDrain:
            eventLoop.execute { self.drain() }
            return true
        case .refused: return false
        case .overflowed:
            disconnect(.policyViolation, reason: "too far behind; rejoin with since")
            return false
        }
    }

    /// True once a frame was refused because the queue was full.
    var didOverflow: Bool { state.withLock(\.overflowed) }

    /// Takes no more frames; what is queued is still written.
    func finish() {
        state.withLock { $0.isOpen = false }
        closeContinuation.finish()
    }

    /// Takes no more frames and asks the session to close the connection.
    func disconnect(_ code: WebSocketErrorCode, reason: String) {
        state.withLock { $0.isOpen = false }
        closeContinuation.yield(CloseRequest(code: code, reason: reason))
        closeContinuation.finish()
    }

    // MARK: On the event loop

    /// Writes every queued frame and flushes once.
    fileprivate func drain() {
        let frames = state.withLock { state -> [ByteBuffer] in
            state.drainScheduled = false
            guard state.writable else { return [] }
            defer { state.frames.removeAll(keepingCapacity: true) }
            return state.frames
        }
        guard !frames.isEmpty, let writer = writer.value else { return }
        writer.write(frames)
    }

    /// The channel's writability changed: stop feeding it while full, drain when it empties.
    fileprivate func writabilityChanged(to writable: Bool) {
        let drainNow = state.withLock { state -> Bool in
            state.writable = writable
            guard writable, !state.frames.isEmpty, !state.drainScheduled else { return false }
            state.drainScheduled = true
            return true
        }
        if drainNow { drain() }
    }
}

/// The last handler of a WebSocket connection's pipeline: writes the outbound queue's text
/// frames toward the frame encoder and tells the queue when the socket is full. On its event
/// loop only.
private final class FrameWriter: ChannelInboundHandler {
    typealias InboundIn = WebSocketFrame
    typealias OutboundOut = WebSocketFrame

    private let outbound: Outbound
    private var context: ChannelHandlerContext?

    init(outbound: Outbound) {
        self.outbound = outbound
    }

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        self.context = nil
    }

    func write(_ frames: [ByteBuffer]) {
        guard let context, context.channel.isActive else { return }
        for frame in frames {
            context.write(wrapOutboundOut(WebSocketFrame(fin: true, opcode: .text, data: frame)), promise: nil)
        }
        context.flush()
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        outbound.writabilityChanged(to: context.channel.isWritable)
        context.fireChannelWritabilityChanged()
    }
}
