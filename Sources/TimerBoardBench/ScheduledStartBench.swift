import Foundation
import Synchronization

/// Timers scheduled to start at instants spread over a few seconds: how late each start's
/// changeset reaches the clients after its scheduled instant (issue 30). Server and generator
/// share the machine's wall clock, so `startAt` in server milliseconds compares directly with
/// the arrival time.
public enum ScheduledStartBench {
    public struct Result: Codable, Sendable {
        public let timers: Int
        public let subscribers: Int
        public let spreadSeconds: Double
        public let startsSeen: UInt64
        /// Scheduled instant → the start's changeset received, milliseconds.
        public let lateness: [String: Double]
    }

    private final class Recorder: Sendable {
        let lateness = LatencyHistogram()
        let started = Atomic<Int>(0)
    }

    public static func run(server: String, timers: Int, subscribers: Int, spreadSeconds: Double) async throws -> Result {
        let http = BenchHTTP(base: server)
        let board = try await http.createBoard(title: "scheduled start bench")
        let recorder = Recorder()
        let (events, eventContinuation) = AsyncStream.makeStream(of: String.self)

        let watchers = (0..<max(1, subscribers)).map { index in
            let socket = BenchSocket(
                url: http.webSocketURL,
                onText: { text, _ in
                    let now = Int64((Date().timeIntervalSince1970 * 1000).rounded())
                    if text.hasPrefix(#"{"type":"snapshot""#) { eventContinuation.yield("joined") }
                    if text.hasPrefix(#"{"type":"ack""#), text.contains(#""opId":"schedule"#) { eventContinuation.yield("scheduled") }
                    guard text.hasPrefix(#"{"type":"changes""#) else { return }
                    // Each start the server made: {"update":"timer","id":"tN","startAt":null,"run":{"status":"running","startedAt":S,…}}
                    var rest = text[...]
                    while let hit = rest.range(of: #""startAt":null,"run":{"status":"running","startedAt":"#) {
                        let startedAt = Int64(rest[hit.upperBound...].prefix { $0.isNumber }) ?? now
                        recorder.lateness.record(microseconds: UInt64(max(0, now - startedAt)) * 1_000)
                        if index == 0, recorder.started.add(1, ordering: .relaxed).newValue == timers { eventContinuation.yield("done") }
                        rest = rest[hit.upperBound...]
                    }
                }
            )
            helloAndJoin(socket, clientID: "scheduled-\(index)", board: board)
            return socket
        }
        var iterator = events.makeAsyncIterator()
        for _ in watchers { _ = await iterator.next() }

        // A section of timers, then one edit per hundred that schedules them evenly over the
        // spread, starting a second from now.
        let editor = watchers[0]
        editor.send(#"{"type":"edit","opId":"section","ops":[{"op":"addSection","id":"s","title":"Scheduled"}]}"#)
        let first = Int64((Date().timeIntervalSince1970 * 1000).rounded()) + 1_000
        let step = spreadSeconds * 1_000 / Double(max(1, timers))
        for batch in stride(from: 0, to: timers, by: 100) {
            let ops = (batch..<min(timers, batch + 100)).map { index in
                let startAt = first + Int64(Double(index) * step)
                return #"{"op":"addTimer","id":"t\#(index)","sectionID":"s","title":"T\#(index)","minutes":5,"seconds":0,"startAt":\#(startAt)}"#
            }
            let opID = batch + 100 >= timers ? "schedule" : "add\(batch)"
            editor.send(#"{"type":"edit","opId":"\#(opID)","ops":[\#(ops.joined(separator: ","))]}"#)
        }
        while let event = await iterator.next(), event != "done" {}
        for watcher in watchers { await watcher.close() }
        return Result(
            timers: timers,
            subscribers: watchers.count,
            spreadSeconds: spreadSeconds,
            startsSeen: recorder.lateness.count,
            lateness: recorder.lateness.summary
        )
    }
}
