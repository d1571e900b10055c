/// The tasks a room started, each for one purpose, so a close, whatever its reason, stops all
/// of them in one place (`cancelAll`). The writers (`QueueWorker`s) end by themselves once
/// their queue is empty.
struct RoomWork {
    /// Sleeps until the next timer deadline.
    var wake: Task<Void, Never>?
    /// Sends the presence changes gathered for one interval.
    var presenceFlush: Task<Void, Never>?
    /// Tells the other nodes this node's whole list now and then.
    var announcer: Task<Void, Never>?
    /// Reads what other nodes appended.
    var catchUp: Task<Void, Never>?

    mutating func cancelAll() {
        for task in [wake, presenceFlush, announcer, catchUp] { task?.cancel() }
        self = RoomWork()
    }
}
