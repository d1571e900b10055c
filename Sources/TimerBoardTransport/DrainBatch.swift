import NIOCore

/// The connections a broadcast queued frames for, by event loop: one task per loop drains them
/// all, instead of one task (and one wake-up) per connection.
package struct DrainBatch {
    private var byLoop: [ObjectIdentifier: (loop: any EventLoop, outbounds: [Outbound])] = [:]

    package init() {}

    package mutating func add(_ outbound: Outbound) {
        let loop = outbound.eventLoop
        byLoop[ObjectIdentifier(loop), default: (loop, [])].outbounds.append(outbound)
    }

    /// Hands each loop its connections to drain.
    package func schedule() {
        for (loop, outbounds) in byLoop.values {
            loop.execute {
                for outbound in outbounds { outbound.drain() }
            }
        }
    }
}
