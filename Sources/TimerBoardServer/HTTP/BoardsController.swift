import BoardProtocol
import BoardStore
import Foundation
import Hummingbird
import Logging

/// REST routes for boards: create, list, read a snapshot.
struct BoardsController {
    let registry: BoardRegistry
    let maxTitleLength: Int
    let logger: Logger

    func addRoutes(to group: RouterGroup<some RequestContext>) {
        group.post(use: create)
        group.get(use: list)
        group.get(":id", use: show)
    }

    /// The body of a create request, at most this long.
    private static let maxCreateBodyBytes = 16_384

    /// Creates a board from `{"title":"…"}` (or an empty body). A body that is not that answers
    /// 4xx with the error shape and creates nothing; a store that cannot write answers 503.
    @Sendable func create(request: Request, context: some RequestContext) async throws -> Response {
        let body: ByteBuffer
        do {
            body = try await request.body.collect(upTo: Self.maxCreateBodyBytes)
        } catch {
            return errorResponse(.contentTooLarge, .tooLarge, "the body must be at most \(Self.maxCreateBodyBytes) bytes")
        }
        var title = ""
        if body.readableBytes > 0 {
            guard case .object(let fields)? = JSONValue.parse(Data(body.readableBytesView)) else {
                return errorResponse(.badRequest, .badJSON, #"the body must be a JSON object, such as {"title":"Kitchen"}"#)
            }
            switch fields["title"] {
            case nil, .null?: break
            case .string(let text)?: title = text
            case let other?: return errorResponse(.badRequest, .invalidField, "title must be a string, not \(other.typeName)")
            }
        }
        title = title.trimmingCharacters(in: .whitespacesAndNewlines)
        guard title.count <= maxTitleLength, !title.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
            return errorResponse(.badRequest, .invalidField, "title must be at most \(maxTitleLength) characters, one line")
        }
        let info: BoardInfo
        do {
            info = try await registry.createBoard(title: title.isEmpty ? "Untitled board" : title)
        } catch {
            logger.error("creating a board failed", metadata: ["tb.error": "\(error)"])
            return errorResponse(.serviceUnavailable, .unavailable, "the server cannot store a new board now; try again later")
        }
        return jsonResponse(.created, Self.encode(info, withURL: true))
    }

    @Sendable func list(request: Request, context: some RequestContext) async throws -> Response {
        let boards = try await registry.boards(limit: 100)
        var writer = JSONWriter()
        writer.beginObject()
        writer.key("boards")
        writer.beginArray()
        for info in boards { writer.raw(Self.encode(info, withURL: true)) }
        writer.endArray()
        writer.endObject()
        return jsonResponse(.ok, writer.bytes)
    }

    @Sendable func show(request: Request, context: some RequestContext) async throws -> Response {
        let id = try context.parameters.require("id")
        guard let room = try await registry.room(for: id) else {
            return jsonResponse(.notFound, ServerMessage.error(code: .boardNotFound, message: "no board \(id)").encoded())
        }
        // Only what is durable: a crash must not take back what a reader was shown.
        let snapshot = await room.durableSnapshot()
        await registry.releaseIfIdle(room)
        guard let snapshot else {
            return errorResponse(.serviceUnavailable, .unavailable, "the board cannot be read now; try again later")
        }
        return jsonResponse(.ok, ServerMessage.snapshot(snapshot).encoded())
    }

    private static func encode(_ info: BoardInfo, withURL: Bool) -> [UInt8] {
        var writer = JSONWriter()
        writer.beginObject()
        writer.field("id", info.id)
        writer.field("title", info.title)
        writer.field("createdDate", info.createdDate)
        if withURL { writer.field("url", "/b/\(info.id)") }
        writer.endObject()
        return writer.bytes
    }

    private func errorResponse(_ status: HTTPResponse.Status, _ code: ErrorCode, _ message: String) -> Response {
        jsonResponse(status, ServerMessage.error(code: code, message: message).encoded())
    }

    private func jsonResponse(_ status: HTTPResponse.Status, _ bytes: [UInt8]) -> Response {
        Response(
            status: status,
            headers: [.contentType: "application/json; charset=utf-8"],
            body: .init(byteBuffer: ByteBuffer(bytes: bytes))
        )
    }
}
