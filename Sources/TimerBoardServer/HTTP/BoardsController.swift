import BoardProtocol
import BoardStore
import Foundation
import Hummingbird

/// REST routes for boards: create, list, read a snapshot.
struct BoardsController {
    let registry: BoardRegistry
    let maxTitleLength: Int

    func addRoutes(to group: RouterGroup<some RequestContext>) {
        group.post(use: create)
        group.get(use: list)
        group.get(":id", use: show)
    }

    private struct CreateRequest: Decodable {
        var title: String?
    }

    @Sendable func create(request: Request, context: some RequestContext) async throws -> Response {
        let body = try await request.body.collect(upTo: 16_384)
        let input = body.readableBytes == 0 ? CreateRequest() : try JSONDecoder().decode(CreateRequest.self, from: Data(body.readableBytesView))
        let title = (input.title ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
        guard title.count <= maxTitleLength, !title.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
            return jsonResponse(
                .badRequest,
                ServerMessage.error(code: .invalidField, message: "title must be at most \(maxTitleLength) characters, one line").encoded()
            )
        }
        let info = try await registry.createBoard(title: title.isEmpty ? "Untitled board" : title)
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
        let snapshot = await room.snapshot()
        await registry.releaseIfIdle(room)
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

    private func jsonResponse(_ status: HTTPResponse.Status, _ bytes: [UInt8]) -> Response {
        Response(
            status: status,
            headers: [.contentType: "application/json; charset=utf-8"],
            body: .init(byteBuffer: ByteBuffer(bytes: bytes))
        )
    }
}
