import Foundation
import NIOCore
import Synchronization

/// One board or several, N subscribers each, an editor per board renaming a section at a set
/// rate: latency from edit sent to each delivery and to the board's last subscriber, deliveries
/// per second, bytes per changeset.
public final class FanoutBench: Sendable {
    public struct Step: Codable, Sendable {
        /// Boards edited at once, each with its own editor and subscribers.
        public let boards: Int
        /// Edits per second on each board.
        public let editsPerSecond: Double
        /// Edits sent to all boards together.
        public let edits: Int
        public let deliveries: UInt64
        public let deliveriesPerSecond: Double
        public let bytesPerChangeset: Int
        /// Edit sent → each subscriber's delivery, milliseconds.
        public let perDelivery: [String: Double]
        /// Edit sent → the last delivery to its board's subscribers, milliseconds.
        public let lastSubscriber: [String: Double]
        public let lostDeliveries: UInt64
        /// Edits of this step the server refused (its rate limits): each shows as lost
        /// deliveries too.
        public let rejectedEdits: Int
        /// The server's CPU time (user + system) per delivery, microseconds; nil without its pid.
        public let serverCPUPerDelivery: Double?
        /// Connections the server has closed so far, by close code (1006: no close frame), the
        /// editors' apart (the first closed one's code): a closed editor makes no more edits,
        /// which shows only as lost deliveries otherwise.
        public let editorClosedWith: Int?
        public let subscribersClosedWith: [Int: Int]
    }

    /// One per board: where its editor and subscribers connect and what they send.
    private let targets: [FanoutTarget]
    private let subscriberCount: Int
    /// Editor b edits board b.
    private let editors: [BenchSocket]
    /// Subscriber i holds board i % boards.
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

    /// Connects an editor and `subscribersPerBoard` clients to each of `targets` (one board each),
    /// subscribers in waves of `waveSize`, and waits until all hold their board. Gives up with
    /// `ConnectFailed` when that has not happened within `patience` (30 s and 5 ms per subscriber
    /// by default) or the server refused or closed some of them: a bench that cannot connect says
    /// why and ends instead of waiting for ever.
    public static func connect(to targets: [FanoutTarget], subscribersPerBoard: Int, patience: Duration? = nil) async throws -> FanoutBench {
        precondition(!targets.isEmpty, "a fan-out needs a board")
        let subscribers = subscribersPerBoard * targets.count
        let deadline = ContinuousClock.now + (patience ?? .seconds(30) + .milliseconds(5 * subscribers))
        let shards = (0..<BenchEventLoops.threadCount).map { _ in FanoutShard() }
        let counts = Counts()
        var editors: [BenchSocket] = []
        var sockets: [BenchSocket] = []
        func giveUp(_ description: String) async -> ConnectFailed {
            for socket in editors + sockets { await socket.close() }
            return ConnectFailed(description: description)
        }
        for (board, target) in targets.enumerated() {
            let editor = BenchSocket(url: target.url, eventLoop: BenchEventLoops.loop(board)) { message, _ in
                if target.isRejection(message) { counts.rejectedEdits.add(1, ordering: .relaxed) }
            }
            for message in target.editorSetup { editor.send(message) }
            editors.append(editor)
            do {
                try await editor.waitUntilOpen()
            } catch {
                throw await giveUp("the editor of board \(board + 1) of \(targets.count) could not connect: \(error)")
            }
        }
        let waitsForJoins = targets[0].isJoined != nil
        for wave in stride(from: 0, to: subscribers, by: waveSize) {
            let indices = wave..<min(subscribers, wave + waveSize)
            sockets += indices.map { subscriber($0, of: targets[$0 % targets.count], shards: shards, counts: counts) }
            for index in indices {
                do {
                    try await sockets[index].waitUntilOpen()
                } catch {
                    throw await giveUp("subscriber \(index + 1) of \(subscribers) could not connect: \(error)")
                }
            }
            guard waitsForJoins else { continue }
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
        return FanoutBench(targets: targets, editors: editors, subscribers: sockets, shards: shards, counts: counts)
    }

    private init(targets: [FanoutTarget], editors: [BenchSocket], subscribers: [BenchSocket], shards: [FanoutShard], counts: Counts) {
        self.targets = targets
        self.subscriberCount = subscribers.count
        self.editors = editors
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

    /// Sends title edits at `rate` per second to each board for `seconds`, the boards in turn
    /// (evenly spaced, not in bursts), then waits for the deliveries. With `server`, also
    /// reports the server's CPU time per delivery.
    public func step(rate: Double, seconds: Double, server: ServerProcess? = nil) async throws -> Step {
        let cpuBefore = server?.cpuSeconds()
        let rejectedBefore = counts.rejectedEdits.load(ordering: .relaxed)
        for shard in shards { shard.reset() }
        let boards = targets.count
        let edits = max(1, Int(rate * seconds)) * boards
        let interval = Duration.seconds(1 / (rate * Double(boards)))
        // Which board each edit went to, for how many measured subscribers it should reach.
        var boardOfSeq: [Int: Int] = [:]
        let clock = ContinuousClock()
        var next = clock.now
        let firstSentAt = uptimeNanoseconds()
        for edit in 0..<edits {
            let board = edit % boards
            let seq = nextSeq.wrappingAdd(1, ordering: .relaxed).oldValue
            boardOfSeq[seq] = board
            let message = targets[board].edit(seq)
            let sentAt = uptimeNanoseconds()
            for shard in shards { shard.sent(seq, at: sentAt) }
            editors[board].send(message)
            next = next.advanced(by: interval)
            try await clock.sleep(until: next)
        }
        // Wait for every delivery, or give up on stragglers after 10 s of silence.
        let measuredPerBoard = measuredSubscribersPerBoard()
        let expected = boardOfSeq.values.reduce(UInt64(0)) { $0 + UInt64(measuredPerBoard[$1]) }
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
        let figures = FanoutFigures(shards) { seq in boardOfSeq[seq].map { measuredPerBoard[$0] } }
        var cpuPerDelivery: Double?
        if let cpuBefore, let cpuAfter, figures.deliveries > 0 { cpuPerDelivery = (cpuAfter - cpuBefore) * 1e6 / Double(figures.deliveries) }
        let elapsed = Double(max(1, figures.lastDeliveryAt &- firstSentAt)) / 1e9
        return Step(
            boards: boards,
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
            editorClosedWith: editors.lazy.compactMap(\.serverCloseCode).first,
            subscribersClosedWith: subscribers.compactMap(\.serverCloseCode).reduce(into: [:]) { $0[$1, default: 0] += 1 }
        )
    }

    /// How many subscribers of each board still read (the first `counts.slow` stopped).
    private func measuredSubscribersPerBoard() -> [Int] {
        let slow = counts.slow.load(ordering: .relaxed)
        var measured = Array(repeating: 0, count: targets.count)
        for index in slow..<subscriberCount { measured[index % targets.count] += 1 }
        return measured
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
        for socket in editors + subscribers { await socket.close() }
    }
}

/// The bench could not get every subscriber onto the board: why, in a sentence.
public struct ConnectFailed: Error, CustomStringConvertible {
    public let description: String
}
