import Synchronization

/// One token bucket per client address, for requests that cost the server something lasting
/// (a new board). Buckets that have filled up again are forgotten, so a crowd of addresses
/// costs memory only while they are actually busy.
final class AddressRateLimiter: Sendable {
    private let rate: Double
    private let burst: Double
    private let buckets = Mutex<[String: TokenBucket]>([:])
    /// Above this many addresses, full buckets are swept out before adding another.
    private static let sweepAbove = 10_000

    /// `perMinute` requests a minute per address, `burst` at once; 0 per minute: no limit.
    init(perMinute: Double, burst: Double) {
        rate = perMinute / 60
        self.burst = burst
    }

    /// Takes one request for `address` and returns nil, or the milliseconds until it may.
    func take(_ address: String, now: Int64) -> Int64? {
        guard rate > 0 else { return nil }
        return buckets.withLock { buckets in
            if buckets[address] == nil, buckets.count >= Self.sweepAbove {
                buckets = buckets.filter { !$0.value.isFull(now: now) }
                // Still crowded (many addresses, all busy): start afresh rather than grow.
                if buckets.count >= Self.sweepAbove * 2 { buckets = [:] }
            }
            var bucket = buckets[address] ?? TokenBucket(rate: rate, burst: burst, now: now)
            let wait = bucket.take(now: now)
            buckets[address] = bucket
            return wait
        }
    }

    /// Returns the token `take` just took from `address`: a later budget refused the request.
    func giveBack(_ address: String, now: Int64) {
        guard rate > 0 else { return }
        buckets.withLock { buckets in
            guard var bucket = buckets[address] else { return }
            bucket.giveBack(now: now)
            buckets[address] = bucket
        }
    }

    /// Charges `address` `cost` more tokens after the fact (an edit that turned into many
    /// changes); the bucket may go into debt, down to minus its burst.
    func charge(_ address: String, _ cost: Double, now: Int64) {
        guard rate > 0, cost > 0 else { return }
        buckets.withLock { buckets in
            var bucket = buckets[address] ?? TokenBucket(rate: rate, burst: burst, now: now)
            bucket.charge(cost, now: now)
            buckets[address] = bucket
        }
    }

    /// The milliseconds until `address` has a token, taking none; nil when it has one now.
    func wait(_ address: String, now: Int64) -> Int64? {
        guard rate > 0 else { return nil }
        return buckets.withLock { buckets in
            guard var probe = buckets[address] else { return nil }
            return probe.take(now: now)
        }
    }
}
