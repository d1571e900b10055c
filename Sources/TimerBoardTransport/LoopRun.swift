import NIOCore

/// One run of a loop's inbox: the steps of every batch, in order, and the writes they make.
///
/// With one broadcast among them, each subscriber is written to at once, except one that also
/// gets a frame of its own: the broadcast is queued with it, so both leave in one write. With
/// several broadcasts (or many frames of their own), or once more steps arrive while a broadcast
/// is being written (the loop is falling behind), the rest is queued, the new steps are taken
/// into this run, and each connection is written to once at the end: a loop that fell behind
/// writes each subscriber all its waiting frames in one system call, and so catches up.
struct LoopRun {
    /// How many subscribers a broadcast writes to between two looks at what was handed over since.
    static let subscribersBetweenLooks = 64
    /// The most connections with frames of their own in a run that a broadcast still writes
    /// around (each subscriber is compared with each of them).
    static let ownFramesLookedUp = 4

    private let inbox: LoopInbox
    private var batches: [LoopInbox.Batch]
    private var direct: [ObjectIdentifier] = []
    private(set) var queuesAll: Bool
    private var drains: [Outbound] = []
    private var refused: [(subscribers: LoopSubscribers, outbound: Outbound)] = []

    init(inbox: LoopInbox, batches: [LoopInbox.Batch]) {
        self.inbox = inbox
        self.batches = batches
        var broadcasts = 0
        for (_, steps) in batches {
            for step in steps {
                switch step {
                case .frame(_, let outbound, _): direct.append(ObjectIdentifier(outbound))
                case .broadcast: broadcasts += 1
                default: break
                }
            }
        }
        // Many frames of their own (a crowd's snapshots): queue everything rather than look each
        // subscriber up among them.
        queuesAll = broadcasts > 1 || direct.count > Self.ownFramesLookedUp
    }

    mutating func perform() {
        inbox.loop.assertInEventLoop()
        var index = 0
        while index < batches.count {
            let (subscribers, steps) = batches[index]
            for step in steps { subscribers.perform(step, in: &self) }
            index += 1
        }
        for outbound in drains { outbound.drain() }
        // Each room told once of each connection, however many of its frames were refused.
        var told: Set<[ObjectIdentifier]> = []
        for (subscribers, outbound) in refused where told.insert([ObjectIdentifier(subscribers), ObjectIdentifier(outbound)]).inserted {
            subscribers.refusedFrame(outbound)
        }
    }

    /// Every `subscribersBetweenLooks` subscribers of a broadcast, until the run queues
    /// everything: takes what was handed over meanwhile into this run, and queues from then on.
    mutating func look(at position: Int) {
        guard !queuesAll, position % Self.subscribersBetweenLooks == Self.subscribersBetweenLooks - 1 else { return }
        let more = inbox.take()
        guard !more.isEmpty else { return }
        batches += more
        queuesAll = true
    }

    /// A broadcast's frame for one subscriber: written at once, or queued (see the type).
    mutating func broadcast(_ frame: OutboundFrame, to outbound: Outbound, of subscribers: LoopSubscribers) {
        if queuesAll || direct.contains(ObjectIdentifier(outbound)) {
            queue(frame, on: outbound, of: subscribers)
        } else if !outbound.sendOnLoop(frame) {
            refused.append((subscribers, outbound))
        }
    }

    /// Queues `frame` on the connection, to be written at the end of the run.
    mutating func queue(_ frame: OutboundFrame, on outbound: Outbound, of subscribers: LoopSubscribers) {
        switch outbound.enqueue(frame) {
        case .queued: break
        case .needsDrain: drains.append(outbound)
        case .refused: refused.append((subscribers, outbound))
        }
    }
}
