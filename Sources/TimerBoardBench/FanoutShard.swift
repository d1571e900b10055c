import Histogram
import Synchronization

/// What the subscribers of one event loop record, under a lock only that loop takes while a
/// step runs: with several generator threads, no lock is shared on the path of a delivery. The
/// editor writes each edit's send time into every shard before sending it; a step's figures are
/// the shards merged (`FanoutFigures`).
final class FanoutShard: Sendable {
    struct State {
        var sendTimes: [Int: UInt64] = [:]
        var perDelivery = Histogram<UInt64>(highestTrackableValue: 60_000_000, numberOfSignificantValueDigits: .three)
        var deliveries: UInt64 = 0
        var lastDeliveryAt: UInt64 = 0
        var bytesPerChangeset = 0
        /// Per edit: how many of this loop's subscribers have it, and when the last one did.
        var perSeq: [Int: (count: Int, lastArrival: UInt64)] = [:]
    }

    private let state = Mutex(State())

    func sent(_ seq: Int, at time: UInt64) {
        state.withLock { $0.sendTimes[seq] = time }
    }

    /// A subscriber of this loop received edit `seq`.
    func delivered(_ seq: Int, bytes: Int, arrivedAt: UInt64) {
        state.withLock { state in
            guard let sentAt = state.sendTimes[seq] else { return }
            _ = state.perDelivery.record(min((arrivedAt &- sentAt) / 1_000, 60_000_000))
            state.deliveries += 1
            state.lastDeliveryAt = max(state.lastDeliveryAt, arrivedAt)
            state.bytesPerChangeset = bytes
            let seen = state.perSeq[seq]
            state.perSeq[seq] = ((seen?.count ?? 0) + 1, max(seen?.lastArrival ?? 0, arrivedAt))
        }
    }

    var deliveries: UInt64 { state.withLock(\.deliveries) }

    /// Starts a new step.
    func reset() {
        state.withLock { $0 = State() }
    }

    func read<Value>(_ body: (State) -> Value) -> Value {
        state.withLock { body($0) }
    }
}

/// A step's figures from every shard: deliveries merged, and each edit's last delivery across
/// all loops (an edit reached its last subscriber when every loop's count adds up to the
/// subscribers it was meant for: `subscribers(seq)`, those of its board that still read).
struct FanoutFigures {
    var perDelivery = LatencyHistogram()
    var lastSubscriber = LatencyHistogram()
    var deliveries: UInt64 = 0
    var lastDeliveryAt: UInt64 = 0
    var bytesPerChangeset = 0

    init(_ shards: [FanoutShard], subscribers: (_ seq: Int) -> Int?) {
        var counts: [Int: (count: Int, lastArrival: UInt64)] = [:]
        var sendTimes: [Int: UInt64] = [:]
        for shard in shards {
            shard.read { state in
                perDelivery.add(state.perDelivery)
                deliveries += state.deliveries
                lastDeliveryAt = max(lastDeliveryAt, state.lastDeliveryAt)
                bytesPerChangeset = max(bytesPerChangeset, state.bytesPerChangeset)
                sendTimes.merge(state.sendTimes) { first, _ in first }
                for (seq, seen) in state.perSeq {
                    let total = counts[seq]
                    counts[seq] = ((total?.count ?? 0) + seen.count, max(total?.lastArrival ?? 0, seen.lastArrival))
                }
            }
        }
        for (seq, seen) in counts where seen.count == subscribers(seq) {
            guard let sentAt = sendTimes[seq] else { continue }
            lastSubscriber.record(microseconds: (seen.lastArrival &- sentAt) / 1_000)
        }
    }
}
