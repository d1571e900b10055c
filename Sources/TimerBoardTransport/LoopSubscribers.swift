import NIOCore
import NIOWebSocket

/// One room's subscribers whose connections live on one event loop, and the steps the room
/// sends them, performed on that loop only (`RoomFanout` hands them over, through the loop's
/// `LoopInbox`).
///
/// A broadcast reaches the loop as one step holding one frame: the loop writes it to each of
/// its subscribers, so the room's work for a broadcast does not grow with its subscribers, and
/// a board's subscribers on several loops are written to in parallel.
final class LoopSubscribers: @unchecked Sendable {
    /// What the room sends, in the order it decided.
    enum Step {
        case subscribe(Outbound)
        case unsubscribe(Outbound)
        case unsubscribeAll
        /// To every subscriber of the moment.
        case broadcast(OutboundFrame)
        /// To one connection; `held`: its session counted it as held until it is queued.
        case frame(OutboundFrame, to: Outbound, held: Bool)
        /// Closes the connection, after the frames before this step.
        case disconnect(Outbound, WebSocketErrorCode, String)
    }

    private let inbox: LoopInbox
    /// Touched on the inbox's loop only, which is what makes this class safe to send there.
    private var members: [Outbound] = []
    /// Told of each connection that refused a frame (gone, or fell too far behind), once per run.
    private let refused: @Sendable (Outbound) -> Void

    init(loop: any EventLoop, refused: @escaping @Sendable (Outbound) -> Void) {
        inbox = LoopInbox.of(loop)
        self.refused = refused
    }

    /// Has the loop perform `steps`, behind everything handed to it before. From the room's executor.
    func hand(_ steps: [Step]) {
        inbox.hand(steps, to: self)
    }

    /// On the loop, as part of `run`.
    func perform(_ step: Step, in run: inout LoopRun) {
        switch step {
        case .subscribe(let outbound): members.append(outbound)
        case .unsubscribe(let outbound): remove(outbound)
        case .unsubscribeAll: members = []
        case .broadcast(let frame):
            for (position, outbound) in members.enumerated() {
                run.look(at: position)
                run.broadcast(frame, to: outbound, of: self)
            }
        case .frame(let frame, let outbound, let held):
            run.queue(frame, on: outbound, of: self)
            // Only once it is queued: a session that then sees nothing held sends its own
            // answer behind it.
            if held { outbound.releaseHeldAnswers(1) }
        case .disconnect(let outbound, let code, let reason):
            outbound.disconnect(code, reason: reason)
        }
    }

    /// On the loop, at the end of a run: `outbound` refused a frame; it is sent nothing more.
    func refusedFrame(_ outbound: Outbound) {
        remove(outbound)
        refused(outbound)
    }

    private func remove(_ outbound: Outbound) {
        guard let index = members.firstIndex(where: { $0 === outbound }) else { return }
        members.swapAt(index, members.count - 1)
        members.removeLast()
    }
}
