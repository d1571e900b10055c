import Foundation
import Synchronization

/// Sequences of timers running with nothing to do but hand over: 100 sequence sections of 10
/// timers, started 10 ms apart. For each hand-over the server's changeset says the instant the next
/// timer starts (`startedAt`, the previous one's deadline); lateness is its arrival at a client
/// minus that instant. Between hand-overs nothing should travel: the bytes a client receives
/// other than hand-over changesets, per running timer per second, should be 0. Server and
/// generator share the machine's wall clock, so server milliseconds compare with arrival times.
public enum TimerSequenceBench {
    public struct Result: Codable, Sendable {
        public let sequences: Int
        public let timersPerSequence: Int
        public let subscribers: Int
        /// Next-timer starts seen by the first client (one per hand-over).
        public let handOversSeen: UInt64
        /// Exact instant of a next start → its changeset received, milliseconds.
        public let nextStartLateness: [String: Double]
        /// Bytes of hand-over changesets the first client received, and how many such messages.
        public let handOverBytes: Int
        public let handOverMessages: Int
        /// Bytes of every other message the first client received once every sequence ran,
        /// and those bytes by message type (to see what they were).
        public let otherBytes: Int
        public let otherBytesByType: [String: Int]
        /// Seconds from the start to the last timer's end, and the bytes above per running
        /// timer (one runs in each sequence at a time) per second.
        public let runSeconds: Double
        public let otherBytesPerRunningTimerPerSecond: Double
    }

    private final class Recorder: Sendable {
        let lateness = LatencyHistogram()
        let finished = Atomic<Int>(0)
        let handOverBytes = Atomic<Int>(0)
        let handOverMessages = Atomic<Int>(0)
        let otherBytes = Atomic<Int>(0)
        let otherBytesByType = Mutex<[String: Int]>([:])
        /// Set when the last start is acked: from then on every message is counted.
        let running = Atomic<Bool>(false)
    }

    /// Timer `index` of sequence `section` lasts 1 to 3 seconds, so hand-overs of different
    /// sequences fall at different instants rather than all at once.
    static func seconds(section: Int, index: Int) -> Int { 1 + (section + index) % 3 }

    public static func run(server: String, sequences: Int, timersPerSequence: Int, subscribers: Int) async throws -> Result {
        let http = BenchHTTP(base: server)
        let board = try await http.createBoard(title: "timer sequence bench")
        let recorder = Recorder()
        let (events, eventContinuation) = AsyncStream.makeStream(of: String.self)
        let total = sequences * timersPerSequence

        let watchers = (0..<max(1, subscribers)).map { index in
            let socket = BenchSocket(
                url: http.webSocketURL,
                onText: { text, _ in
                    let now = Int64((Date().timeIntervalSince1970 * 1000).rounded())
                    if text.hasPrefix(#"{"type":"snapshot""#) { eventContinuation.yield("joined") }
                    guard index == 0 else { return }
                    let finishes = count(#""status":"finished""#, in: text)
                    let isHandOver = text.hasPrefix(#"{"type":"changes""#) && finishes > 0
                    // Other traffic is counted once the last sequence's start is acked: what came
                    // before is the set-up (joins, presence, the starts), not traffic between
                    // hand-overs. Hand-overs are measured from the first.
                    if text.hasPrefix(#"{"type":"ack","opId":"start\#(sequences - 1)""#) {
                        recorder.running.store(true, ordering: .relaxed)
                        return
                    }
                    guard isHandOver || recorder.running.load(ordering: .relaxed) else { return }
                    guard isHandOver else {
                        recorder.otherBytes.add(text.utf8.count, ordering: .relaxed)
                        let type = text.dropFirst(9).prefix { $0 != "\"" }
                        recorder.otherBytesByType.withLock { $0[String(type), default: 0] += text.utf8.count }
                        return
                    }
                    recorder.handOverBytes.add(text.utf8.count, ordering: .relaxed)
                    recorder.handOverMessages.add(1, ordering: .relaxed)
                    // Each next start: {"update":"timer","id":…,"run":{"status":"running","startedAt":T,"elapsed":0}}
                    var rest = text[...]
                    while let hit = rest.range(of: #""status":"running","startedAt":"#) {
                        let startedAt = Int64(rest[hit.upperBound...].prefix { $0.isNumber }) ?? now
                        recorder.lateness.record(microseconds: UInt64(max(0, now - startedAt)) * 1_000)
                        rest = rest[hit.upperBound...]
                    }
                    if recorder.finished.add(finishes, ordering: .relaxed).newValue == total {
                        eventContinuation.yield("done")
                    }
                }
            )
            helloAndJoin(socket, clientID: "sequence-\(index)", board: board)
            return socket
        }
        var iterator = events.makeAsyncIterator()
        for _ in watchers { _ = await iterator.next() }

        let editor = watchers[0]
        for batch in stride(from: 0, to: sequences, by: 100) {
            let ops = (batch..<min(sequences, batch + 100)).map { section in
                #"{"op":"addSection","id":"s\#(section)","title":"Sequence \#(section)","sequence":true,"position":"last"}"#
            }
            editor.send(#"{"type":"edit","opId":"sections\#(batch)","ops":[\#(ops.joined(separator: ","))]}"#)
        }
        let timers = (0..<sequences).flatMap { section in
            (0..<timersPerSequence).map { index in
                #"{"op":"addTimer","id":"s\#(section)t\#(index)","sectionID":"s\#(section)","title":"Step \#(index)","minutes":0,"seconds":\#(seconds(section: section, index: index)),"position":"last"}"#
            }
        }
        for batch in stride(from: 0, to: timers.count, by: 100) {
            editor.send(
                #"{"type":"edit","opId":"timers\#(batch)","ops":[\#(timers[batch..<min(timers.count, batch + 100)].joined(separator: ","))]}"#
            )
        }
        // Each sequence is started by an edit of its own, 10 ms after the one before, as people
        // start them: hand-overs then fall at about as many instants as there are timers,
        // instead of a few instants that each hand over dozens of sequences at once.
        let started = Date()
        for section in 0..<sequences {
            editor.send(#"{"type":"edit","opId":"start\#(section)","ops":[{"op":"startSection","id":"s\#(section)"}]}"#)
            try await Task.sleep(for: .milliseconds(10))
        }
        while let event = await iterator.next(), event != "done" {}
        let runSeconds = Date().timeIntervalSince(started)
        for watcher in watchers { await watcher.close() }
        let otherBytes = recorder.otherBytes.load(ordering: .relaxed)
        return Result(
            sequences: sequences,
            timersPerSequence: timersPerSequence,
            subscribers: watchers.count,
            handOversSeen: recorder.lateness.count,
            nextStartLateness: recorder.lateness.summary,
            handOverBytes: recorder.handOverBytes.load(ordering: .relaxed),
            handOverMessages: recorder.handOverMessages.load(ordering: .relaxed),
            otherBytes: otherBytes,
            otherBytesByType: recorder.otherBytesByType.withLock { $0 },
            runSeconds: runSeconds,
            otherBytesPerRunningTimerPerSecond: Double(otherBytes) / Double(sequences) / runSeconds
        )
    }

    private static func count(_ needle: String, in text: String) -> Int {
        var count = 0
        var rest = text[...]
        while let hit = rest.range(of: needle) {
            count += 1
            rest = rest[hit.upperBound...]
        }
        return count
    }
}
