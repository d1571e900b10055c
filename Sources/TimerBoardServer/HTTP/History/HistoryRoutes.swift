import BoardCore
import BoardProtocol
import BoardStore
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

/// The board's history and the report after an event, for any role (docs/protocol.md, "HTTP
/// API"): both read the store's log, so they cover what it keeps (`--retained-changesets`).
/// A report reads the whole log, so reads of the three share a budget per client address.
struct HistoryRoutes {
    let boards: BoardsController
    let store: any BoardStore
    let readLimiter: AddressRateLimiter
    let trustedProxies: TrustedProxies
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
        if let refusal = overBudget(request, context) { return refusal }
        let query = request.uri.queryParameters
        let before: Int64?
        let limit: Int
        switch (Self.number(query["before"], in: 1...Int64.max), Self.number(query["limit"], in: 1...Int64(Self.pageLimit))) {
        case (.success(let first), .success(let size)):
            before = first
            limit = size.map(Int.init) ?? 50
        case (.failure, _):
            return HTTPAnswer(.badRequest, .invalidField, "before must be a revision, a whole number from 1").response
        case (_, .failure):
            return HTTPAnswer(.badRequest, .invalidField, "limit must be a whole number from 1 to \(Self.pageLimit)").response
        }
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
        if let refusal = overBudget(request, context) { return refusal }
        return try await boards.withBoard(request, context, needs: .view) { room, _ in
            let report = try await report(room.boardID)
            var headers = HTTPFields()
            headers[.contentType] = "text/csv; charset=utf-8"
            headers[.contentDisposition] = "attachment; filename=\"timerboard-\(room.boardID)-report.csv\""
            return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(string: report.csv)))
        }
    }

    @Sendable func reportJSON(request: Request, context: TimerBoardRequestContext) async throws -> Response {
        if let refusal = overBudget(request, context) { return refusal }
        return try await boards.withBoard(request, context, needs: .view) { room, _ in
            BoardsController.json(.ok, try await report(room.boardID).json)
        }
    }

    /// A `429` when the caller's address has no read left, else nil (and one read taken).
    private func overBudget(_ request: Request, _ context: TimerBoardRequestContext) -> Response? {
        let address = ClientAddress.key(
            peer: context.remoteAddress,
            forwardedFor: request.headers[values: .xForwardedFor],
            realIP: request.headers[.xRealIP],
            trusted: trustedProxies
        )
        guard let wait = readLimiter.take(address, now: clock.now()) else { return nil }
        boards.metrics.refused(.historyReadRate)
        let seconds = (wait + 999) / 1_000
        var answer = HTTPAnswer(.tooManyRequests, .rateLimited, "too many history and report reads from this address; try again in \(seconds) s").response
        answer.headers[.retryAfter] = "\(seconds)"
        return answer
    }

    /// A query parameter that must be a whole number in `range` when present: absent is nil.
    private static func number(_ text: Substring?, in range: ClosedRange<Int64>) -> Result<Int64?, OutOfRules> {
        guard let text else { return .success(nil) }
        guard let value = Int64(text), range.contains(value) else { return .failure(OutOfRules()) }
        return .success(value)
    }

    private struct OutOfRules: Error {}

    private func report(_ boardID: String) async throws -> RunReport {
        let log = try await store.history(boardID: boardID, before: nil, limit: retainedChangesets)
        return RunReport(log: log.reversed(), now: clock.now())
    }
}
