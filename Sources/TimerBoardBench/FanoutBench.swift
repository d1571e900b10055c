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
    /// One per event loop: what that loop's subscribers recorded.
    private let shards: [FanoutShard]
    private let counts: Counts

    /// What the event loops count and the step reads.
    private final class Counts: Sendable {
        /// How many subscribers (the first ones) stopped reading; the others are measured.
        let slow = Atomic<Int>(0)
        /// Edits the server refused.
        let rejectedEdits = Atomic<Int>(0)
        /// Subscribers that hold the board.
        let joined = Atomic<Int>(0)
    }

    /// Subscribers that connect at once: thousands of connects at once overflow the server's
    /// listen backlog, and a server on one core then answers some after the bench's timeouts.
    static let waveSize = 500

    /// Connects one editor and `subscribers` clients to `target`, in waves of `waveSize`, and
    /// waits until all hold the board. Gives up with `ConnectFailed` when that has not happened
    /// within `patience` (30 s and 5 ms per subscriber by default) or the server refused or closed
    /// some of them: a bench that cannot connect says why and ends instead of waiting for ever.
    public static func connect(to target: FanoutTarget, subscribers: Int, patience: Duration? = nil) async throws -> FanoutBench {
        let deadline = ContinuousClock.now + (patience ?? .seconds(30) + .milliseconds(5 * subscribers))
        let shards = (0..<BenchEventLoops.threadCount).map { _ in FanoutShard() }
        let counts = Counts()
        let editor = BenchSocket(url: target.url, eventLoop: BenchEventLoops.loop(0)) { message, _ in
            if target.isRejection(message) { counts.rejectedEdits.add(1, ordering: .relaxed) }
        }
        for message in target.editorSetup { editor.send(message) }
        try await editor.waitUntilOpen()
        var sockets: [BenchSocket] = []
        func giveUp(_ description: String) async -> ConnectFailed {
            await editor.close()
            for socket in sockets { await socket.close() }
            return ConnectFailed(description: description)
        }
        for wave in stride(from: 0, to: subscribers, by: waveSize) {
            let indices = wave..<min(subscribers, wave + waveSize)
            sockets += indices.map { subscriber($0, of: target, shards: shards, counts: counts) }
            for index in indices {
                do {
                    try await sockets[index].waitUntilOpen()
                } catch {
                    throw await giveUp("subscriber \(index + 1) of \(subscribers) could not connect: \(error)")
                }
            }
            guard target.isJoined != nil else { continue }
            while counts.joined.load(ordering: .relaxed) < indices.upperBound {
                let closed = sockets.compactMap(\.serverCloseCode)
                guard closed.isEmpty, ContinuousClock.now < deadline else {
                    let joined = counts.joined.load(ordering: .relaxed)
                    let codes = Dictionary(grouping: closed, by: { $0 }).map { "\($1.count) closed with \($0)" }.sorted().joined(separator: ", ")
                    throw await giveUp("\(joined) of \(subscribers) subscribers joined\(codes.isEmpty ? " in time" : "; " + codes)")
                }
                try await Task.sleep(for: .milliseconds(20))
            }
        }
        return FanoutBench(target: target, editor: editor, subscribers: sockets, shards: shards, counts: counts)
    }

    private init(target: FanoutTarget, editor: BenchSocket, subscribers: [BenchSocket], shards: [FanoutShard], counts: Counts) {
        self.target = target
        self.subscriberCount = subscribers.count
        self.editor = editor
        self.subscribers = subscribers
        self.shards = shards
        self.counts = counts
    }

    /// Subscriber `index`: on its event loop, it records deliveries in its loop's shard and
    /// counts itself joined once it holds the board.
    private static func subscriber(_ index: Int, of target: FanoutTarget, shards: [FanoutShard], counts: Counts) -> BenchSocket {
        let shard = shards[index % shards.count]
        // Per client, on its event loop: has it signalled that it holds the board yet?
        let hasJoined = Mutex(target.isJoined == nil)
        let socket = BenchSocket(
            url: target.subscriberURLs.isEmpty ? target.url : target.subscriberURLs[index % target.subscriberURLs.count],
            eventLoop: BenchEventLoops.loop(index)
        ) { message, arrivedAt in
            if let seq = target.deliveredSeq(message) {
                // A subscriber that stopped reading may still get what NIO had read already.
                guard index >= counts.slow.load(ordering: .relaxed) else { return }
                shard.delivered(seq, bytes: message.readableBytes, arrivedAt: arrivedAt)
            } else if let isJoined = target.isJoined, isJoined(message),
                hasJoined.withLock({ joined in
                    defer { joined = true }
                    return !joined
                })
            {
                counts.joined.add(1, ordering: .relaxed)
            }
        }
        for message in target.subscriberHello(index) { socket.send(message) }
        return socket
    }

    private let nextSeq = Atomic<Int>(1)

    /// Sends title edits at `rate` per second for `seconds`, then waits for the deliveries.
    /// With `server`, also reports the server's CPU time per delivery.
    public func step(rate: Double, seconds: Double, server: ServerProcess? = nil) async throws -> Step {
        let cpuBefore = server?.cpuSeconds()
        let rejectedBefore = counts.rejectedEdits.load(ordering: .relaxed)
        for shard in shards { shard.reset() }
        let edits = max(1, Int(rate * seconds))
        let interval = Duration.seconds(1 / rate)
        let clock = ContinuousClock()
        var next = clock.now
        let firstSentAt = uptimeNanoseconds()
        for _ in 0..<edits {
            let seq = nextSeq.wrappingAdd(1, ordering: .relaxed).oldValue
            let message = target.edit(seq)
            let sentAt = uptimeNanoseconds()
            for shard in shards { shard.sent(seq, at: sentAt) }
            editor.send(message)
            next = next.advanced(by: interval)
            try await clock.sleep(until: next)
        }
        // Wait for every delivery, or give up on stragglers after 10 s of silence.
        let measured = subscriberCount - counts.slow.load(ordering: .relaxed)
        let expected = UInt64(edits * measured)
        var lastCount: UInt64 = 0
        var quietSince = clock.now
        while true {
            let count = shards.reduce(0) { $0 + $1.deliveries }
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
        let figures = FanoutFigures(shards, subscribers: measured)
        var cpuPerDelivery: Double?
        if let cpuBefore, let cpuAfter, figures.deliveries > 0 { cpuPerDelivery = (cpuAfter - cpuBefore) * 1e6 / Double(figures.deliveries) }
        let elapsed = Double(max(1, figures.lastDeliveryAt &- firstSentAt)) / 1e9
        return Step(
            editsPerSecond: rate,
            edits: edits,
            deliveries: figures.deliveries,
            deliveriesPerSecond: Double(figures.deliveries) / elapsed,
            bytesPerChangeset: figures.bytesPerChangeset,
            perDelivery: figures.perDelivery.summary,
            lastSubscriber: figures.lastSubscriber.summary,
            lostDeliveries: expected - min(expected, figures.deliveries),
            rejectedEdits: counts.rejectedEdits.load(ordering: .relaxed) - rejectedBefore,
            serverCPUPerDelivery: cpuPerDelivery,
            editorClosedWith: editor.serverCloseCode,
            subscribersClosedWith: subscribers.compactMap(\.serverCloseCode).reduce(into: [:]) { $0[$1, default: 0] += 1 }
        )
    }

    /// The first `fraction` of the subscribers stop reading their sockets (they stay connected):
    /// later steps measure the others. Returns how many stopped.
    @discardableResult
    public func stopReading(fraction: Double) -> Int {
        let count = min(subscriberCount, max(1, Int((Double(subscriberCount) * fraction).rounded())))
        counts.slow.store(count, ordering: .relaxed)
        for subscriber in subscribers.prefix(count) { subscriber.stopReading() }
        return count
    }

    public func close() async {
        await editor.close()
        for subscriber in subscribers { await subscriber.close() }
    }
}

/// The bench could not get every subscriber onto the board: why, in a sentence.
public struct ConnectFailed: Error, CustomStringConvertible {
    public let description: String
}
