import TimerBoardTransport

/// A connection as a room sees it: an id, how much its queue holds and whether it takes
/// compressed frames. The room's decisions need nothing else, so `RoomState` is tested with
/// plain values; the server's rooms hold `Outbound`s.
protocol RoomMember: Identifiable where ID == Int {
    /// The most frames its queue holds: a catch-up must fit in half of it beside live traffic.
    var capacity: Int { get }
    /// It negotiated permessage-deflate: it may be sent the compressed snapshot.
    var acceptsDeflate: Bool { get }
    /// The room holds one more answer for it until what comes before is durable.
    func holdAnswer()
    /// The room queued (or dropped) this many of the answers it held.
    func releaseHeldAnswers(_ count: Int)
}

extension Outbound: RoomMember {}

extension RoomOutbox.Send where Connection: RoomMember {
    /// Tells each connection how many of the answers held for it `sends` queued. Only once they
    /// are queued: a session that then sees nothing held sends its answer behind them.
    static func releaseHeldAnswers(in sends: [Self]) {
        var released: [Int: (Connection, Int)] = [:]
        for send in sends where send.wasHeld {
            released[send.connection.id, default: (send.connection, 0)].1 += 1
        }
        for (connection, count) in released.values { connection.releaseHeldAnswers(count) }
    }
}
