import Foundation
import Synchronization

/// 1,000 timers running at once: how late each completion changeset reaches a client after the
/// timer's deadline. Server and generator share the machine's wall clock, so the deadline in
/// server milliseconds compares directly with the arrival time.
public enum TimerExpiryBench {
    public struct Result: Codable, Sendable {
        public let timers: Int
        public let subscribers: Int
        public let completionsSeen: UInt64
        /// Deadline → completion changeset received, milliseconds.
        public let lateness: [String: Double]
    }

    private final class Recorder: Sendable {
        let lateness = LatencyHistogram()
        let finished = Atomic<Int>(0)
    }

    public static func run(server: String, timers: Int, subscribers: Int) async throws -> Result {
        let http = BenchHTTP(base: server)
        let board = try await http.createBoard(title: "timer expiry bench")
        let recorder = Recorder()
        let (events, eventContinuation) = AsyncStream.makeStream(of: String.self)
        let startedAt = Mutex<Int64?>(nil)

        let watchers = (0..<max(1, subscribers)).map { index in
            let socket = BenchSocket(
                url: http.webSocketURL,
                onText: { text, _ in
                    let now = Int64((Date().timeIntervalSince1970 * 1000).rounded())
                    if text.hasPrefix(#"{"type":"snapshot""#) { eventContinuation.yield("joined") }
                    guard text.hasPrefix(#"{"type":"changes""#) else { return }
                    if index == 0, startedAt.withLock({ $0 }) == nil, let started = scanInteger(after: "startedAt", in: text) {
                        startedAt.withLock { $0 = started }
                        eventContinuation.yield("started")
                    }
                    // Each finished timer: {"update":"timer","id":"tN","run":{"status":"finished","elapsed":E}}
                    var rest = text[...]
                    while let hit = rest.range(of: #""status":"finished","elapsed":"#) {
                        let elapsed = Int64(rest[hit.upperBound...].prefix { $0.isNumber }) ?? 0
                        if let started = startedAt.withLock({ $0 }) {
                            recorder.lateness.record(microseconds: UInt64(max(0, now - (started + elapsed))) * 1_000)
                            if index == 0, recorder.finished.add(1, ordering: .relaxed).newValue == timers {
                                eventContinuation.yield("done")
                            }
                        }
                        rest = rest[hit.upperBound...]
                    }
                }
            )
            helloAndJoin(socket, clientID: "expiry-\(index)", board: board)
            return socket
        }
        var iterator = events.makeAsyncIterator()
        for _ in watchers { _ = await iterator.next() }

        // Timers of 2 to 9 seconds, started together by one startSection: eight moments at which
        // an eighth of them run out together.
        let editor = watchers[0]
        editor.send(#"{"type":"edit","opId":"section","ops":[{"op":"addSection","id":"s","title":"Expiry"}]}"#)
        for batch in stride(from: 0, to: timers, by: 100) {
            let ops = (batch..<min(timers, batch + 100)).map { index in
                #"{"op":"addTimer","id":"t\#(index)","sectionID":"s","title":"T\#(index)","minutes":0,"seconds":\#(2 + index % 8)}"#
            }
            editor.send(#"{"type":"edit","opId":"add\#(batch)","ops":[\#(ops.joined(separator: ","))]}"#)
        }
        editor.send(#"{"type":"edit","opId":"start","ops":[{"op":"startSection","id":"s"}]}"#)
        while let event = await iterator.next(), event != "done" {}
        for watcher in watchers { await watcher.close() }
        return Result(timers: timers, subscribers: watchers.count, completionsSeen: recorder.lateness.count, lateness: recorder.lateness.summary)
    }
}
