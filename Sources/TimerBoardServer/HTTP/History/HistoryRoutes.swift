import BoardCore
import BoardProtocol
import BoardStore
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

/// The board's history and the report after an event, for any role (docs/protocol.md, "HTTP
/// API"): both read the store's log, so they cover what it keeps (`--retained-changesets`).
struct HistoryRoutes {
    let boards: BoardsController
    let store: any BoardStore
    let clock: any ServerClock
    /// The most changesets the log keeps: the report reads all of them.
    let retainedChangesets: Int

    static let pageLimit = 200

    func addRoutes(to group: RouterGroup<TimerBoardRequestContext>) {
        group.get(":id/history", use: history)
        group.get(":id/report.csv", use: reportCSV)
        group.get(":id/report.json", use: reportJSON)
    }

    /// `{"entries":[{"rev","time","by","changes","replaced"}],"next":REV|null}`, newest first:
    /// `?before=REV` pages back, `?limit=` (1-200, 50) sizes a page. `by` is the name its author
    /// gave, null for what the server did (timers that ran out); `replaced` (for edits) holds what
    /// the edit replaced, so a page can put back a deleted item.
    @Sendable func history(request: Request, context: TimerBoardRequestContext) async throws -> Response {
        let query = request.uri.queryParameters
        let before = query["before"].flatMap { Int64(String($0)) }
        let limit = min(max(query["limit"].flatMap { Int(String($0)) } ?? 50, 1), Self.pageLimit)
        return try await boards.withBoard(request, context, needs: .view) { room, _ in
            let entries = try await store.history(boardID: room.boardID, before: before, limit: limit)
            var writer = JSONWriter()
            writer.beginObject()
            writer.key("entries")
            writer.beginArray()
            for entry in entries {
                writer.beginObject()
                writer.field("rev", entry.revision)
                writer.field("time", entry.time)
                writer.key("by")
                if let author = entry.author { writer.string(author) } else { writer.null() }
                writer.key("changes")
                writer.beginArray()
                for change in entry.changes { writer.change(change) }
                writer.endArray()
                if let replaced = entry.undo {
                    writer.key("replaced")
                    writer.beginArray()
                    for change in replaced { writer.change(change) }
                    writer.endArray()
                }
                writer.endObject()
            }
            writer.endArray()
            writer.key("next")
            if entries.count == limit, let oldest = entries.last, oldest.revision > 1 { writer.int(oldest.revision) } else { writer.null() }
            writer.endObject()
            return BoardsController.json(.ok, writer.bytes)
        }
    }

    @Sendable func reportCSV(request: Request, context: TimerBoardRequestContext) async throws -> Response {
        try await boards.withBoard(request, context, needs: .view) { room, _ in
            let report = try await report(room.boardID)
            var headers = HTTPFields()
            headers[.contentType] = "text/csv; charset=utf-8"
            headers[.contentDisposition] = "attachment; filename=\"timerboard-\(room.boardID)-report.csv\""
            return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(string: report.csv)))
        }
    }

    @Sendable func reportJSON(request: Request, context: TimerBoardRequestContext) async throws -> Response {
        try await boards.withBoard(request, context, needs: .view) { room, _ in
            BoardsController.json(.ok, try await report(room.boardID).json)
        }
    }

    private func report(_ boardID: String) async throws -> RunReport {
        let log = try await store.history(boardID: boardID, before: nil, limit: retainedChangesets)
        return RunReport(log: log.reversed(), now: clock.now())
    }
}
