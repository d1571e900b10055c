import BoardCore
import BoardProtocol
import Foundation
import Logging
import NIOCore
import NIOWebSocket
import Synchronization
import TimerBoardTransport

/// One WebSocket connection's conversation: receives its messages (into its `SessionInbox`)
/// and answers them in order, a batch at a time. It holds no task while the connection idles.
/// Everything the connection is sent goes through its `Outbound` queue, straight into the channel.
final class ClientSession: WebSocketMessageReceiver, Sendable {
    /// Shared by every session, by reference: an idle connection holds one pointer to them,
    /// not copies of the configuration, clock and logger (docs/performance.md).
    private let services: SessionServices
    private var configuration: ServerConfiguration { services.configuration }
    private var metrics: ServerMetrics { services.metrics }
    private var registry: BoardRegistry { services.registry }
    private var clock: any ServerClock { services.clock }
    let outbound: Outbound
    /// The client's address (`ClientAddress`), whose edit budget this connection shares.
    private let address: String
    /// The connection's place under the connection caps, given back when it closes.
    private let slot: ConnectionSlot?
    /// The messages received and not yet answered.
    private let inbox = SessionInbox()
    /// What the connection has said so far; only the inbox's one task at a time touches it.
    private let state: Mutex<State>

    /// What the connection has said so far.
    private struct State {
        var clientID: String?
        var name = "Guest"
        var room: BoardRoom?
        /// Edits this connection may still send: one token each, more for an edit that turned
        /// into many changes (starting a section of thousands of timers).
        var editBudget: EditBudget
        /// Closes the connection unless `hello` comes first (`helloTimeout`).
        var helloDeadline: Scheduled<Void>?
    }

    /// The reason of the 1008 close a connection gets when it sends no `hello` in time.
    static let noHelloReason = "no hello in time"

    /// A session for an upgraded connection; on the connection's event loop, before its
    /// handlers are installed.
    init(outbound: Outbound, channel: any Channel, address: String, slot: ConnectionSlot?, services: SessionServices) {
        self.address = address
        self.slot = slot
        self.services = services
        self.outbound = outbound
        let configuration = services.configuration
        state = Mutex(
            State(
                editBudget: EditBudget(editsPerSecond: configuration.editsPerSecond, burst: configuration.editBurst, now: services.clock.now()),
                helloDeadline: Self.scheduleHelloDeadline(on: channel, outbound: outbound, timeout: configuration.helloTimeout, logger: services.logger)
            )
        )
    }

    /// The logger, with the connection's id: built when something is logged, so an idle
    /// connection holds no metadata of its own.
    private var logger: Logger {
        var logger = services.logger
        logger[metadataKey: "tb.connection.id"] = .stringConvertible(outbound.id)
        return logger
    }

    /// A timer on the connection's event loop: closes with 1008 through the queue, as any
    /// other close (the connection cuts the socket if the peer does not answer that close).
    private static func scheduleHelloDeadline(on channel: any Channel, outbound: Outbound, timeout: Duration, logger: Logger) -> Scheduled<Void> {
        channel.eventLoop.scheduleTask(in: TimeAmount(timeout)) {
            logger.notice("closing a connection that sent no hello in time", metadata: ["tb.connection.id": "\(outbound.id)"])
            outbound.disconnect(.policyViolation, reason: Self.noHelloReason)
        }
    }

    // MARK: Receiving

    /// On the connection's event loop.
    func received(_ message: InboundMessage) -> Bool {
        take(.message(message))
    }

    /// On the connection's event loop.
    func connectionClosed() {
        services.heartbeat.unregister(outbound)
        slot?.giveBack()
        take(.closed)
    }

    @discardableResult
    private func take(_ event: SessionInbox.Event) -> Bool {
        let (startTask, keepReading) = inbox.add(event)
        if startTask {
            Task { await self.answerWhatWaits() }
        }
        return keepReading
    }

    /// Answers the inbox's events until none wait; the only task that answers at a time.
    private func answerWhatWaits() async {
        while true {
            let (events, resumeReading) = inbox.takeBatch()
            if resumeReading { outbound.resumeReading() }
            if events.isEmpty { return }
            await answer(events)
        }
    }

    /// Answers what the inbox held, in order.
    private func answer(_ events: [SessionInbox.Event]) async {
        var state = self.state.withLock { $0 }
        defer { self.state.withLock { $0 = state } }
        for event in events {
            switch event {
            case .message(let message):
                // Not while the client's answers pile up unsent: meanwhile the inbox fills and
                // reading stops, and TCP holds the client back.
                await outbound.untilRoomToAnswer()
                await handle(message, state: &state)
            case .closed:
                state.helloDeadline?.cancel()
                state.helloDeadline = nil
                await leaveBoard(&state, answeringFirst: false)
            }
        }
    }

    /// One join from the address's budget: nil, or the milliseconds to wait.
    private func takeFromAddress() -> Int64? {
        services.editBudgets.takeJoin(address: address, now: clock.now())
    }

    // MARK: Messages

    private func handle(_ message: InboundMessage, state: inout State) async {
        let data: Data
        switch message {
        case .text(let text): data = text
        case .binary:
            return await send(.error(code: .badJSON, message: "send JSON in text frames, not binary ones"), state: state)
        case .oversized(let byteCount):
            let limit = configuration.limits.maxMessageBytes
            return await send(.error(code: .tooLarge, message: "the message is \(byteCount) bytes; the limit is \(limit)"), state: state)
        }
        do {
            let request = try ClientMessage.decode(data, limits: configuration.limits)
            try await handle(request, state: &state)
        } catch let error as ProtocolError {
            if let opID = error.opID {
                metrics.editRejected(error.code)
                await send(.reject(.init(opID: opID, code: error.code, message: error.message, opIndex: error.opIndex)), state: state)
            } else {
                await send(.error(code: error.code, message: error.message), state: state)
            }
        } catch {
            var metadata: Logger.Metadata = ["tb.error": "\(error)"]
            if let room = state.room { metadata["tb.board.id"] = "\(room.boardID)" }
            logger.error("request failed", metadata: metadata)
            await send(.error(code: .internal, message: "the server failed to handle the message"), state: state)
        }
    }

    private func handle(_ request: ClientMessage, state: inout State) async throws {
        if case .hello(let hello) = request {
            // Once: edits, undo and presence already go by the first one's client id and name.
            guard state.clientID == nil else {
                throw ProtocolError(.badMessage, "this socket already said hello; open a new socket to be another client or name")
            }
            guard hello.protocolVersion == protocolVersion else {
                throw ProtocolError(.versionMismatch, "this server speaks protocol \(protocolVersion), not \(hello.protocolVersion)")
            }
            state.helloDeadline?.cancel()
            state.helloDeadline = nil
            state.clientID = hello.clientID
            state.name = hello.name ?? "Guest"
            return await send(.welcome(serverTime: clock.now(), limits: configuration.limits), state: state)
        }
        guard let clientID = state.clientID else {
            var error = ProtocolError(.helloRequired, "send hello first")
            if case .edit(let edit) = request { error.opID = edit.opID }
            throw error
        }
        switch request {
        case .hello: break
        case .join(let join):
            if let wait = state.editBudget.admitJoin(now: clock.now(), shared: takeFromAddress) {
                let message = "too many joins and edits; nothing changed, join again in \(wait) ms"
                return await send(.error(code: .rateLimited, message: message, retryAfterMs: wait), state: state)
            }
            try await joinBoard(join, clientID: clientID, state: &state)
        case .edit(let edit):
            guard let room = state.room else { throw ProtocolError(.notJoined, "join a board first", opID: edit.opID) }
            let shared = { self.services.editBudgets.takeEdit(address: self.address, board: room.boardID, now: self.clock.now()) }
            if let wait = state.editBudget.admit(opID: edit.opID, now: clock.now(), shared: shared) {
                var message = "more edits a second than this connection (\(configuration.editsPerSecond)), its address (\(configuration.addressEditsPerSecond)) or this board (\(configuration.boardEditsPerSecond)) may send; nothing changed, send it again in \(wait) ms"
                if let first = state.editBudget.heldBefore(edit.opID, now: clock.now()) {
                    message = "edit \(first) was refused first and must land before this one: send it again first; nothing changed, send this one again after it, or in \(wait) ms"
                }
                return await room.refuse(.init(opID: edit.opID, code: .rateLimited, message: message, retryAfterMs: wait), to: outbound)
            }
            let changed = await room.edit(edit, from: outbound)
            state.editBudget.charge(changes: changed, now: clock.now())
        case .ping(let t):
            // Read as late as the session can; behind held acks it waits for their writes.
            await send(.pong(t: t, serverTime: clock.now()), state: state)
        case .leave:
            guard state.room != nil else { throw ProtocolError(.notJoined, "not on a board") }
            await leaveBoard(&state)
        case .presence(let editing, let clockError):
            guard let room = state.room else { throw ProtocolError(.notJoined, "join a board first") }
            guard await room.setPresence(editing: editing, clockError: clockError, by: outbound) else {
                throw ProtocolError(.forbidden, "this link can only view the board; it shows no editing, only its clockError")
            }
        }
    }

    /// Moves the connection to another board (or the same one, afresh). A join naming no board,
    /// or with a secret that is not the board's, leaves the connection where it was and gets the
    /// same answer either way; one that meets the board reloading three times in a row has left
    /// the old board and is on none (the client is told `internal`, and joins again).
    private func joinBoard(_ join: ClientMessage.Join, clientID: String, state: inout State) async throws {
        let noSuchBoard = ProtocolError(.boardNotFound, "no board \(join.board)")
        let secretHash = BoardSecrets.hash(join.secret)
        // A room can close between lookup and join (it went idle); the registry then loads anew.
        for _ in 0..<3 {
            guard let room = try await registry.room(for: join.board, secretHash: secretHash) else { throw noSuchBoard }
            // Checked before leaving, so a wrong secret leaves the connection where it was.
            guard await room.role(ofHash: secretHash) != nil else {
                await registry.releaseIfIdle(room)
                throw noSuchBoard
            }
            await leaveBoard(&state)
            switch await room.join(outbound, since: join.since, secretHash: secretHash, clientID: clientID, name: state.name) {
            case .joined:
                state.room = room
                return
            case .denied:
                // The link was replaced between the check and the join.
                await registry.releaseIfIdle(room)
                throw noSuchBoard
            case .closed:
                continue
            }
        }
        throw ProtocolError(.internal, "the board is reloading; join again")
    }

    /// Leaves the board. A `leave` or a move to another board first lets the answers the board
    /// holds for earlier edits go out (it waits for their store write, then for the board's event
    /// loop to queue them), so none is swallowed or overtaken; a closed connection has no one to
    /// answer.
    private func leaveBoard(_ state: inout State, answeringFirst: Bool = true) async {
        guard let room = state.room else { return }
        if answeringFirst, outbound.holdsAnswers {
            if await room.waitUntilDurable() { await outbound.untilNoAnswerHeld() }
        }
        state.room = nil
        await room.leave(outbound)
        await registry.releaseIfIdle(room)
    }

    /// Answers the client: behind the answers its board still holds for earlier messages (acks
    /// waiting for their edits to be durable), so every answer leaves in the order of the
    /// messages; straight into the queue when the board holds none, with no hop.
    private func send(_ message: ServerMessage, state: State) async {
        let frame = OutboundFrame(message)
        if let room = state.room, outbound.holdsAnswers {
            await room.answer(frame, to: outbound)
        } else {
            outbound.send(frame)
        }
    }
}
