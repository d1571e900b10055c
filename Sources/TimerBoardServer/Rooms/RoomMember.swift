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
