import Foundation
import NIOCore
import Synchronization

/// One board, N subscribers, editors renaming a section at a set rate: latency from edit sent
/// to each delivery and to the last subscriber, deliveries per second, bytes per changeset.
public final class FanoutBench: Sendable {
    public struct Step: Codable, Sendable {
        public let editsPerSecond: Double
        public let edits: Int
        public let deliveries: UInt64
        public let deliveriesPerSecond: Double
        public let bytesPerChangeset: Int
        /// Edit sent → each subscriber's delivery, milliseconds.
        public let perDelivery: [String: Double]
        /// Edit sent → the last subscriber's delivery, milliseconds.
        public let lastSubscriber: [String: Double]
        public let lostDeliveries: UInt64
        /// Edits of this step the server refused (its rate limits): each shows as lost
        /// deliveries too.
        public let rejectedEdits: Int
        /// The server's CPU time (user + system) per delivery, microseconds; nil without its pid.
        public let serverCPUPerDelivery: Double?
        /// Connections the server has closed so far, by close code (1006: no close frame), the
        /// editor's apart: a closed editor makes no more edits, which shows only as lost
        /// deliveries otherwise.
        public let editorClosedWith: Int?
        public let subscribersClosedWith: [Int: Int]
    }

    private let target: FanoutTarget
    private let subscriberCount: Int
    private let editor: BenchSocket
    private let subscribers: [BenchSocket]
    private let state = Shared()

    /// What the event-loop thread of all clients records into.
    private final class Shared: Sendable {
        let lock = Mutex(State())
        /// How many subscribers (the first ones) stopped reading; the others are measured.
        let slowCount = Atomic<Int>(0)
        /// Edits the server refused.
        let rejectedEdits = Atomic<Int>(0)
        func withLock<Value>(_ body: (inout State) -> Value) -> Value { lock.withLock { body(&$0) } }
    }

    private struct State {
        var sendTimes: [Int: UInt64] = [:]
        var deliveredCount: [Int: Int] = [:]
        var deliveries: UInt64 = 0
        var lastDeliveryAt: UInt64 = 0
        var bytesPerChangeset = 0
        var perDelivery = LatencyHistogram()
        var lastSubscriber = LatencyHistogram()
    }

    /// Connects `subscribers` clients and one editor to `target` and waits until all hold the board.
    public static func connect(to target: FanoutTarget, subscribers: Int) async throws -> FanoutBench {
        let (joined, joinedContinuation) = AsyncStream.makeStream(of: Void.self)
        let bench = FanoutBench(target: target, subscriberCount: subscribers, joined: joinedContinuation)
        try await bench.editor.waitUntilOpen()
        for subscriber in bench.subscribers { try await subscriber.waitUntilOpen() }
        if target.isJoined != nil {
            var joins = joined.makeAsyncIterator()
            for _ in 0..<subscribers { _ = await joins.next() }
        }
        return bench
    }

    private init(target: FanoutTarget, subscriberCount: Int, joined: AsyncStream<Void>.Continuation) {
        self.target = target
        self.subscriberCount = subscriberCount
        let state = self.state
        editor = BenchSocket(
            url: target.url,
            onMessage: { message, _ in
                if target.isRejection(message) { state.rejectedEdits.add(1, ordering: .relaxed) }
            }
        )
        for message in target.editorSetup { editor.send(message) }
        subscribers = (0..<subscriberCount).map { index in
            // Per client, on its event loop: has it signalled that it holds the board yet?
            let hasJoined = Mutex(target.isJoined == nil)
            let socket = BenchSocket(
                url: target.subscriberURLs.isEmpty ? target.url : target.subscriberURLs[index % target.subscriberURLs.count],
                onMessage: { message, arrivedAt in
                    if let seq = target.deliveredSeq(message) {
                        // A subscriber that stopped reading may still get what NIO had read already.
                        let slow = state.slowCount.load(ordering: .relaxed)
                        guard index >= slow else { return }
                        Self.recordDelivery(
                            seq: seq,
                            bytes: message.readableBytes,
                            arrivedAt: arrivedAt,
                            state: state,
                            subscribers: subscriberCount - slow
                        )
                    } else if let isJoined = target.isJoined, isJoined(message),
                        hasJoined.withLock({ joined in
                            defer { joined = true }
                            return !joined
                        })
                    {
                        joined.yield()
                    }
                }
            )
            for message in target.subscriberHello(index) { socket.send(message) }
            return socket
        }
    }

    private static func recordDelivery(seq: Int, bytes: Int, arrivedAt: UInt64, state: Shared, subscribers: Int) {
        state.withLock { state in
            guard let sentAt = state.sendTimes[seq] else { return }
            let latency = (arrivedAt &- sentAt) / 1_000
            state.perDelivery.record(microseconds: latency)
            state.deliveries += 1
            state.lastDeliveryAt = max(state.lastDeliveryAt, arrivedAt)
            state.bytesPerChangeset = bytes
            let count = state.deliveredCount[seq, default: 0] + 1
            state.deliveredCount[seq] = count
            if count == subscribers { state.lastSubscriber.record(microseconds: latency) }
        }
    }

    private let nextSeq = Atomic<Int>(1)

    /// Sends title edits at `rate` per second for `seconds`, then waits for the deliveries.
    /// With `server`, also reports the server's CPU time per delivery.
    public func step(rate: Double, seconds: Double, server: ServerProcess? = nil) async throws -> Step {
        let cpuBefore = server?.cpuSeconds()
        let rejectedBefore = state.rejectedEdits.load(ordering: .relaxed)
        state.withLock { state in
            state.perDelivery = LatencyHistogram()
            state.lastSubscriber = LatencyHistogram()
            state.deliveries = 0
            state.deliveredCount = [:]
        }
        let edits = max(1, Int(rate * seconds))
        let interval = Duration.seconds(1 / rate)
        let clock = ContinuousClock()
        var next = clock.now
        let firstSentAt = uptimeNanoseconds()
        for _ in 0..<edits {
            let seq = nextSeq.wrappingAdd(1, ordering: .relaxed).oldValue
            let message = target.edit(seq)
            state.withLock { $0.sendTimes[seq] = uptimeNanoseconds() }
            editor.send(message)
            next = next.advanced(by: interval)
            try await clock.sleep(until: next)
        }
        // Wait for every delivery, or give up on stragglers after 10 s of silence.
        let expected = UInt64(edits * (subscriberCount - state.slowCount.load(ordering: .relaxed)))
        var lastCount: UInt64 = 0
        var quietSince = clock.now
        while true {
            let count = state.withLock { $0.deliveries }
            if count >= expected { break }
            if count != lastCount {
                lastCount = count
                quietSince = clock.now
            } else if clock.now - quietSince > .seconds(10) {
                break
            }
            try await clock.sleep(for: .milliseconds(5))
        }
        let cpuAfter = server?.cpuSeconds()
        return state.withLock { state in
            var cpuPerDelivery: Double?
            if let cpuBefore, let cpuAfter, state.deliveries > 0 { cpuPerDelivery = (cpuAfter - cpuBefore) * 1e6 / Double(state.deliveries) }
            let elapsed = Double(max(1, state.lastDeliveryAt &- firstSentAt)) / 1e9
            return Step(
                editsPerSecond: rate,
                edits: edits,
                deliveries: state.deliveries,
                deliveriesPerSecond: Double(state.deliveries) / elapsed,
                bytesPerChangeset: state.bytesPerChangeset,
                perDelivery: state.perDelivery.summary,
                lastSubscriber: state.lastSubscriber.summary,
                lostDeliveries: expected - min(expected, state.deliveries),
                rejectedEdits: self.state.rejectedEdits.load(ordering: .relaxed) - rejectedBefore,
                serverCPUPerDelivery: cpuPerDelivery,
                editorClosedWith: editor.serverCloseCode,
                subscribersClosedWith: subscribers.compactMap(\.serverCloseCode).reduce(into: [:]) { $0[$1, default: 0] += 1 }
            )
        }
    }

    /// The first `fraction` of the subscribers stop reading their sockets (they stay connected):
    /// later steps measure the others. Returns how many stopped.
    @discardableResult
    public func stopReading(fraction: Double) -> Int {
        let count = min(subscriberCount, max(1, Int((Double(subscriberCount) * fraction).rounded())))
        state.slowCount.store(count, ordering: .relaxed)
        for subscriber in subscribers.prefix(count) { subscriber.stopReading() }
        return count
    }

    public func close() async {
        await editor.close()
        for subscriber in subscribers { await subscriber.close() }
    }
}
