import NIOCore
import NIOWebSocket

/// A room's subscribers, spread over the event loops their connections live on: what the room
/// sends is split into each loop's steps, in the order decided, and `flush` hands each loop its
/// steps (`LoopSubscribers.hand`).
///
/// A broadcast costs the room one step per loop, not one queued frame per subscriber: the loops
/// write it to their own subscribers, each from the one shared frame. Everything the room sends
/// a connection (its answers, the close) goes the same way, so it leaves in the room's order.
/// Owned by the room, used on its executor only.
package struct RoomFanout {
    private struct Share {
        let subscribers: LoopSubscribers
        /// Subscribers on this loop once the steps handed over so far have run.
        var count = 0
        var steps: [LoopSubscribers.Step] = []
    }

    private var shares: [ObjectIdentifier: Share] = [:]
    private let refused: @Sendable (Outbound) -> Void

    /// `refused` is told, on the connection's loop, of each connection that refused a frame.
    package init(refused: @escaping @Sendable (Outbound) -> Void) {
        self.refused = refused
    }

    package mutating func subscribe(_ outbound: Outbound) {
        add(.subscribe(outbound), for: outbound)
        shares[ObjectIdentifier(outbound.eventLoop)]!.count += 1
    }

    /// The connection is no subscriber any more; only for one that `subscribe` made one.
    package mutating func unsubscribe(_ outbound: Outbound) {
        add(.unsubscribe(outbound), for: outbound)
        shares[ObjectIdentifier(outbound.eventLoop)]!.count -= 1
    }

    /// Nobody is a subscriber any more (the room closed); handed to the loops at once.
    package mutating func unsubscribeAll() {
        for index in shares.values.indices where shares.values[index].count > 0 {
            shares.values[index].steps.append(.unsubscribeAll)
            shares.values[index].count = 0
        }
        flush()
    }

    /// `frame` to every subscriber of the moment; returns how many they are.
    @discardableResult
    package mutating func broadcast(_ frame: OutboundFrame) -> Int {
        var subscribers = 0
        for index in shares.values.indices where shares.values[index].count > 0 {
            shares.values[index].steps.append(.broadcast(frame))
            subscribers += shares.values[index].count
        }
        return subscribers
    }

    /// `frame` to one connection; `held`: its session counts it as held until it is queued.
    package mutating func send(_ frame: OutboundFrame, to outbound: Outbound, held: Bool) {
        add(.frame(frame, to: outbound, held: held), for: outbound)
    }

    /// Closes the connection once the frames decided before are queued; handed to its loop at once.
    package mutating func disconnect(_ outbound: Outbound, _ code: WebSocketErrorCode, reason: String) {
        add(.disconnect(outbound, code, reason), for: outbound)
        flush()
    }

    /// Hands each loop its steps. A loop's share stays while the room lives, with no subscriber
    /// too (a board's subscribers are on a few loops at most).
    package mutating func flush() {
        for index in shares.values.indices where !shares.values[index].steps.isEmpty {
            shares.values[index].subscribers.hand(shares.values[index].steps)
            shares.values[index].steps = []
        }
    }

    private mutating func add(_ step: LoopSubscribers.Step, for outbound: Outbound) {
        let loop = outbound.eventLoop
        let key = ObjectIdentifier(loop)
        if shares[key] == nil {
            shares[key] = Share(subscribers: LoopSubscribers(loop: loop, refused: refused))
        }
        shares[key]!.steps.append(step)
    }
}
