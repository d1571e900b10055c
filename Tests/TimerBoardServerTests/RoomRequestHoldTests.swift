import BoardCore
import BoardStore
import Foundation
import Logging
import Testing

@testable import TimerBoardServer

/// An HTTP request keeps its room open: another request's release (`closeIfIdle`) must not
/// close the room under it, or a link replacement halfway through answers 403.
@Suite struct RoomRequestHoldTests {
    @Test func aRoomWithARequestInProgressIsNotIdleAndAClosedRoomTakesNoRequest() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("room-hold-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = try SQLiteBoardStore(path: folder.appendingPathComponent("timerboard.sqlite").path)
        let info = BoardInfo(id: "hold0123abcd", title: "Held", createdDate: 0)
        try await store.createBoard(info, access: BoardSecrets.mint().access)
        let stored = try #require(try await store.loadBoard(id: info.id))
        let room = BoardRoom(stored: stored, store: store, configuration: ServerConfiguration(), clock: SystemClock(), logger: Logger(label: "test"))

        #expect(await room.beginRequest())
        #expect(await !room.closeIfIdle(), "closed under a request")
        await room.endRequest()
        #expect(await room.closeIfIdle())
        #expect(await !room.beginRequest(), "a closed room must send the request back to the registry")
    }
}
