import Synchronization

/// How a room that became idle by itself (no request or connection ended to notice it: its
/// webhooks' last timer finished) asks the registry to drop it. The registry answers once it
/// exists; the rooms it makes share this through their `RoomContext`.
final class IdleRooms: Sendable {
    private let handler = Mutex<(@Sendable (BoardRoom) async -> Void)?>(nil)

    func answer(with handler: @escaping @Sendable (BoardRoom) async -> Void) {
        self.handler.withLock { $0 = handler }
    }

    /// Asks for `room` to be dropped if it is still idle when the registry looks.
    func release(_ room: BoardRoom) {
        guard let handler = handler.withLock({ $0 }) else { return }
        Task { await handler(room) }
    }
}
