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
    /// The operator's secret, which counts as the owner's on a board's read and delete.
    let adminToken: String?
    /// Wrong operator tokens per client address, on the operator's own routes (and `/metrics`).
    let operatorGuesses: OperatorGuesses
    /// Boards made per client address.
    let creationLimiter: AddressRateLimiter
    /// Whose forwarding headers name the client for `creationLimiter`.
    let trustedProxies: TrustedProxies
    let clock: any ServerClock
    let metrics: ServerMetrics
    /// How long a request waits for the store before it is answered 503 (`--store-timeout-seconds`).
    let storeTimeout: Duration
    let logger: Logger

    func addRoutes(to group: RouterGroup<TimerBoardRequestContext>) {
        group.post(use: create)
        group.get(use: list)
        group.get(":id", use: show)
        group.patch(":id", use: rename)
        group.delete(":id", use: delete)
        group.get(":id/links", use: links)
        group.post(":id/links/:role", use: replaceLink)
        group.post(":id/reset-links", use: resetLinks)
    }

    /// The title of a board created without one.
    static let untitled = "Untitled board"

    /// A JSON body, at most this long.
    static let maxBodyBytes = 16_384

    /// Creates a board from `{"title":"…"}` (or an empty body). A body that is not that answers
    /// 4xx with the error shape and creates nothing; a store that cannot write, or does not
    /// answer within `storeTimeout`, answers 503 and keeps nothing (`BoardRegistry.createBoard`).
    @Sendable func create(request: Request, context: TimerBoardRequestContext) async throws -> Response {
        let address = clientAddress(request, context)
        if let wait = creationLimiter.take(address, now: clock.now()) {
            metrics.refused(.boardCreationRate)
            logger.debug(
                "refusing a new board: its address made too many",
                metadata: ["tb.event": "connection.refused", "tb.refusal": "\(HTTPRefusal.boardCreationRate.rawValue)", "tb.address": "\(address)"]
            )
            let seconds = (wait + 999) / 1_000
            var answer = HTTPAnswer(.tooManyRequests, .rateLimited, "too many new boards from this address; try again in \(seconds) s").response
            answer.headers[.retryAfter] = "\(seconds)"
            return answer
        }
        let title: String
        switch await readTitle(request, required: false) {
        case .success(let text): title = text ?? Self.untitled
        case .failure(let answer): return answer.response
        }
        let info: BoardInfo
        let secrets: BoardSecrets
        do {
            (info, secrets) = try await registry.createBoard(title: title)
        } catch {
            logger.error("creating a board failed", metadata: ["tb.error": "\(error)"])
            return HTTPAnswer(.serviceUnavailable, .unavailable, "the server cannot store a new board now; try again later").response
        }
        var writer = JSONWriter()
        writer.beginObject()
        writer.field("id", info.id)
        writer.field("title", info.title)
        writer.field("createdDate", info.createdDate)
        Self.writeLinks(boardID: info.id, secrets: secrets, to: &writer)
        writer.endObject()
        return Self.secretJSON(.created, writer.bytes)
    }

    /// `url` (the owner link), `links` and `secrets` of a board's three roles: the only answers
    /// that carry an owner secret (a new board, and the operator's reset of its links).
    static func writeLinks(boardID: String, secrets: BoardSecrets, to writer: inout JSONWriter) {
        writer.field("url", BoardSecrets.link(boardID: boardID, role: .owner, secret: secrets.owner))
        writer.key("links")
        writer.beginObject()
        for role in BoardRole.allCases {
            writer.field(role.rawValue, BoardSecrets.link(boardID: boardID, role: role, secret: secrets.secret(for: role)))
        }
        writer.endObject()
        writer.key("secrets")
        writer.beginObject()
        for role in BoardRole.allCases { writer.field(role.rawValue, secrets.secret(for: role)) }
        writer.endObject()
    }

    /// The server-wide list, for the operator only. A store that does not answer in time: 503.
    @Sendable func list(request: Request, context: TimerBoardRequestContext) async throws -> Response {
        switch operatorGuesses.check(request.bearerToken, address: clientAddress(request, context), now: clock.now()) {
        case .isOperator: break
        case .notOperator: return HTTPAnswer(.forbidden, .forbidden, "listing boards needs the operator token (--admin-token)").response
        case .tooMany(let wait): return Self.tooManyGuesses(wait)
        }
        let boards: [BoardInfo]
        do {
            boards = try await registry.boards(limit: 100)
        } catch {
            logger.error("listing the boards failed", metadata: ["tb.error": "\(error)"])
            return Self.unavailable
        }
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

    /// The operator's recovery of a board (a lost or leaked owner link): three new links, in
    /// the answer only; every old link stops and every socket on the board closes (4403), on
    /// every node. The operator token only: an owner replaces the edit and view links instead.
    @Sendable func resetLinks(request: Request, context: TimerBoardRequestContext) async throws -> Response {
        // Only the operator token does anything here: any other is a guess at it.
        if case .tooMany(let wait) = operatorGuesses.check(request.bearerToken, address: clientAddress(request, context), now: clock.now()) {
            return Self.tooManyGuesses(wait)
        }
        return try await withBoard(request, context, needs: .owner) { room, secret in
            guard isOperator(secret) else {
                return HTTPAnswer(.forbidden, .forbidden, "only the operator token (--admin-token) can reset a board's links").response
            }
            guard let secrets = try await room.resetLinks() else {
                return HTTPAnswer(.serviceUnavailable, .unavailable, "the board is reloading; try again").response
            }
            var writer = JSONWriter()
            writer.beginObject()
            writer.field("id", room.boardID)
            Self.writeLinks(boardID: room.boardID, secrets: secrets, to: &writer)
            writer.endObject()
            return Self.secretJSON(.ok, writer.bytes)
        }
    }

    /// Whether `token` is the operator's (`--admin-token`), compared in constant time.
    func isOperator(_ token: String?) -> Bool {
        guard let adminToken, let token else { return false }
        return ConstantTime.equal(token.utf8, adminToken.utf8)
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
        case .success(let text): title = text ?? Self.untitled
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
            return Self.secretJSON(.ok, writer.bytes)
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
            return Self.secretJSON(.ok, writer.bytes)
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
    /// the same 404; a valid secret of a lesser role gets 403. A store that fails, or does not
    /// answer within `storeTimeout`, answers 503: the work is then cancelled, and a store call
    /// still waiting for the database gives up and changes nothing.
    func withBoard(
        _ request: Request,
        _ context: some RequestContext,
        needs: BoardRole,
        _ body: @escaping @Sendable (BoardRoom, String) async throws -> Response
    ) async throws -> Response {
        let id = try context.parameters.require("id")
        let notFound = HTTPAnswer(.notFound, .boardNotFound, "no board \(id)")
        guard let secret = request.bearerToken else { return notFound.response }
        let work = Task<Response, any Error> { await self.serve(id: id, secret: secret, needs: needs, notFound: notFound, body) }
        switch await Deadline.wait(for: work, within: storeTimeout) {
        case .finished(let result):
            return (try? result.get()) ?? Self.unavailable
        case .late:
            logger.error(
                "a board request found no answer from the store in time",
                metadata: ["tb.board.id": "\(id)", "tb.error": "no answer within \(storeTimeout)"]
            )
            return Self.unavailable
        }
    }

    private static var unavailable: Response {
        HTTPAnswer(.serviceUnavailable, .unavailable, "the server cannot reach its store now; try again later").response
    }

    /// `withBoard`'s work, on a task of its own.
    private func serve(
        id: String,
        secret: String,
        needs: BoardRole,
        notFound: HTTPAnswer,
        _ body: @Sendable (BoardRoom, String) async throws -> Response
    ) async -> Response {
        var inUse: BoardRoom?
        let secretHash = BoardSecrets.hash(secret)
        do {
            // A room can close between the lookup and its use (it went idle, as it does between
            // the requests of a busy caller): load it again, for as long as `storeTimeout` allows.
            while inUse == nil {
                try Task.checkCancellation()
                // The operator token is no link: only a link's secret is checked before loading.
                let lookup = isOperator(secret) ? try await registry.room(for: id) : try await registry.room(for: id, secretHash: secretHash)
                guard let found = lookup else { return notFound.response }
                if await found.beginRequest() { inUse = found }
            }
        } catch {
            logger.error("loading a board failed", metadata: ["tb.board.id": "\(id)", "tb.error": "\(error)"])
            return HTTPAnswer(.serviceUnavailable, .unavailable, "the board cannot be read now; try again later").response
        }
        guard let room = inUse else { return Self.unavailable }
        let response = await answer(room: room, secret: secret, needs: needs, notFound: notFound, body)
        await room.endRequest()
        // After the answer: letting an idle room go waits for its last writes, the answer need not.
        Task { [registry] in await registry.releaseIfIdle(room) }
        return response
    }

    /// The answer of `withBoard` once the room is held for the request.
    private func answer(
        room: BoardRoom,
        secret: String,
        needs: BoardRole,
        notFound: HTTPAnswer,
        _ body: @Sendable (BoardRoom, String) async throws -> Response
    ) async -> Response {
        guard let role = isOperator(secret) ? .owner : await room.role(of: secret) else { return notFound.response }
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

    /// An answer that carries a secret: `Cache-Control: no-store`, so no cache keeps a copy.
    static func secretJSON(_ status: HTTPResponse.Status, _ bytes: [UInt8]) -> Response {
        var response = json(status, bytes)
        response.headers[.cacheControl] = "no-store"
        return response
    }

    static func json(_ status: HTTPResponse.Status, _ bytes: [UInt8]) -> Response {
        Response(
            status: status,
            headers: [.contentType: "application/json; charset=utf-8"],
            body: .init(byteBuffer: ByteBuffer(bytes: bytes))
        )
    }
}
