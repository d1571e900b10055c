import BoardCore
import BoardProtocol
import Foundation
import HummingbirdWebSocket
import Logging
import NIOCore
import NIOWebSocket
import TimerBoardTransport

/// One WebSocket connection: reads client messages in order and answers them. Everything the
/// connection is sent goes through its `Outbound` queue, straight into the channel.
struct ClientSession {
    let registry: BoardRegistry
    let heartbeat: Heartbeat
    /// Shared by every session, by reference: a copy of the whole configuration per session sat
    /// in the frame each idle connection's task keeps (measured, docs/performance.md).
    private let settings: SharedConfiguration
    private var configuration: ServerConfiguration { settings.value }
    let clock: any ServerClock
    let logger: Logger
    let outbound: Outbound
    let channel: any Channel

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

    init(
        connectionID: Int,
        channel: any Channel,
        acceptsDeflate: Bool,
        registry: BoardRegistry,
        heartbeat: Heartbeat,
        configuration: SharedConfiguration,
        clock: any ServerClock,
        logger: Logger
    ) {
        self.registry = registry
        self.heartbeat = heartbeat
        settings = configuration
        self.clock = clock
        var logger = logger
        logger[metadataKey: "tb.connection.id"] = .stringConvertible(connectionID)
        self.logger = logger
        self.channel = channel
        outbound = Outbound(
            id: connectionID,
            capacity: configuration.value.outboundQueueLimit,
            acceptsDeflate: acceptsDeflate,
            eventLoop: channel.eventLoop
        )
    }

    /// Runs until the client closes the connection or falls too far behind.
    func run(inbound: WebSocketInboundStream, writer: WebSocketOutboundWriter) async throws {
        // When the queue overflows or the board drops everyone, the close goes through
        // hummingbird's writer, so its closing handshake stays in step. Rare, so a task of its
        // own then, rather than one waiting beside every connection.
        try await outbound.attach(to: channel) { [logger] code, reason in
            logger.notice("closing the connection", metadata: ["tb.reason": "\(reason)"])
            Task { try? await writer.close(code, reason: reason) }
        }
        heartbeat.register(outbound)
        defer { heartbeat.unregister(outbound) }
        var state = State(
            editBudget: EditBudget(editsPerSecond: configuration.editsPerSecond, burst: configuration.editBurst, now: clock.now())
        )
        state.helloDeadline = scheduleHelloDeadline()
        do {
            for try await message in InboundMessages(frames: inbound, maxBytes: configuration.maxFrameBytes) {
                await handle(message, state: &state)
            }
        } catch {
            logger.debug("connection ended", metadata: ["tb.error": "\(error)"])
        }
        state.helloDeadline?.cancel()
        await leaveBoard(&state)
        outbound.finish()
    }

    /// A timer on the connection's event loop, not a task: `run` must not wait on anything more
    /// while the connection idles (each await kept in its frame costs every idle connection
    /// memory, docs/performance.md). It closes with 1008 through the queue, as any other close,
    /// and cuts the socket if the peer has not answered that close one more `helloTimeout` later.
    private func scheduleHelloDeadline() -> Scheduled<Void> {
        let timeout = TimeAmount(configuration.helloTimeout)
        return channel.eventLoop.scheduleTask(in: timeout) { [outbound, channel, logger] in
            logger.notice("closing a connection that sent no hello in time")
            outbound.disconnect(.policyViolation, reason: Self.noHelloReason)
            channel.eventLoop.scheduleTask(in: timeout) { channel.close(promise: nil) }
        }
    }

    // MARK: Messages

    private func handle(_ message: InboundMessage, state: inout State) async {
        let data: Data
        switch message {
        case .text(let text): data = text
        case .binary:
            return send(.error(code: .badJSON, message: "send JSON in text frames, not binary ones"))
        case .fragmentationError(let reason):
            // No await: an awaited close in `run` made every idle connection's waiting frame
            // ~2.4 KB larger (measured); the queue's close does it on a task of its own.
            logger.notice("failing the connection", metadata: ["tb.reason": "\(reason)"])
            return outbound.disconnect(.protocolError, reason: reason)
        case .oversized(let byteCount):
            return send(.error(code: .tooLarge, message: "the message is \(byteCount) bytes; the limit is \(configuration.limits.maxMessageBytes)"))
        }
        do {
            let request = try ClientMessage.decode(data, limits: configuration.limits)
            try await handle(request, state: &state)
        } catch let error as ProtocolError {
            if let opID = error.opID {
                send(.reject(.init(opID: opID, code: error.code, message: error.message, opIndex: error.opIndex)))
            } else {
                send(.error(code: error.code, message: error.message))
            }
        } catch {
            logger.error("request failed", metadata: ["tb.error": "\(error)"])
            send(.error(code: .internal, message: "the server failed to handle the message"))
        }
    }

    private func handle(_ request: ClientMessage, state: inout State) async throws {
        if case .hello(let hello) = request {
            guard hello.protocolVersion == protocolVersion else {
                throw ProtocolError(.versionMismatch, "this server speaks protocol \(protocolVersion), not \(hello.protocolVersion)")
            }
            state.helloDeadline?.cancel()
            state.helloDeadline = nil
            state.clientID = hello.clientID
            state.name = hello.name ?? "Guest"
            return send(.welcome(serverTime: clock.now(), limits: configuration.limits))
        }
        guard let clientID = state.clientID else {
            var error = ProtocolError(.helloRequired, "send hello first")
            if case .edit(let edit) = request { error.opID = edit.opID }
            throw error
        }
        switch request {
        case .hello: break
        case .join(let join):
            if let wait = state.editBudget.admitJoin(now: clock.now()) {
                throw ProtocolError(.rateLimited, "too many joins and edits; nothing changed, join again in \(wait) ms")
            }
            try await joinBoard(join, clientID: clientID, state: &state)
        case .edit(let edit):
            guard let room = state.room else { throw ProtocolError(.notJoined, "join a board first", opID: edit.opID) }
            if let wait = state.editBudget.admit(opID: edit.opID, now: clock.now()) {
                let message = "more than \(configuration.editsPerSecond) edits a second; nothing changed, send it again in \(wait) ms"
                return await room.refuse(.init(opID: edit.opID, code: .rateLimited, message: message, retryAfterMs: wait), to: outbound)
            }
            let changed = await room.edit(edit, from: outbound)
            state.editBudget.charge(changes: changed, now: clock.now())
        case .ping(let t):
            send(.pong(t: t, serverTime: clock.now()))
        case .leave:
            guard state.room != nil else { throw ProtocolError(.notJoined, "not on a board") }
            await leaveBoard(&state)
        case .presence(let editing):
            guard let room = state.room else { throw ProtocolError(.notJoined, "join a board first") }
            guard await room.setEditing(editing, by: outbound) else {
                throw ProtocolError(.forbidden, "this link can only view the board; it shows no presence")
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
            guard let room = try await registry.room(for: join.board) else { throw noSuchBoard }
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

    private func leaveBoard(_ state: inout State) async {
        guard let room = state.room else { return }
        state.room = nil
        await room.leave(outbound)
        await registry.releaseIfIdle(room)
    }

    private func send(_ message: ServerMessage) {
        outbound.send(OutboundFrame(message))
    }
}

/// The server's configuration, made once and shared by reference.
final class SharedConfiguration: Sendable {
    let value: ServerConfiguration

    init(_ value: ServerConfiguration) {
        self.value = value
    }
}
