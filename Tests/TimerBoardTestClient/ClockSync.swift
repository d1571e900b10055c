/// Estimates the server's clock from ping/pong round trips, as every client should before it
/// draws a countdown (docs/protocol.md, "Timers that run").
///
/// A pong's `serverTime` was read somewhere between the ping leaving and the pong arriving, so
/// the server clock at the local midpoint is off by at most half the round trip. The sample with
/// the shortest round trip is the tightest, so it is the one kept.
public struct ClockSync: Sendable {
    public struct Sample: Sendable, Equatable {
        /// Server clock minus local clock, milliseconds.
        public let offset: Int64
        public let roundTrip: Int64
    }

    public private(set) var best: Sample?

    public init() {}

    /// Adds one round trip: local send and receive times, and the server time from the pong.
    public mutating func add(sentAt: Int64, serverTime: Int64, receivedAt: Int64) {
        let roundTrip = max(0, receivedAt - sentAt)
        let sample = Sample(offset: serverTime - (sentAt + receivedAt) / 2, roundTrip: roundTrip)
        if best == nil || roundTrip < best!.roundTrip { best = sample }
    }

    /// The server's clock at local time `local`, or nil before the first sample.
    public func serverTime(atLocal local: Int64) -> Int64? {
        best.map { local + $0.offset }
    }

    /// How far `serverTime(atLocal:)` can be from the truth: half the best round trip.
    public var uncertainty: Int64? { best.map { ($0.roundTrip + 1) / 2 } }
}
