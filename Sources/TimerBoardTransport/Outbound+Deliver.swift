import NIOCore

extension Outbound {
    /// Queues each frame on its connection, in order, then wakes each event loop once for all
    /// the connections it must drain. Returns the bytes queued and the connections that refused
    /// (gone, or just overflowed), each once.
    package static func deliver(_ sends: some Sequence<(connection: Outbound, frame: OutboundFrame)>) -> (bytes: Int, refused: [Outbound]) {
        var drains = DrainBatch()
        var bytes = 0
        var refused: [Int: Outbound] = [:]
        for (connection, frame) in sends {
            bytes += frame.bytes.readableBytes
            switch connection.enqueue(frame) {
            case .queued: break
            case .needsDrain: drains.add(connection)
            case .refused: refused[connection.id] = connection
            }
        }
        drains.schedule()
        return (bytes, Array(refused.values))
    }
}
