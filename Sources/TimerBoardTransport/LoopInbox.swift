import NIOCore
import Synchronization

/// What every room hands one event loop (`LoopSubscribers.hand`), in the order handed, and the
/// runs that perform it there.
///
/// One queue per loop, not per room: a connection that leaves one board and joins another gets
/// the first board's last frames before the second board's snapshot, as when each room queued
/// on the connection itself. A run takes everything waiting; when more arrived while it ran, the
/// next run is a task of its own, so the loop's other work (reading its sockets) goes between.
final class LoopInbox: Sendable {
    typealias Batch = (subscribers: LoopSubscribers, steps: [LoopSubscribers.Step])

    let loop: any EventLoop
    private let waiting = Mutex<(batches: [Batch], runDue: Bool)>(([], false))

    /// The inbox of `loop`, made on first use; the server's loops live as long as it does.
    static func of(_ loop: any EventLoop) -> LoopInbox {
        inboxes.withLock { inboxes in
            if let inbox = inboxes[ObjectIdentifier(loop)] { return inbox }
            let inbox = LoopInbox(loop: loop)
            inboxes[ObjectIdentifier(loop)] = inbox
            return inbox
        }
    }

    private static let inboxes = Mutex<[ObjectIdentifier: LoopInbox]>([:])

    private init(loop: any EventLoop) {
        self.loop = loop
    }

    /// Queues `steps` for `subscribers` behind everything handed to this loop before, and has
    /// the loop run them soon. From any thread.
    func hand(_ steps: [LoopSubscribers.Step], to subscribers: LoopSubscribers) {
        let startsRun = waiting.withLock { waiting in
            waiting.batches.append((subscribers, steps))
            defer { waiting.runDue = true }
            return !waiting.runDue
        }
        if startsRun { loop.execute { self.runWaiting() } }
    }

    /// Everything handed over since the last take, in order.
    func take() -> [Batch] {
        waiting.withLock { waiting in
            defer { waiting.batches = [] }
            return waiting.batches
        }
    }

    private func runWaiting() {
        var run = LoopRun(inbox: self, batches: take())
        run.perform()
        let runsAgain = waiting.withLock { waiting in
            waiting.runDue = !waiting.batches.isEmpty
            return waiting.runDue
        }
        if runsAgain { loop.execute { self.runWaiting() } }
    }
}
