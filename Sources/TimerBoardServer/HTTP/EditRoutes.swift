import BoardProtocol
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

/// `POST /api/boards/ID/edits`: an edit over HTTP, for what holds no socket (a Stream Deck
/// button, a cron job, a CI step). The body is a WebSocket `edit` (`{"opId":…,"ops":[…]}`), the
/// answer the `ack` or `reject` a socket would get, once durable. A resend of an opId with the
/// same link gets the first answer and applies nothing twice.
struct EditRoutes {
    let boards: BoardsController
    let limits: ProtocolLimits
    /// HTTP edits per client address, at the rate and burst one socket may edit.
    let editLimiter: AddressRateLimiter
    /// The address's and the board's budgets, shared with the board sockets.
    let editBudgets: SharedEditBudgets
    let trustedProxies: TrustedProxies
    let clock: any ServerClock

    func addRoutes(to group: RouterGroup<TimerBoardRequestContext>) {
        group.post(":id/edits", use: edit)
    }

    @Sendable func edit(request: Request, context: TimerBoardRequestContext) async throws -> Response {
        guard (request.headers[.contentType] ?? "").lowercased().hasPrefix("application/json") else {
            return HTTPAnswer(.unsupportedMediaType, .badJSON, "send the body as Content-Type: application/json").response
        }
        let body: ByteBuffer
        do {
            body = try await request.body.collect(upTo: limits.maxMessageBytes)
        } catch {
            return HTTPAnswer(.contentTooLarge, .tooLarge, "the body must be at most \(limits.maxMessageBytes) bytes").response
        }
        let edit: ClientMessage.Edit
        do {
            edit = try ClientMessage.decodeEdit(Data(body.readableBytesView), limits: limits)
        } catch {
            guard let opID = error.opID else { return HTTPAnswer(Self.status(for: error.code), error.code, error.message).response }
            return Self.response(for: .reject(.init(opID: opID, code: error.code, message: error.message, opIndex: error.opIndex)))
        }
        let address = ClientAddress.key(
            peer: context.remoteAddress,
            forwardedFor: request.headers[values: .xForwardedFor],
            realIP: request.headers[.xRealIP],
            trusted: trustedProxies
        )
        if let wait = editLimiter.take(address, now: clock.now()) {
            let message = "too many edits from this address; nothing changed, send it again in \(wait) ms"
            return Self.response(for: .reject(.init(opID: edit.opID, code: .rateLimited, message: message, retryAfterMs: wait)))
        }
        // A view link's edit is refused as a socket's is: its `reject`, with the opId.
        let forbidden = Self.response(for: .reject(.init(opID: edit.opID, code: .forbidden, message: "this link can only view the board")))
        return try await boards.withBoard(request, context, needs: .edit, forbidden: forbidden) { room, secret in
            // Only once the secret is known good: without it, nobody spends a board's budget.
            if let wait = editBudgets.takeEdit(address: address, board: room.boardID, now: clock.now()) {
                editLimiter.giveBack(address, now: clock.now())  // a refused edit costs nothing
                let message = "too many edits from this address or to this board; nothing changed, send it again in \(wait) ms"
                return Self.response(for: .reject(.init(opID: edit.opID, code: .rateLimited, message: message, retryAfterMs: wait)))
            }
            let author = EditAuthor(clientID: BoardSecrets.httpClientID(secret: secret, boardID: room.boardID), role: .edit, name: "HTTP")
            // A room that closed first stored nothing: `withBoard` sends the edit to the board again.
            guard let outcome = await room.editOverHTTP(edit, by: author) else { throw BoardReloading() }
            // Charged by its size as a socket's edit is: one request that starts a section of
            // thousands of timers must not cost what a rename costs.
            editLimiter.charge(address, Double(EditBudget.extraTokens(forChanges: outcome.changes)), now: clock.now())
            return Self.response(for: outcome.answer)
        }
    }

    /// `200` with the ack, or the reject with the status its code means over HTTP.
    static func response(for answer: ServerMessage) -> Response {
        var response: Response
        switch answer {
        case .reject(let reject):
            response = BoardsController.json(status(for: reject.code), answer.encoded())
            if let wait = reject.retryAfterMs { response.headers[.retryAfter] = "\((wait + 999) / 1_000)" }
        default:
            response = BoardsController.json(.ok, answer.encoded())
        }
        return response
    }

    /// What an error code means over HTTP (docs/protocol.md, "HTTP API").
    static func status(for code: ErrorCode) -> HTTPResponse.Status {
        switch code {
        case .forbidden: .forbidden
        case .boardNotFound: .notFound
        case .notFound, .duplicateID, .invalidState, .limitExceeded: .conflict
        case .tooLarge: .contentTooLarge
        case .rateLimited: .tooManyRequests
        case .unavailable, .internal, .tooManyConnections: .serviceUnavailable
        case .badJSON, .unknownType, .badMessage, .unknownOp, .invalidField, .tooManyOps, .versionMismatch, .helloRequired, .notJoined:
            .badRequest
        }
    }
}
