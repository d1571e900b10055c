import NIOCore
import TimerBoardTransport

extension RoomFanout {
    /// Splits what the outbox released among the loops, in order, and hands it to them. Returns
    /// the messages and bytes that makes, each broadcast counted once per subscriber.
    mutating func hand(_ sends: [RoomOutbox<Outbound, OutboundFrame>.Send]) -> (messages: Int, bytes: Int) {
        var (messages, bytes) = (0, 0)
        for send in sends {
            switch send {
            case .broadcast(let frame):
                let subscribers = broadcast(frame)
                messages += subscribers
                bytes += subscribers * frame.bytes.readableBytes
            case .frame(let frame, let outbound, let held):
                self.send(frame, to: outbound, held: held)
                messages += 1
                bytes += frame.bytes.readableBytes
            case .subscribe(let outbound): subscribe(outbound)
            case .unsubscribe(let outbound): unsubscribe(outbound)
            }
        }
        flush()
        return (messages, bytes)
    }
}
