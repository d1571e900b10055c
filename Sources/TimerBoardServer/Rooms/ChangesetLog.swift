import NIOCore
import TimerBoardTransport

/// The most recent encoded changesets of a board, for clients that resume from a revision:
/// at most `capacity` of them and at most `maxBytes` in all, so that changesets which fan out
/// (a section start over thousands of timers) cannot make a board's log hold gigabytes.
struct ChangesetLog {
    private let capacity: Int
    private let maxBytes: Int
    /// Frames of revisions `firstRevision ..< firstRevision + frames.count`.
    private var frames: [OutboundFrame] = []
    private var firstRevision: Int64
    /// Bytes of `frames`.
    private var bytes = 0
    /// The oldest revision whose frame may still be handed out: past the byte bound, older
    /// frames are gone for resume even before they are trimmed.
    private var oldestServed: Int64

    /// An empty log whose next revision is `nextRevision`.
    init(capacity: Int, maxBytes: Int = .max, nextRevision: Int64) {
        self.capacity = max(1, capacity)
        self.maxBytes = max(1, maxBytes)
        firstRevision = nextRevision
        oldestServed = nextRevision
    }

    mutating func append(_ frame: OutboundFrame, revision: Int64) {
        precondition(revision == firstRevision + Int64(frames.count), "changeset log must stay contiguous")
        frames.append(frame)
        bytes += frame.bytes.readableBytes
        while bytes > maxBytes, oldestServed <= revision {
            // Forget the oldest still served; its bytes go when the bulk trim below drops it.
            let index = Int(oldestServed - firstRevision)
            bytes -= frames[index].bytes.readableBytes
            oldestServed += 1
        }
        let keep = min(capacity, Int(revision + 1 - oldestServed))
        if frames.count > keep * 2 + 16 {
            // Trim in bulk so appends stay amortised O(1).
            let excess = frames.count - keep
            let dropped = frames.prefix(excess)
            // Bytes of frames beyond the byte bound were taken off already.
            for (offset, frame) in dropped.enumerated() where firstRevision + Int64(offset) >= oldestServed {
                bytes -= frame.bytes.readableBytes
            }
            frames.removeFirst(excess)
            firstRevision += Int64(excess)
            oldestServed = max(oldestServed, firstRevision)
        }
    }

    /// The frames after `revision` up to the latest, or nil when more than `capacity` are
    /// missing or some are beyond the byte bound: the resume window is exactly the last
    /// `capacity` changesets that fit in `maxBytes`, whatever the log still holds between two
    /// bulk trims.
    func frames(after revision: Int64) -> ArraySlice<OutboundFrame>? {
        let offset = revision + 1 - firstRevision
        guard revision + 1 >= oldestServed, offset >= 0, offset <= Int64(frames.count), Int64(frames.count) - offset <= Int64(capacity) else {
            return nil
        }
        return frames[Int(offset)...]
    }
}
