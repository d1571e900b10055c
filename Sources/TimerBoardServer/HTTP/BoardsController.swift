import BoardCore
import BoardProtocol
import BoardStore
import Foundation
import HTTPTypes
import Hummingbird
import Logging
import TimerBoardTransport

/// REST routes for boards: create; read, rename, share and delete with a link's secret; list
/// with the operator token (docs/protocol.md, "HTTP API").
struct BoardsController {
    let registry: BoardRegistry
    let maxTitleLength: Int
    /// The operator's secret, which counts as the owner's on a board's read and delete.
    let adminToken: String?
    /// Wrong operator tokens per client address, on the operator's own routes (and `/metrics`),
    /// and secrets that open nothing on a board's routes.
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
        // A request that creates nothing (a bad or unfinished body, a store that cannot write)
        // gives its token back: it must not use up the address's budget for the boards it makes.
        let title: String
        switch await readTitle(request, required: false) {
        case .success(let text): title = text ?? Self.untitled
        case .failure(let answer):
            creationLimiter.giveBack(address, now: clock.now())
            return answer.response
        }
        let info: BoardInfo
        let secrets: BoardSecrets
        do {
            (info, secrets) = try await registry.createBoard(title: title)
        } catch {
            creationLimiter.giveBack(address, now: clock.now())
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
        // Only the operator token does anything here; `withBoard` counts a token that opens
        // nothing as a guess, and compares none with the operator's once its address is out of them.
        try await withBoard(request, context, needs: .owner) { room, secret in
            guard isOperator(secret) else {
                return HTTPAnswer(.forbidden, .forbidden, "only the operator token (--admin-token) can reset a board's links").response
            }
            guard let secrets = try await room.resetLinks() else { throw BoardReloading() }
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
    /// that polls with `If-None-Match` gets `304` and no body while nothing changed. The body is
    /// the joiners' frame, shared: readers of a large board cost one encoding per revision, and
    /// a reader that does not read its answer holds no copy of its own.
    @Sendable func show(request: Request, context: TimerBoardRequestContext) async throws -> Response {
        try await withBoard(request, context, needs: .view) { room, _ in
            // Only what is durable: a crash must not take back what a reader was shown.
            guard let snapshot = await room.durableSnapshot() else {
                return HTTPAnswer(.serviceUnavailable, .unavailable, "the board cannot be read now; try again later").response
            }
            let tag = EntityTag(revision: snapshot.revision, title: snapshot.title)
            var response =
                tag.isMatched(by: request.headers[.ifNoneMatch])
                ? Response(status: .notModified)
                : Response(status: .ok, headers: [.contentType: "application/json; charset=utf-8"], body: .init(byteBuffer: snapshot.frame.payloadBuffer))
            response.headers[.eTag] = tag.value
            response.headers[.cacheControl] = "no-cache"
            return response
        }
    }

    @Sendable func rename(request: Request, context: TimerBoardRequestContext) async throws -> Response {
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

    @Sendable func links(request: Request, context: TimerBoardRequestContext) async throws -> Response {
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

    @Sendable func replaceLink(request: Request, context: TimerBoardRequestContext) async throws -> Response {
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

    @Sendable func delete(request: Request, context: TimerBoardRequestContext) async throws -> Response {
        try await withBoard(request, context, needs: .owner) { room, _ in
            try await registry.delete(room)
            return Response(status: .noContent)
        }
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
