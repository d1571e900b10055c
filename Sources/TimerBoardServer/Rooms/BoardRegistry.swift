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
    /// Boards made for clients that were told it failed, to delete.
    private let abandoned: AbandonedBoards
    /// Boards an HTTP request used lately, and until when they stay for the next one
    /// (`releaseAfterLinger`); one waiting task per board.
    private var lingering: [String: ContinuousClock.Instant] = [:]

    init(context: RoomContext) {
        self.context = context
        abandoned = AbandonedBoards(store: context.store, storeTimeout: context.configuration.storeTimeout, logger: context.logger)
        context.idleRooms.answer(with: { [weak self] room in await self?.releaseIfIdle(room) })
    }

    /// The board's room, loading it when needed; nil when there is no such board. Throws
    /// `Deadline.Exceeded` when the store does not answer within `--store-timeout-seconds`.
    func room(for boardID: String) async throws -> BoardRoom? {
        if let room = rooms[boardID], await !room.isClosed { return room }
        if let load = loading[boardID] { return try await finish(load, boardID: boardID) }
        let load = Task { [context] () -> BoardRoom? in
            guard let stored = try await context.store.loadBoard(id: boardID) else { return nil }
            // Given up on (the store answered too late): no room, so none is left without a user.
            try Task.checkCancellation()
            let room = BoardRoom(stored: stored, context: context)
            await room.activate()
            context.logger.info(
                "loaded the board",
                metadata: ["tb.event": "board.loaded", "tb.board.id": "\(boardID)", "tb.board.revision": "\(stored.revision)"]
            )
            return room
        }
        loading[boardID] = load
        return try await finish(load, boardID: boardID)
    }

    /// The board's room for a client holding a secret whose SHA-256 is `secretHash`: a board
    /// not in memory is loaded only when the secret is one of its links (checked against the
    /// stored hashes first, one row read), so wrong secrets cannot make the server load and
    /// unload whole boards. Nil when there is no such board or the secret is none of its links
    /// (a room in memory checks the secret against its own links, which may be newer than the
    /// stored ones).
    func room(for boardID: String, secretHash: [UInt8]) async throws -> BoardRoom? {
        if let room = rooms[boardID], await !room.isClosed {
            if await room.role(ofHash: secretHash) != nil { return room }
            // Refused after the same row read as an id of no board: a board in memory must not
            // answer a wrong secret sooner, or timing would tell a guesser which ids are boards.
            _ = try? await storedAccess(boardID)
            return nil
        }
        if loading[boardID] == nil {
            guard let access = try await storedAccess(boardID), access.role(ofHash: secretHash) != nil else { return nil }
        }
        return try await room(for: boardID)
    }

    /// The board's link hashes from the store, one row read, within `--store-timeout-seconds`.
    private func storedAccess(_ boardID: String) async throws -> BoardAccess? {
        try await Deadline.run(within: context.configuration.storeTimeout) { [store = context.store] in
            try await store.loadAccess(id: boardID)
        }
    }

    /// Waits for a load at most `--store-timeout-seconds`, each caller from when it asked: a
    /// store that does not answer makes joins and requests answer "unavailable" (and try again)
    /// rather than wait with it. The first to see the load end keeps its room.
    private func finish(_ load: Task<BoardRoom?, any Error>, boardID: String) async throws -> BoardRoom? {
        let outcome = await Deadline.wait(for: load, within: context.configuration.storeTimeout)
        let first = loading[boardID] == load
        if first { loading[boardID] = nil }
        switch outcome {
        case .finished(let result):
            let room = try result.get()
            if first { rooms[boardID] = room }
            return room
        case .late:
            throw Deadline.Exceeded(limit: context.configuration.storeTimeout)
        }
    }

    /// The board's room if this node has it in memory now; never loads one.
    func room(ifLoaded boardID: String) -> BoardRoom? {
        rooms[boardID]
    }

    /// Every room in memory now.
    var loadedRooms: [BoardRoom] { Array(rooms.values) }

    /// Drops the room when nobody is on it any more, once what it applied is stored: a room
    /// whose last edit or timer finish was still being written would otherwise stay forever.
    /// A room an HTTP request used lately stays until its linger ends (`releaseAfterLinger`).
    func releaseIfIdle(_ room: BoardRoom) async {
        guard rooms[room.boardID] === room, lingering[room.boardID] == nil else { return }
        _ = await room.waitUntilDurable()
        guard lingering[room.boardID] == nil else { return }  // a request came meanwhile
        if await room.closeIfIdle(), rooms[room.boardID] === room {
            rooms[room.boardID] = nil
        }
    }

    /// After an HTTP request or an event stream: the room stays `--board-linger-seconds` more
    /// for the next one (a script's request every few seconds would load the whole board each
    /// time), then goes if idle. Each call moves the end; one task per board waits for it.
    func releaseAfterLinger(_ room: BoardRoom) async {
        let linger = context.configuration.boardLinger
        guard linger > .zero else { return await releaseIfIdle(room) }
        let boardID = room.boardID
        let waiting = lingering[boardID] != nil
        lingering[boardID] = .now + linger
        guard !waiting else { return }
        Task { await self.releaseWhenLingerEnds(boardID) }
    }

    /// Lets the board's room go once its linger has ended, whichever room holds the board then
    /// (it may have been closed and loaded again meanwhile).
    private func releaseWhenLingerEnds(_ boardID: String) async {
        while let end = lingering[boardID], end > .now {
            try? await Task.sleep(until: end, clock: .continuous)
        }
        lingering[boardID] = nil
        if let room = rooms[boardID] { await releaseIfIdle(room) }
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
    ///
    /// Nothing is made that the caller is not told of: when the store does not answer within
    /// `--store-timeout-seconds`, or fails once the write may have reached it, this throws and
    /// the board, if the store made it after all, is deleted (`AbandonedBoards`).
    func createBoard(title: String) async throws -> (BoardInfo, BoardSecrets) {
        let info = BoardInfo(id: Self.newBoardID(), title: title, createdDate: context.clock.now())
        let secrets = BoardSecrets.mint()
        let write = Task { [store = context.store] in try await store.createBoard(info, access: secrets.access) }
        switch await Deadline.wait(for: write, within: context.configuration.storeTimeout) {
        case .finished(.success):
            return (info, secrets)
        case .finished(.failure(let error)):
            await abandoned.add(info.id, write: write)
            throw error
        case .late:
            await abandoned.add(info.id, write: write)
            throw Deadline.Exceeded(limit: context.configuration.storeTimeout)
        }
    }

    /// Deletes the board (see `BoardRoom.delete`) and forgets its room.
    func delete(_ room: BoardRoom) async throws {
        defer { if rooms[room.boardID] === room { rooms[room.boardID] = nil } }
        try await room.delete()
    }

    /// The newest boards, or `Deadline.Exceeded` when the store does not answer in time.
    func boards(limit: Int) async throws -> [BoardInfo] {
        try await Deadline.run(within: context.configuration.storeTimeout) { [store = context.store] in
            try await store.boards(limit: limit)
        }
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
        await abandoned.stop()
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
