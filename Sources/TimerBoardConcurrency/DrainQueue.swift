/// The bookkeeping of "drain a queue, then end" (`QueueWorker`), as a value its owner keeps under
/// its own lock: items waiting, whether a task is at work, whether the producer was told to stop.
///
/// `QueueWorker` wraps it with a task and closures. An owner made in great numbers (one per
/// connection: `SessionInbox`) keeps it inline instead and starts its own task, which saves the
/// worker object and its two closure contexts, about 200 bytes per idle connection.
public struct DrainQueue<Item> {
    private var items: [Item] = []
    private var isWorking = false
    private var isProducerPaused = false

    public init() {}

    /// Queues `item`. `startTask`: no task is at work, the caller must start one (which calls
    /// `takeBatch` until it says stop). `keepProducing`: false once `pauseAt` items wait, and
    /// until a batch is taken.
    public mutating func append(_ item: Item, pauseAt: Int = .max) -> (startTask: Bool, keepProducing: Bool) {
        items.append(item)
        let start = !isWorking
        isWorking = true
        if items.count >= pauseAt { isProducerPaused = true }
        return (start, !isProducerPaused)
    }

    /// Every item waiting, oldest first; when there are none the task must end (the next
    /// `append` starts another). `resumeProducer`: the producer was paused and may go on.
    public mutating func takeBatch() -> (batch: [Item], resumeProducer: Bool) {
        let batch = items
        items = []
        if batch.isEmpty { isWorking = false }
        defer { isProducerPaused = false }
        return (batch, isProducerPaused)
    }

    /// Forgets every item not yet taken (a batch being handled goes on) and returns them.
    public mutating func discardWaiting() -> [Item] {
        defer { items = [] }
        return items
    }

    /// True while a task is at work or items wait for one.
    public var isBusy: Bool { isWorking }
}
