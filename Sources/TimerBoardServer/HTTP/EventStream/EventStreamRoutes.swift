import BoardProtocol
import Foundation
import HTTPTypes
import Hummingbird
import Logging
import ServiceLifecycle
import NIOCore
import TimerBoardTransport

/// `GET /api/boards/ID/events`: a board followed over plain HTTP (`curl -N`, `EventSource`), as a
/// socket follows it: a `snapshot` event (or, from `Last-Event-ID` still in the resume window, a
/// `resume` and the missed `changes`), then every changeset as an event whose id is its revision.
/// The stream is a room subscriber like a socket (an `Outbound` whose writer makes events), so it
/// keeps the same order, durability and slow-client rules, and takes a slot of the same caps.
struct EventStreamRoutes {
    let boards: BoardsController
    let registry: BoardRegistry
    /// The connection caps: a stream from a trusted proxy counts against its client's address.
    let connections: ConnectionLimiter
    let connectionCounter: ConnectionCounter
    let tickets: EventStreamTickets
    let queueLimit: Int
    /// Bytes a stream's queue holds before it is dropped as too slow (`--outbound-queue-mib`).
    let queueBytes: Int
    let keepAliveInterval: Duration
    let clock: any ServerClock
    let logger: Logger

    func addRoutes(to group: RouterGroup<TimerBoardRequestContext>) {
        group.get(":id/events", use: stream)
        group.post(":id/event-tickets", use: ticket)
    }

    /// A one-time ticket to open the stream with `?ticket=` (for `EventSource`, which sends no
    /// `Authorization` header).
    @Sendable func ticket(request: Request, context: TimerBoardRequestContext) async throws -> Response {
        return try await boards.withBoard(request, context, needs: .view, refusingOperator: Self.operatorRefused) { room, secret in
            guard let ticket = tickets.issue(boardID: room.boardID, secretHash: BoardSecrets.hash(secret), now: clock.now()) else {
                return HTTPAnswer(.serviceUnavailable, .unavailable, "too many tickets outstanding; try again in a minute").response
            }
            var writer = JSONWriter()
            writer.beginObject()
            writer.field("ticket", ticket)
            writer.field("expiresInMs", tickets.lifetime)
            writer.field("url", "/api/boards/\(room.boardID)/events?ticket=\(ticket)")
            writer.endObject()
            var response = BoardsController.json(.created, writer.bytes)
            response.headers[.cacheControl] = "no-store"
            return response
        }
    }

    @Sendable func stream(request: Request, context: TimerBoardRequestContext) async throws -> Response {
        let id = try context.parameters.require("id")
        let notFound = HTTPAnswer(.notFound, .boardNotFound, "no board \(id)")
        let query = request.uri.queryParameters
        // A script's `?since` that is no revision is its mistake, told before anything is spent
        // (a ticket, a guess). A `Last-Event-ID` that is none came from elsewhere (a proxy): the
        // stream starts with a snapshot, as an `EventSource` would rather than fail for good.
        if let since = query["since"], Int64(since).map({ $0 < 0 }) ?? true {
            return HTTPAnswer(.badRequest, .invalidField, "since must be a revision: a whole number, 0 or more").response
        }
        let address = boards.clientAddress(request, context)
        let secretHash: [UInt8]
        // A bearer secret that opens nothing is a guess, at a link or at the operator token.
        var guess: OperatorGuesses.Verdict?
        if let secret = request.bearerToken {
            let verdict = boards.operatorGuesses.checkOnBoardRoute(secret, address: address, now: clock.now())
            if verdict == .isOperator { return Self.operatorRefused.response }
            guess = verdict
            secretHash = BoardSecrets.hash(secret)
        } else if let ticket = query["ticket"], let grant = tickets.redeem(String(ticket), boardID: id, now: clock.now()) {
            secretHash = grant.secretHash
        } else {
            return notFound.response
        }
        let since = (request.headers[.lastEventID] ?? query["since"].map(String.init)).flatMap { Int64($0) }.flatMap { $0 >= 0 ? $0 : nil }
        // The connection took its slot when it was accepted; one from a trusted proxy counts
        // against the client it names too, as a WebSocket does (`ConnectionGuard`).
        let forwarded = address != ClientAddress.key(context.remoteAddress)
        if forwarded, !connections.count(from: address) {
            if let guess { boards.operatorGuesses.noGuess(after: guess, address: address, now: clock.now()) }
            var refused = HTTPAnswer(.serviceUnavailable, .tooManyConnections, "too many connections from this address; try again later").response
            refused.headers[.retryAfter] = "5"
            return refused
        }
        let release = { @Sendable in if forwarded { connections.uncount(from: address) } }
        let outbound = Outbound(id: connectionCounter.next(), capacity: queueLimit, byteLimit: queueBytes, eventLoop: context.eventLoop)
        let writer = EventStreamWriter(withPresence: query["presence"] == "true") { [weak outbound] in outbound?.setWritable(false) }
        try await context.eventLoop.submit {
            outbound.attach(writer: writer)
        }.get()
        let room: BoardRoom
        switch await join(id, outbound: outbound, since: since, secretHash: secretHash) {
        case .joined(let joined):
            if let guess { boards.operatorGuesses.noGuess(after: guess, address: address, now: clock.now()) }
            room = joined
        case .refused(let answer):
            if let guess { boards.operatorGuesses.noGuess(after: guess, address: address, now: clock.now()) }
            release()
            outbound.finish()
            return answer.response
        case .noSuchBoard:
            release()
            outbound.finish()
            // A guess: the one `checkOnBoardRoute` took stays taken.
            if case .tooMany(let wait) = guess { return BoardsController.tooManyWrongSecrets(wait) }
            return notFound.response
        }
        context.closeFuture.whenComplete { _ in writer.close(code: 1001, reason: "the connection closed") }
        let cleanUp = { @Sendable in
            await room.leave(outbound)
            // An EventSource reconnects within seconds: it finds the board still loaded.
            await registry.releaseAfterLinger(room)
            release()
            outbound.finish()
        }
        var headers = HTTPFields()
        headers[.contentType] = "text/event-stream; charset=utf-8"
        headers[.cacheControl] = "no-store"
        headers[.xAccelBuffering] = "no"
        return Response(status: .ok, headers: headers, body: ResponseBody { [keepAliveInterval] body in
            let keepAlive = Task {
                while !Task.isCancelled {
                    try? await Task.sleep(for: keepAliveInterval)
                    writer.keepAlive()
                }
            }
            // The server stopping ends the stream at once (the client reconnects elsewhere), as
            // it sends sockets a close; a client that went away closes the connection
            // (`ConnectionGuard`), or failing that is noticed at the next write.
            await withGracefulShutdownHandler {
                do {
                    for await chunks in writer.chunks {
                        try await body.write(contentsOf: chunks)
                        if writer.wrote() { outbound.eventLoop.execute { outbound.setWritable(true) } }
                    }
                } catch {
                    // The client went away: what follows cleans up.
                }
            } onGracefulShutdown: {
                writer.close(code: 1001, reason: "the server is stopping; reconnect with Last-Event-ID")
            }
            keepAlive.cancel()
            await cleanUp()
            try? await body.finish(nil)
        })
    }

    /// A stream joins the board as a link does; the operator token is no link (docs/protocol.md,
    /// "HTTP API": the one rule for the operator token).
    private static let operatorRefused = HTTPAnswer(.forbidden, .forbidden, "an event stream needs a link's secret, not the operator token")

    private enum Joined {
        case joined(BoardRoom)
        /// No board that the secret opens.
        case noSuchBoard
        case refused(HTTPAnswer)
    }

    /// Subscribes the stream to the board's room; a room that closes meanwhile is asked for again.
    private func join(_ id: String, outbound: Outbound, since: Int64?, secretHash: [UInt8]) async -> Joined {
        do {
            for _ in 0..<3 {
                guard let room = try await registry.room(for: id, secretHash: secretHash) else { return .noSuchBoard }
                let clientID = "events-\(outbound.id)-\(UInt64.random(in: 0...UInt64.max))"
                switch await room.join(outbound, since: since, secretHash: secretHash, clientID: clientID, name: "Event stream") {
                case .joined: return .joined(room)
                case .denied:
                    await registry.releaseIfIdle(room)
                    return .noSuchBoard
                case .closed: continue
                }
            }
        } catch {
            logger.error("loading a board failed", metadata: ["tb.board.id": "\(id)", "tb.error": "\(error)"])
        }
        return .refused(HTTPAnswer(.serviceUnavailable, .unavailable, "the board cannot be read now; try again later"))
    }
}

extension HTTPField.Name {
    /// What `EventSource` sends when it reconnects: the id of the last event it received.
    static let lastEventID = Self("Last-Event-ID")!
    /// Tells nginx not to buffer the stream.
    static let xAccelBuffering = Self("X-Accel-Buffering")!
}
