import NIOCore
import TimerBoardTransport

/// The most recent encoded changesets of a board, for clients that resume from a revision.
struct ChangesetLog {
    private let capacity: Int
    /// Frames of revisions `firstRevision ..< firstRevision + frames.count`.
    private var frames: [OutboundFrame] = []
    private var firstRevision: Int64

    /// An empty log whose next revision is `nextRevision`.
    init(capacity: Int, nextRevision: Int64) {
        self.capacity = max(1, capacity)
        self.firstRevision = nextRevision
    }

    mutating func append(_ frame: OutboundFrame, revision: Int64) {
        precondition(revision == firstRevision + Int64(frames.count), "changeset log must stay contiguous")
        frames.append(frame)
        if frames.count > capacity * 2 {
            // Trim in bulk so appends stay amortised O(1).
            let excess = frames.count - capacity
            frames.removeFirst(excess)
            firstRevision += Int64(excess)
        }
    }

    /// The frames after `revision` up to the latest, or nil when more than `capacity` are
    /// missing: the resume window is exactly the last `capacity` changesets, whatever the log
    /// still holds between two bulk trims.
    func frames(after revision: Int64) -> ArraySlice<OutboundFrame>? {
        let offset = revision + 1 - firstRevision
        guard offset >= 0, offset <= Int64(frames.count), Int64(frames.count) - offset <= Int64(capacity) else { return nil }
        return frames[Int(offset)...]
    }
}
