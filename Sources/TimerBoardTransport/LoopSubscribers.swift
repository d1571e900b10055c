import NIOCore
import NIOWebSocket
import Synchronization

/// One room's subscribers whose connections live on one event loop, and the steps the room
/// sends them, run on that loop only (`RoomFanout` hands them over).
///
/// A broadcast reaches the loop as one step holding one frame: the loop writes it to each of
/// its subscribers, so the room's work for a broadcast does not grow with its subscribers, and
/// a board's subscribers on several loops are written to in parallel. Steps handed over while
/// the loop is busy wait and run together: a loop that fell behind writes each subscriber all
/// its waiting frames at once, one system call for several, and so catches up.
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

    let loop: any EventLoop
    /// Touched on `loop` only, which is what makes this class safe to send there.
    private var members: [Outbound] = []
    /// Steps handed over and not run yet, and whether a run is due on the loop.
    private let waiting = Mutex<(steps: [Step], runDue: Bool)>(([], false))
    /// Told of each connection that refused a frame (gone, or fell too far behind), once per run.
    private let refused: @Sendable (Outbound) -> Void

    init(loop: any EventLoop, refused: @escaping @Sendable (Outbound) -> Void) {
        self.loop = loop
        self.refused = refused
    }

    /// Queues `steps` behind those handed over before, and has the loop run them soon. From the
    /// room's executor.
    func hand(_ steps: [Step]) {
        let startsRun = waiting.withLock { waiting in
            waiting.steps += steps
            defer { waiting.runDue = true }
            return !waiting.runDue
        }
        if startsRun { loop.execute { self.runWaiting() } }
    }

    /// Runs what waits until nothing does.
    private func runWaiting() {
        while true {
            let steps = waiting.withLock { waiting in
                if waiting.steps.isEmpty { waiting.runDue = false }
                defer { waiting.steps = [] }
                return waiting.steps
            }
            if steps.isEmpty { return }
            run(steps)
        }
    }

    /// How many subscribers a broadcast writes to between two looks at what was handed over since.
    private static let subscribersBetweenLooks = 64
    /// The most connections with frames of their own in a run that a broadcast still writes
    /// around (each subscriber is compared with each of them).
    private static let ownFramesLookedUp = 4

    /// Performs `steps` in order. With one broadcast among them, each subscriber is written to
    /// at once, except one that also gets a frame of its own: the broadcast is queued with it,
    /// so both leave in one write. With several broadcasts (or many frames of their own), or
    /// once more steps arrive while a broadcast is being written (the loop is falling behind),
    /// the rest is queued, the new steps are taken into this run, and each connection is
    /// written to once at the end.
    private func run(_ firstSteps: [Step]) {
        loop.assertInEventLoop()
        var steps = firstSteps
        var direct: [ObjectIdentifier] = []
        var broadcasts = 0
        for step in steps {
            switch step {
            case .frame(_, let outbound, _): direct.append(ObjectIdentifier(outbound))
            case .broadcast: broadcasts += 1
            default: break
            }
        }
        // Many frames of their own (a crowd's snapshots): queue everything rather than look each
        // subscriber up among them.
        var queuesAll = broadcasts > 1 || direct.count > Self.ownFramesLookedUp
        var drains: [Outbound] = []
        var refusedNow: [Outbound] = []
        func queue(_ frame: OutboundFrame, on outbound: Outbound) {
            switch outbound.enqueue(frame) {
            case .queued: break
            case .needsDrain: drains.append(outbound)
            case .refused: refusedNow.append(outbound)
            }
        }
        var index = 0
        while index < steps.count {
            switch steps[index] {
            case .subscribe(let outbound): members.append(outbound)
            case .unsubscribe(let outbound): remove(outbound)
            case .unsubscribeAll: members = []
            case .broadcast(let frame):
                for (position, outbound) in members.enumerated() {
                    if !queuesAll, position % Self.subscribersBetweenLooks == Self.subscribersBetweenLooks - 1 {
                        let more = waiting.withLock { waiting in
                            defer { waiting.steps = [] }
                            return waiting.steps
                        }
                        if !more.isEmpty {
                            steps += more
                            queuesAll = true
                        }
                    }
                    if queuesAll || direct.contains(ObjectIdentifier(outbound)) {
                        queue(frame, on: outbound)
                    } else if !outbound.sendOnLoop(frame) {
                        refusedNow.append(outbound)
                    }
                }
            case .frame(let frame, let outbound, let held):
                queue(frame, on: outbound)
                // Only once it is queued: a session that then sees nothing held sends its own
                // answer behind it.
                if held { outbound.releaseHeldAnswers(1) }
            case .disconnect(let outbound, let code, let reason):
                outbound.disconnect(code, reason: reason)
            }
            index += 1
        }
        for outbound in drains { outbound.drain() }
        var told: Set<ObjectIdentifier> = []
        for outbound in refusedNow where told.insert(ObjectIdentifier(outbound)).inserted {
            remove(outbound)
            refused(outbound)
        }
    }

    private func remove(_ outbound: Outbound) {
        guard let index = members.firstIndex(where: { $0 === outbound }) else { return }
        members.swapAt(index, members.count - 1)
        members.removeLast()
    }
}
