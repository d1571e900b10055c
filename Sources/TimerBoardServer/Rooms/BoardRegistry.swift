import BoardCore
import BoardStore
import Logging

/// The live boards of this process: at most one room per board, loaded from the store on
/// first use and dropped when nobody is on it.
actor BoardRegistry {
    private let context: RoomContext
    private var rooms: [String: BoardRoom] = [:]
    /// Loads in flight, so that two clients joining a cold board share one load and one room.
    private var loading: [String: Task<BoardRoom?, any Error>] = [:]

    init(context: RoomContext) {
        self.context = context
        context.idleRooms.answer(with: { [weak self] room in await self?.releaseIfIdle(room) })
    }

    /// The board's room, loading it when needed; nil when there is no such board.
    func room(for boardID: String) async throws -> BoardRoom? {
        if let room = rooms[boardID], await !room.isClosed { return room }
        if let load = loading[boardID] { return try await load.value }
        let load = Task { [context] () -> BoardRoom? in
            guard let stored = try await context.store.loadBoard(id: boardID) else { return nil }
            let room = BoardRoom(stored: stored, context: context)
            await room.activate()
            context.logger.info("loaded the board", metadata: ["tb.board.id": "\(boardID)", "tb.board.revision": "\(stored.revision)"])
            return room
        }
        loading[boardID] = load
        defer { loading[boardID] = nil }
        let room = try await load.value
        rooms[boardID] = room
        return room
    }

    /// The board's room if this node has it in memory now; never loads one.
    func room(ifLoaded boardID: String) -> BoardRoom? {
        rooms[boardID]
    }

    /// Every room in memory now.
    var loadedRooms: [BoardRoom] { Array(rooms.values) }

    /// Drops the room when nobody is on it any more, once what it applied is stored: a room
    /// whose last edit or timer finish was still being written would otherwise stay forever.
    func releaseIfIdle(_ room: BoardRoom) async {
        guard rooms[room.boardID] === room else { return }
        _ = await room.waitUntilDurable()
        if await room.closeIfIdle(), rooms[room.boardID] === room {
            rooms[room.boardID] = nil
        }
    }

    /// How many boards are in memory now.
    var liveRoomCount: Int { rooms.count }

    /// How many timers run on the boards in memory now (a board that left memory with a
    /// running timer is not counted until it is loaded again). For `/metrics`: one call per room.
    func runningTimerCount() async -> Int {
        var count = 0
        for room in rooms.values { count += await room.runningTimerCount }
        return count
    }

    // MARK: Boards

    /// Makes a board and its link secrets; the secrets leave the server only in this answer.
    func createBoard(title: String) async throws -> (BoardInfo, BoardSecrets) {
        let info = BoardInfo(id: Self.newBoardID(), title: title, createdDate: context.clock.now())
        let secrets = BoardSecrets.mint()
        try await context.store.createBoard(info, access: secrets.access)
        return (info, secrets)
    }

    /// Deletes the board (see `BoardRoom.delete`) and forgets its room.
    func delete(_ room: BoardRoom) async throws {
        defer { if rooms[room.boardID] === room { rooms[room.boardID] = nil } }
        try await room.delete()
    }

    func boards(limit: Int) async throws -> [BoardInfo] {
        try await context.store.boards(limit: limit)
    }

    /// Loads every board whose webhooks want events, at start: their timers' finishes and
    /// warnings are sent when they happen (a room kept for its webhooks stays while a timer
    /// runs), and what happened while no node had them loaded is sent now. Returns how many.
    func loadBoardsWithWebhooks() async throws -> Int {
        let ids = try await context.store.boardsWithWebhooks()
        for id in ids {
            guard let room = try await room(for: id) else { continue }
            await releaseIfIdle(room)
        }
        return ids.count
    }

    /// Closes every room once what it applied is durable: the server is stopping, and the store
    /// stops after this.
    func shutDown() async {
        let closing = Array(rooms.values)
        rooms = [:]
        await withTaskGroup(of: Void.self) { group in
            for room in closing { group.addTask { await room.close(.shutdown) } }
        }
    }

    /// 12 random characters of base 62: about 71 bits, unguessable enough to share as a link.
    private static func newBoardID() -> String {
        let alphabet = Array("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz")
        var generator = SystemRandomNumberGenerator()
        return String((0..<12).map { _ in alphabet.randomElement(using: &generator)! })
    }
}
