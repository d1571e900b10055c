import Histogram
import Synchronization

/// A histogram of latencies in microseconds that many NIO threads record into at once.
final class LatencyHistogram: Sendable {
    private let histogram = Mutex(Histogram<UInt64>(highestTrackableValue: 60_000_000, numberOfSignificantValueDigits: .three))

    func record(microseconds: UInt64) {
        histogram.withLock { _ = $0.record(min(microseconds, 60_000_000)) }
    }

    var count: UInt64 { histogram.withLock { $0.totalCount } }

    /// Adds what another histogram recorded (a shard's, merged at the end of a step).
    func add(_ other: Histogram<UInt64>) {
        histogram.withLock { $0.add(other) }
    }

    /// Milliseconds at a percentile (0-100).
    func milliseconds(at percentile: Double) -> Double {
        histogram.withLock { Double($0.valueAtPercentile(percentile)) / 1_000 }
    }

    /// p50, p99, p99.9 and max in milliseconds, as a report row wants them, and how many
    /// latencies they summarise (`count`).
    var summary: [String: Double] {
        [
            "p50": milliseconds(at: 50), "p99": milliseconds(at: 99), "p99.9": milliseconds(at: 99.9),
            "max": histogram.withLock { Double($0.max) / 1_000 },
            "count": Double(count),
        ]
    }
}
