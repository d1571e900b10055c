import Foundation
import Synchronization

/// Acked edits per second: each client on its own board keeps `window` edits in flight. An ack
/// means the edit is durable, so this measures how well group commit amortises the fsync.
public enum AckedEditsBench {
    public struct Result: Codable, Sendable {
        public let clients: Int
        public let window: Int
        public let seconds: Double
        public let ackedEdits: Int
        public let ackedEditsPerSecond: Double
        /// Edit sent → its ack, milliseconds.
        public let ackLatency: [String: Double]
    }

    private enum Answer: Sendable {
        case ack
        /// The whole reject message.
        case reject(String)
    }

    private final class Counter: Sendable {
        let acked = Atomic<Int>(0)
        let latency = LatencyHistogram()
    }

    public static func run(server: String, clients: Int, window: Int, seconds: Double) async throws -> Result {
        let http = BenchHTTP(base: server)
        let counter = Counter()
        let deadline = ContinuousClock.now.advanced(by: .seconds(seconds))
        let start = uptimeNanoseconds()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<clients {
                let board = try await http.createBoard(title: "acked edits \(index)")
                group.addTask {
                    // Answers arrive on a NIO thread; this task turns each ack into the next edit.
                    let (answers, answerContinuation) = AsyncStream.makeStream(of: Answer.self)
                    let sentAt = Mutex<[Int: UInt64]>([:])
                    let socket = BenchSocket(
                        url: http.webSocketURL,
                        onText: { text, arrivedAt in
                            if text.hasPrefix(#"{"type":"reject""#) {
                                answerContinuation.yield(.reject(text))
                                return
                            }
                            guard text.hasPrefix(#"{"type":"ack""#), let range = text.range(of: #""opId":""#) else { return }
                            let opID = Int(text[range.upperBound...].prefix { $0.isNumber }) ?? -1
                            if let sent = sentAt.withLock({ $0.removeValue(forKey: opID) }) {
                                counter.latency.record(microseconds: (arrivedAt &- sent) / 1_000)
                            }
                            answerContinuation.yield(.ack)
                        }
                    )
                    helloAndJoin(socket, clientID: "acked-\(index)", board: board)
                    func send(_ opID: Int) {
                        let op =
                            opID == 0
                            ? #"{"op":"addSection","id":"s","title":"t0"}"#
                            : #"{"op":"updateSection","id":"s","title":"t\#(opID)"}"#
                        sentAt.withLock { $0[opID] = uptimeNanoseconds() }
                        socket.send(#"{"type":"edit","opId":"\#(opID)","ops":[\#(op)]}"#)
                    }
                    send(0)
                    var nextOpID = 1
                    var iterator = answers.makeAsyncIterator()
                    /// Whether an ack came (false: the stream ended); throws on a reject.
                    func nextAck() async throws -> Bool {
                        switch await iterator.next() {
                        case .ack: return true
                        case .reject(let text):
                            await socket.close()
                            throw BenchHTTP.Failure(
                                description: "the server rejected an edit: \(text)\n"
                                    + "(its rate limits stop this bench: start it with the serve options scripts/bench uses)"
                            )
                        case nil: return false
                        }
                    }
                    _ = try await nextAck()  // the section exists
                    for _ in 0..<window {
                        send(nextOpID)
                        nextOpID += 1
                    }
                    var inFlight = window
                    while inFlight > 0, try await nextAck() {
                        counter.acked.add(1, ordering: .relaxed)
                        inFlight -= 1
                        if ContinuousClock.now < deadline {
                            send(nextOpID)
                            nextOpID += 1
                            inFlight += 1
                        }
                    }
                    await socket.close()
                }
            }
            try await group.waitForAll()
        }
        let elapsed = Double(uptimeNanoseconds() - start) / 1e9
        let acked = counter.acked.load(ordering: .relaxed)
        return Result(
            clients: clients,
            window: window,
            seconds: elapsed,
            ackedEdits: acked,
            ackedEditsPerSecond: Double(acked) / elapsed,
            ackLatency: counter.latency.summary
        )
    }
}
