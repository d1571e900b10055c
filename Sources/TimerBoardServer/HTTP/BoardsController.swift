import BoardCore
import BoardProtocol
import BoardStore
import Foundation
import HTTPTypes
import Hummingbird
import Logging

/// REST routes for boards: create; read, rename, share and delete with a link's secret; list
/// with the operator token (docs/protocol.md, "HTTP API").
struct BoardsController {
    let registry: BoardRegistry
    let maxTitleLength: Int
    /// The operator's secret for the server-wide list; nil: there is no list.
    let adminToken: String?
    /// Boards made per client address.
    let creationLimiter: AddressRateLimiter
    /// Whose forwarding headers name the client for `creationLimiter`.
    let trustedProxies: TrustedProxies
    let clock: any ServerClock
    let logger: Logger

    func addRoutes(to group: RouterGroup<TimerBoardRequestContext>) {
        group.post(use: create)
        group.get(use: list)
        group.get(":id", use: show)
        group.patch(":id", use: rename)
        group.delete(":id", use: delete)
        group.get(":id/links", use: links)
        group.post(":id/links/:role", use: replaceLink)
    }

    /// A JSON body, at most this long.
    private static let maxBodyBytes = 16_384

    /// Creates a board from `{"title":"…"}` (or an empty body). A body that is not that answers
    /// 4xx with the error shape and creates nothing; a store that cannot write answers 503.
    @Sendable func create(request: Request, context: TimerBoardRequestContext) async throws -> Response {
        let address = ClientAddress.key(
            peer: context.remoteAddress,
            forwardedFor: request.headers[values: .xForwardedFor],
            realIP: request.headers[.xRealIP],
            trusted: trustedProxies
        )
        if let wait = creationLimiter.take(address, now: clock.now()) {
            let seconds = (wait + 999) / 1_000
            var answer = HTTPAnswer(.tooManyRequests, .rateLimited, "too many new boards from this address; try again in \(seconds) s").response
            answer.headers[.retryAfter] = "\(seconds)"
            return answer
        }
        let title: String
        switch await readTitle(request, required: false) {
        case .success(let text): title = text ?? ""
        case .failure(let answer): return answer.response
        }
        let info: BoardInfo
        let secrets: BoardSecrets
        do {
            (info, secrets) = try await registry.createBoard(title: title.isEmpty ? "Untitled board" : title)
        } catch {
            logger.error("creating a board failed", metadata: ["tb.error": "\(error)"])
            return HTTPAnswer(.serviceUnavailable, .unavailable, "the server cannot store a new board now; try again later").response
        }
        var writer = JSONWriter()
        writer.beginObject()
        writer.field("id", info.id)
        writer.field("title", info.title)
        writer.field("createdDate", info.createdDate)
        writer.field("url", BoardSecrets.link(boardID: info.id, role: .owner, secret: secrets.owner))
        writer.key("links")
        writer.beginObject()
        for role in BoardRole.allCases {
            writer.field(role.rawValue, BoardSecrets.link(boardID: info.id, role: role, secret: secrets.secret(for: role)))
        }
        writer.endObject()
        writer.key("secrets")
        writer.beginObject()
        for role in BoardRole.allCases { writer.field(role.rawValue, secrets.secret(for: role)) }
        writer.endObject()
        writer.endObject()
        return Self.json(.created, writer.bytes)
    }

    /// The server-wide list, for the operator only.
    @Sendable func list(request: Request, context: some RequestContext) async throws -> Response {
        guard let adminToken, let presented = request.bearerToken, ConstantTime.equal(presented.utf8, adminToken.utf8) else {
            return HTTPAnswer(.forbidden, .forbidden, "listing boards needs the operator token (--admin-token)").response
        }
        let boards = try await registry.boards(limit: 100)
        var writer = JSONWriter()
        writer.beginObject()
        writer.key("boards")
        writer.beginArray()
        for info in boards {
            writer.beginObject()
            writer.field("id", info.id)
            writer.field("title", info.title)
            writer.field("createdDate", info.createdDate)
            writer.endObject()
        }
        writer.endArray()
        writer.endObject()
        return Self.json(.ok, writer.bytes)
    }

    /// The board as the WebSocket's snapshot, with an `ETag` of its revision and title: a reader
    /// that polls with `If-None-Match` gets `304` and no body while nothing changed.
    @Sendable func show(request: Request, context: some RequestContext) async throws -> Response {
        try await withBoard(request, context, needs: .view) { room, _ in
            // Only what is durable: a crash must not take back what a reader was shown.
            guard let snapshot = await room.durableSnapshot() else {
                return HTTPAnswer(.serviceUnavailable, .unavailable, "the board cannot be read now; try again later").response
            }
            let tag = EntityTag(snapshot)
            var response =
                tag.isMatched(by: request.headers[.ifNoneMatch])
                ? Response(status: .notModified) : Self.json(.ok, ServerMessage.snapshot(snapshot).encoded())
            response.headers[.eTag] = tag.value
            response.headers[.cacheControl] = "no-cache"
            return response
        }
    }

    @Sendable func rename(request: Request, context: some RequestContext) async throws -> Response {
        let title: String
        switch await readTitle(request, required: true) {
        case .success(let text): title = text ?? ""
        case .failure(let answer): return answer.response
        }
        return try await withBoard(request, context, needs: .owner) { room, _ in
            try await room.rename(to: title)
            var writer = JSONWriter()
            writer.beginObject()
            writer.field("id", room.boardID)
            writer.field("title", title)
            writer.endObject()
            return Self.json(.ok, writer.bytes)
        }
    }

    @Sendable func links(request: Request, context: some RequestContext) async throws -> Response {
        try await withBoard(request, context, needs: .owner) { room, secret in
            guard let secrets = await room.secrets(ownerSecret: secret) else {
                return HTTPAnswer(.forbidden, .forbidden, "only the owner link can show the links (not the operator token)").response
            }
            var writer = JSONWriter()
            writer.beginObject()
            writer.key("links")
            writer.beginObject()
            for role in [BoardRole.edit, .view] {
                writer.field(role.rawValue, BoardSecrets.link(boardID: room.boardID, role: role, secret: secrets.secret(for: role)))
            }
            writer.endObject()
            writer.endObject()
            return Self.json(.ok, writer.bytes)
        }
    }

    @Sendable func replaceLink(request: Request, context: some RequestContext) async throws -> Response {
        let roleName = try context.parameters.require("role")
        guard let role = BoardRole(rawValue: roleName), role != .owner else {
            return HTTPAnswer(.notFound, .notFound, "only the edit and the view link can be replaced").response
        }
        return try await withBoard(request, context, needs: .owner) { room, secret in
            guard let newSecret = try await room.replaceLink(role, ownerSecret: secret) else {
                return HTTPAnswer(.forbidden, .forbidden, "only the owner link can replace a link (not the operator token)").response
            }
            var writer = JSONWriter()
            writer.beginObject()
            writer.field("role", role.rawValue)
            writer.field("secret", newSecret)
            writer.field("url", BoardSecrets.link(boardID: room.boardID, role: role, secret: newSecret))
            writer.endObject()
            return Self.json(.ok, writer.bytes)
        }
    }

    @Sendable func delete(request: Request, context: some RequestContext) async throws -> Response {
        try await withBoard(request, context, needs: .owner) { room, _ in
            try await registry.delete(room)
            return Response(status: .noContent)
        }
    }

    // MARK: Access

    /// Runs `body` with the board's room when the request's Bearer secret gives at least `needs`
    /// (the operator token counts as the owner's). No board, no secret and a wrong secret get
    /// the same 404; a valid secret of a lesser role gets 403. A store that fails answers 503.
    func withBoard(
        _ request: Request,
        _ context: some RequestContext,
        needs: BoardRole,
        _ body: (BoardRoom, String) async throws -> Response
    ) async throws -> Response {
        let id = try context.parameters.require("id")
        let notFound = HTTPAnswer(.notFound, .boardNotFound, "no board \(id)")
        guard let secret = request.bearerToken else { return notFound.response }
        var inUse: BoardRoom?
        do {
            // A room can close between the lookup and its use (it went idle): load it again.
            for _ in 0..<3 where inUse == nil {
                guard let found = try await registry.room(for: id) else { return notFound.response }
                if await found.beginRequest() { inUse = found }
            }
        } catch {
            logger.error("loading a board failed", metadata: ["tb.board.id": "\(id)", "tb.error": "\(error)"])
            return HTTPAnswer(.serviceUnavailable, .unavailable, "the board cannot be read now; try again later").response
        }
        guard let room = inUse else {
            return HTTPAnswer(.serviceUnavailable, .unavailable, "the board is reloading; try again").response
        }
        let response = await answer(request, room: room, secret: secret, needs: needs, notFound: notFound, body)
        await room.endRequest()
        // After the answer: letting an idle room go waits for its last writes, the answer need not.
        Task { [registry] in await registry.releaseIfIdle(room) }
        return response
    }

    /// The answer of `withBoard` once the room is held for the request.
    private func answer(
        _ request: Request,
        room: BoardRoom,
        secret: String,
        needs: BoardRole,
        notFound: HTTPAnswer,
        _ body: (BoardRoom, String) async throws -> Response
    ) async -> Response {
        let isOperator = adminToken.map { ConstantTime.equal(secret.utf8, $0.utf8) } ?? false
        guard let role = isOperator ? .owner : await room.role(of: secret) else { return notFound.response }
        guard Self.rank(role) <= Self.rank(needs) else {
            return HTTPAnswer(.forbidden, .forbidden, "this needs the board's \(needs.rawValue) link").response
        }
        do {
            return try await body(room, secret)
        } catch let error as StoreError where error.kind == .boardNotFound {
            return notFound.response
        } catch {
            logger.error("a board request failed", metadata: ["tb.board.id": "\(room.boardID)", "tb.error": "\(error)"])
            return HTTPAnswer(.serviceUnavailable, .unavailable, "the server cannot store this now; try again later").response
        }
    }

    /// Owner 0, edit 1, view 2: a role may do what any role of a higher rank number may.
    private static func rank(_ role: BoardRole) -> Int {
        BoardRole.allCases.firstIndex(of: role)!
    }

    // MARK: Bodies

    /// The `title` of a JSON object body: nil when absent (and not `required`), trimmed, checked.
    private func readTitle(_ request: Request, required: Bool) async -> Result<String?, HTTPAnswer> {
        let contentType = request.headers[.contentType] ?? ""
        guard contentType.lowercased().hasPrefix("application/json") else {
            return .failure(HTTPAnswer(.unsupportedMediaType, .badJSON, "send the body as Content-Type: application/json"))
        }
        let body: ByteBuffer
        do {
            body = try await request.body.collect(upTo: Self.maxBodyBytes)
        } catch {
            return .failure(HTTPAnswer(.contentTooLarge, .tooLarge, "the body must be at most \(Self.maxBodyBytes) bytes"))
        }
        var title: String?
        if body.readableBytes > 0 {
            guard case .object(let fields)? = JSONValue.parse(Data(body.readableBytesView)) else {
                return .failure(HTTPAnswer(.badRequest, .badJSON, #"the body must be a JSON object, such as {"title":"Kitchen"}"#))
            }
            switch fields["title"] {
            case nil, .null?: break
            case .string(let text)?: title = text.trimmingCharacters(in: .whitespacesAndNewlines)
            case let other?: return .failure(HTTPAnswer(.badRequest, .invalidField, "title must be a string, not \(other.typeName)"))
            }
        }
        if required, title?.isEmpty ?? true {
            return .failure(HTTPAnswer(.badRequest, .invalidField, "title must not be empty"))
        }
        if let title,
            title.count > maxTitleLength || title.utf8.count > BoardLimits.maxTitleBytes
                || title.unicodeScalars.contains(where: { $0.properties.generalCategory == .control })
        {
            return .failure(
                HTTPAnswer(
                    .badRequest,
                    .invalidField,
                    "title must be at most \(maxTitleLength) characters and \(BoardLimits.maxTitleBytes) bytes, one line"
                )
            )
        }
        return .success(title)
    }

    static func json(_ status: HTTPResponse.Status, _ bytes: [UInt8]) -> Response {
        Response(
            status: status,
            headers: [.contentType: "application/json; charset=utf-8"],
            body: .init(byteBuffer: ByteBuffer(bytes: bytes))
        )
    }
}

/// An error answer: a status and the protocol's error shape.
struct HTTPAnswer: Error {
    let status: HTTPResponse.Status
    let code: ErrorCode
    let message: String

    init(_ status: HTTPResponse.Status, _ code: ErrorCode, _ message: String) {
        self.status = status
        self.code = code
        self.message = message
    }

    var response: Response {
        BoardsController.json(status, ServerMessage.error(code: code, message: message).encoded())
    }
}
