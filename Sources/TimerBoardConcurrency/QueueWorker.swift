import Synchronization

/// "Drain a queue, then end": items queued from anywhere are handled in order, in batches, by
/// at most one task at a time, and no task exists while nothing waits. An idle board or an idle
/// connection therefore holds no task (a waiting task keeps its stack alive), yet everything
/// queued while a batch is being handled goes together into the next one: a store's group
/// commit, a session's pipelined messages.
///
/// `work` is called with every item queued since the last call, oldest first, never twice at
/// once. The task ends when a batch is handled and nothing new came meanwhile.
///
/// A producer that must not run ahead (a socket's reader) gives a `pauseAt` limit: `enqueue`
/// answers false once that many items wait, and `resume` is called when the worker takes them.
/// Both happen under one lock, so a pause is never missed by the resume.
public final class QueueWorker<Item: Sendable>: Sendable {
    private let queue = Mutex(DrainQueue<Item>())
    private let pauseAt: Int
    private let resume: @Sendable () -> Void
    private let work: @Sendable ([Item]) async -> Void

    public init(pauseAt: Int = .max, resume: @escaping @Sendable () -> Void = {}, _ work: @escaping @Sendable ([Item]) async -> Void) {
        self.pauseAt = pauseAt
        self.resume = resume
        self.work = work
    }

    /// Queues `item`, starting the task unless one is at work. Returns false when `pauseAt`
    /// items wait now: the producer should stop until `resume` is called.
    @discardableResult
    public func enqueue(_ item: Item) -> Bool {
        let (start, keepProducing) = queue.withLock { $0.append(item, pauseAt: pauseAt) }
        if start {
            Task { await self.drain() }
        }
        return keepProducing
    }

    /// Forgets every item not yet handed to `work` (a batch being handled goes on) and returns them.
    @discardableResult
    public func discardWaiting() -> [Item] {
        queue.withLock { $0.discardWaiting() }
    }

    /// True while a task is at work or items wait for one.
    public var isBusy: Bool {
        queue.withLock { $0.isBusy }
    }

    private func drain() async {
        while true {
            let (batch, resumeProducer) = queue.withLock { $0.takeBatch() }
            if resumeProducer { resume() }
            if batch.isEmpty { return }
            await work(batch)
        }
    }
}
