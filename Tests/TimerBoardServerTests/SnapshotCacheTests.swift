import PropertyBased
import TestSupport
import Testing

@testable import TimerBoardServer

/// The snapshot cache's rules on the struct alone: what a joiner is sent, and how often the
/// board is encoded and compressed.
@Suite struct SnapshotCacheTests {
    /// A frame, as the tests see it: the board state it shows and whether it is compressed.
    struct Frame: Hashable {
        let revision: Int64
        /// Counts renames: a rename changes the snapshot without a new revision.
        let title: Int
        let compressed: Bool
    }

    /// Does what a room does with the cache's steps, counting the work.
    struct Room {
        var cache = SnapshotCache<Frame>()
        var revision: Int64 = 0
        var title = 0
        var encodings = 0
        var compressions = 0

        mutating func snapshot(compressed: Bool) -> Frame {
            while true {
                switch cache.next(revision: revision, compressed: compressed) {
                case .send(let frame):
                    return frame
                case .encode:
                    encodings += 1
                    cache.store(Frame(revision: revision, title: title, compressed: false), compressed: false, revision: revision)
                case .compress(let plain):
                    compressions += 1
                    cache.store(Frame(revision: plain.revision, title: plain.title, compressed: true), compressed: true, revision: revision)
                }
            }
        }

        mutating func rename() {
            title += 1
            cache.invalidate()
        }
    }

    @Test func aCompressedSnapshotIsMadeFromThePlainOneOfTheSameRevision() {
        var cache = SnapshotCache<Frame>()
        guard case .encode = cache.next(revision: 3, compressed: true) else {
            Issue.record("nothing is cached yet")
            return
        }
        let plain = Frame(revision: 3, title: 0, compressed: false)
        cache.store(plain, compressed: false, revision: 3)
        guard case .compress(plain) = cache.next(revision: 3, compressed: true) else {
            Issue.record("compress the plain frame")
            return
        }
        let compressed = Frame(revision: 3, title: 0, compressed: true)
        cache.store(compressed, compressed: true, revision: 3)
        guard case .send(compressed) = cache.next(revision: 3, compressed: true) else {
            Issue.record("send the cached frame")
            return
        }
        guard case .send(plain) = cache.next(revision: 3, compressed: false) else {
            Issue.record("send the cached frame")
            return
        }
        guard case .encode = cache.next(revision: 4, compressed: true) else {
            Issue.record("a new revision needs a new frame")
            return
        }
        cache.invalidate()
        guard case .encode = cache.next(revision: 3, compressed: false) else {
            Issue.record("a rename drops the frames")
            return
        }
    }

    /// Random joins (plain or compressed), edits and renames: every joiner gets the snapshot of
    /// the board as it is, and the board is encoded (and compressed) at most once per state.
    @Test func joinersGetTheCurrentStateAndEachStateIsEncodedOnce() async {
        await propertyCheck(count: 500, input: Gen.int(in: 0...Int.max)) { seed in
            var rng = SeededGenerator(seed: seed)
            var room = Room()
            var plainStates: Set<[Int64]> = []
            var compressedStates: Set<[Int64]> = []
            var problems: [String] = []
            for _ in 0..<100 {
                switch Int.random(in: 0..<6, using: &rng) {
                case 0: room.revision += 1
                case 1: room.rename()
                default:
                    let compressed = Bool.random(using: &rng)
                    let frame = room.snapshot(compressed: compressed)
                    let expected = Frame(revision: room.revision, title: room.title, compressed: compressed)
                    if frame != expected { problems.append("sent \(frame), the board is \(expected)") }
                    let state = [room.revision, Int64(room.title)]
                    plainStates.insert(state)
                    if compressed { compressedStates.insert(state) }
                }
            }
            if room.encodings > plainStates.count { problems.append("\(room.encodings) encodings for \(plainStates.count) states") }
            if room.compressions > compressedStates.count {
                problems.append("\(room.compressions) compressions for \(compressedStates.count) states")
            }
            #expect(problems.isEmpty, "seed \(seed): \(problems.prefix(3))")
        }
    }
}
