import BoardProtocol
import BoardStore
import HTTPTypes
import Hummingbird
import Logging

/// A board route's body found its room closed under it (the board reloads): nothing was done;
/// `withBoard` looks the board up again.
struct BoardReloading: Error {}

extension BoardsController {
    /// Runs `body` with the board's room when the request's Bearer secret gives at least `needs`
    /// (the operator token counts as the owner's, unless the route passes `refusingOperator`,
    /// its answer to the operator token). No board, no secret and a wrong secret get the same
    /// 404; a valid secret of a lesser role gets 403. A store that fails, or does not answer
    /// within `storeTimeout`, answers 503: the work is then cancelled, and a store call still
    /// waiting for the database gives up and changes nothing.
    ///
    /// A secret that is neither a link of the board nor the operator token is a guess
    /// (`OperatorGuesses.checkOnBoardRoute`); an address out of guesses has its token compared with links
    /// only, and gets 429 where it would get the 404.
    ///
    /// `forbidden` is the answer to a secret of a lesser role, when the route's refusals have
    /// a shape of their own (an edit's `reject`).
    func withBoard(
        _ request: Request,
        _ context: TimerBoardRequestContext,
        needs: BoardRole,
        refusingOperator: HTTPAnswer? = nil,
        forbidden: Response? = nil,
        _ body: @escaping @Sendable (BoardRoom, String) async throws -> Response
    ) async throws -> Response {
        let id = try context.parameters.require("id")
        let notFound = HTTPAnswer(.notFound, .boardNotFound, "no board \(id)")
        guard let secret = request.bearerToken else { return notFound.response }
        let address = clientAddress(request, context)
        let verdict = operatorGuesses.checkOnBoardRoute(secret, address: address, now: clock.now())
        if verdict == .isOperator, let refusingOperator { return refusingOperator.response }
        let isOperator = verdict == .isOperator
        let work = Task<BoardRouteOutcome, any Error> {
            await self.serve(id: id, secret: secret, isOperator: isOperator, needs: needs, notFound: notFound, forbidden: forbidden, body)
        }
        let noGuess = { operatorGuesses.noGuess(after: verdict, address: address, now: clock.now()) }
        switch await Deadline.wait(for: work, within: storeTimeout) {
        case .finished(.success(.answered(let response))):
            noGuess()
            return response
        case .finished(.success(.noSuchBoard)):
            // A guess: the one `checkOnBoardRoute` took stays taken.
            if case .tooMany(let wait) = verdict { return Self.tooManyWrongSecrets(wait) }
            return notFound.response
        case .finished(.failure):
            noGuess()
            return Self.unavailable
        case .late:
            noGuess()
            logger.error(
                "a board request found no answer from the store in time",
                metadata: ["tb.board.id": "\(id)", "tb.error": "no answer within \(storeTimeout)"]
            )
            return Self.unavailable
        }
    }

    /// What `serve` came to: an answer, or no board that the secret opens (which `withBoard`
    /// answers, and counts as a guess).
    private enum BoardRouteOutcome: Sendable {
        case answered(Response)
        case noSuchBoard
    }

    /// The store did not answer (in time): the same 503 for every board route.
    static var unavailable: Response {
        HTTPAnswer(.serviceUnavailable, .unavailable, "the server cannot reach its store now; try again later").response
    }

    /// `withBoard`'s work, on a task of its own. A room that closes under the request (it
    /// reloads: on a cluster, the other node wrote first) is looked up again, up to three times,
    /// so a caller is not told to retry what the server can retry itself.
    private func serve(
        id: String,
        secret: String,
        isOperator: Bool,
        needs: BoardRole,
        notFound: HTTPAnswer,
        forbidden: Response?,
        _ body: @Sendable (BoardRoom, String) async throws -> Response
    ) async -> BoardRouteOutcome {
        let secretHash = BoardSecrets.hash(secret)
        for _ in 0..<3 {
            var inUse: BoardRoom?
            do {
                // A room can close between the lookup and its use (it went idle, as it does between
                // the requests of a busy caller): load it again, for as long as `storeTimeout` allows.
                while inUse == nil {
                    try Task.checkCancellation()
                    // The operator token is no link: only a link's secret is checked before loading.
                    let lookup = isOperator ? try await registry.room(for: id) : try await registry.room(for: id, secretHash: secretHash)
                    guard let found = lookup else { return .noSuchBoard }
                    if await found.beginRequest() { inUse = found }
                }
            } catch {
                logger.error("loading a board failed", metadata: ["tb.board.id": "\(id)", "tb.error": "\(error)"])
                return .answered(HTTPAnswer(.serviceUnavailable, .unavailable, "the board cannot be read now; try again later").response)
            }
            guard let room = inUse else { return .answered(Self.unavailable) }
            let response = await answer(
                room: room, secret: secret, isOperator: isOperator, needs: needs, notFound: notFound, forbidden: forbidden, body
            )
            await room.endRequest()
            // After the answer: letting an idle room go waits for its last writes, the answer need not.
            Task { [registry] in await registry.releaseAfterLinger(room) }
            if let response { return response }
        }
        return .answered(HTTPAnswer(.serviceUnavailable, .unavailable, "the board is reloading; nothing was done, try again").response)
    }

    /// The answer of `withBoard` once the room is held for the request; nil when the room closed
    /// under it (`BoardReloading`), to be asked again.
    private func answer(
        room: BoardRoom,
        secret: String,
        isOperator: Bool,
        needs: BoardRole,
        notFound: HTTPAnswer,
        forbidden: Response?,
        _ body: @Sendable (BoardRoom, String) async throws -> Response
    ) async -> BoardRouteOutcome? {
        guard let role = isOperator ? .owner : await room.role(of: secret) else { return .noSuchBoard }
        guard Self.rank(role) <= Self.rank(needs) else {
            return .answered(forbidden ?? HTTPAnswer(.forbidden, .forbidden, "this needs the board's \(needs.rawValue) link").response)
        }
        do {
            return .answered(try await body(room, secret))
        } catch is BoardReloading {
            return nil
        } catch let error as StoreError where error.kind == .boardNotFound {
            // Deleted while the request ran: the secret was right, so no guess.
            return .answered(notFound.response)
        } catch {
            logger.error("a board request failed", metadata: ["tb.board.id": "\(room.boardID)", "tb.error": "\(error)"])
            return .answered(HTTPAnswer(.serviceUnavailable, .unavailable, "the server cannot store this now; try again later").response)
        }
    }

    /// Owner 0, edit 1, view 2: a role may do what any role of a higher rank number may.
    private static func rank(_ role: BoardRole) -> Int {
        BoardRole.allCases.firstIndex(of: role)!
    }
}
