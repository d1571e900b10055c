import BoardCore
import BoardProtocol
import BoardStore
import Logging
import NIOCore
import TimerBoardConcurrency
import TimerBoardTransport

/// The single owner of one live board: it hands every event to its `RoomState`, which decides,
/// and performs the actions it gets back, in order. It holds what a plain value cannot: the
/// tasks the state asks for (`RoomWork`, all stopped by a close), the writers to the store and
/// to the other nodes, and the callers waiting for durability.
actor BoardRoom {
    nonisolated let boardID: String
    private var state: RoomState<Outbound>
    private let context: RoomContext
    private let logger: Logger
    private var work = RoomWork()
    /// Changesets on their way to the store, in revision order: what arrives while one append is
    /// being written goes into the next (group commit within the board).
    private lazy var saver = QueueWorker<PendingSave> { [weak self] batch in await self?.save(batch) }
    /// Presence on its way to the other nodes, in the order decided; nil on one node.
    private let presenceTeller: QueueWorker<PresenceNews>?
    private var linkWrites = SerialWrites()
    private var waiters = DurabilityWaiters()
    /// The subscribers by event loop; the loops write what the room sends (`RoomFanout`).
    private lazy var fanout = RoomFanout { [weak self] outbound in Task { await self?.refused(outbound) } }

    init(stored: StoredBoard, context: RoomContext) {
        boardID = stored.info.id
        state = RoomState(stored: stored, settings: context.settings)
        self.context = context
        var logger = context.logger
        logger[metadataKey: "tb.board.id"] = .string(stored.info.id)
        self.logger = logger
        presenceTeller = context.otherNodes.map { nodes in
            QueueWorker { [boardID = stored.info.id] batch in
                for news in batch { await nodes.tell(news, boardID: boardID) }
            }
        }
    }

    // MARK: Reading

    /// The board (the joiners' snapshot frame, shared) once everything applied so far is durable,
    /// or nil when the room closed first: what a reader outside the live protocol may be shown.
    func durableSnapshot() async -> (frame: OutboundFrame, revision: Int64, title: String)? {
        guard await waitUntilDurable() else { return nil }
        return (state.snapshotFrame(compressed: false), state.revision, state.title)
    }

    /// Returns once every revision applied so far is durable: true, or false when the room closed first.
    func waitUntilDurable() async -> Bool {
        guard !state.isClosed || state.isDurable else { return false }
        guard !state.isDurable else { return true }
        let target = state.revision
        return await withCheckedContinuation { waiters.add(target, $0) }
    }

    /// Timers running on the board now (for `/metrics`), and whether the room closed.
    var runningTimerCount: Int { state.runningTimerCount }
    var isClosed: Bool { state.isClosed }

    /// The role `secret` gives on this board, or nil when it gives none.
    func role(of secret: String) -> BoardRole? { state.access?.role(of: secret) }
    func role(ofHash secretHash: [UInt8]) -> BoardRole? { state.access?.role(ofHash: secretHash) }

    /// Keeps the room open for an HTTP request until `endRequest`; false when it has closed
    /// already (ask the registry again).
    func beginRequest() -> Bool { state.beginRequest() }
    func endRequest() { state.endRequest() }

    /// Closes the room if it is idle, so the registry can drop it. Returns whether it closed.
    func closeIfIdle() -> Bool {
        guard let actions = state.closeIfIdle() else { return false }
        perform(actions)
        return true
    }

    // MARK: Connections

    /// Subscribes `outbound` when the secret is the board's (`RoomState.join`).
    func join(_ outbound: Outbound, since: Int64?, secretHash: [UInt8], clientID: String, name: String) -> RoomState<Outbound>.JoinResult {
        let (result, actions) = state.join(outbound, since: since, secretHash: secretHash, clientID: clientID, name: name)
        perform(actions)
        return result
    }

    func leave(_ outbound: Outbound) { perform(state.leave(outbound.id)) }

    /// What the connection's user edits, and its clock's error (`RoomState.setPresence`).
    func setPresence(editing: EntityID?, clockError: Int64?, by outbound: Outbound) -> Bool {
        let (allowed, actions) = state.setPresence(editing: editing, clockError: clockError, of: outbound.id)
        perform(actions)
        return allowed
    }

    func refuse(_ reject: ServerMessage.Reject, to outbound: Outbound) { perform(state.refuse(reject, to: outbound)) }

    /// Sends the connection's session's own answer behind the answers held for its earlier messages.
    func answer(_ frame: OutboundFrame, to outbound: Outbound) { perform(state.answer(frame, to: outbound)) }

    /// Applies an edit and answers it; returns how many changes it made. Returns at once: the
    /// session reads its next message while this one is stored, so pipelined edits share a commit.
    @discardableResult
    func edit(_ edit: ClientMessage.Edit, from outbound: Outbound) -> Int {
        let (changes, actions) = state.edit(edit, from: outbound, now: context.clock.now())
        perform(actions)
        return changes
    }

    /// Applies an edit that came over HTTP; its answer once what it shows is durable, or nil when
    /// the room closed first (nothing of it was stored: ask the registry again).
    func editOverHTTP(_ edit: ClientMessage.Edit, by author: EditAuthor) async -> (answer: ServerMessage, changes: Int)? {
        let (answer, changes, actions) = state.editOverHTTP(edit, by: author, now: context.clock.now())
        perform(actions)
        guard let answer, await waitUntilDurable() else { return nil }
        return (answer, changes)
    }

    // MARK: The owner's calls

    /// Renames the board: stored, then told to everyone on it.
    func rename(to newTitle: String) async throws {
        guard !state.isClosed else { throw StoreError(.boardNotFound, "board \(boardID) is closed") }
        try await context.store.renameBoard(id: boardID, title: newTitle)
        perform(state.renamed(to: newTitle))
    }

    /// The board's current secrets, when `ownerSecret` is its owner secret (the Share dialog).
    func secrets(ownerSecret: String) -> BoardSecrets? {
        state.access.flatMap { BoardSecrets.recover(owner: ownerSecret, access: $0) }
    }

    /// Changes who may reach the board (`BoardRoom+Links.swift`): `change` reads the links as they
    /// are (nil: no change). They are taken over before the store is written, so a change that runs
    /// while this one waits builds on it instead of undoing it, and put back if the store refuses;
    /// then the sockets of the roles it ends close (4403). Nil when the room has closed.
    func changeAccess<Result: Sendable>(_ change: @Sendable (BoardAccess?) -> AccessChange<Result>?) async throws -> Result? {
        guard !state.isClosed, let change = change(state.access) else { return nil }
        let previous = state.access
        state.access = change.access
        do {
            try await linkWrites.then { [store = context.store, boardID] in try await store.setAccess(change.access, boardID: boardID) }.value
        } catch {
            if state.access == change.access { state.access = previous }  // not stored: the old links hold
            throw error
        }
        perform(state.endRoles(change.ending))
        logger.notice(change.log, metadata: change.metadata)
        return change.result
    }

    /// Deletes the board once everything applied is stored: everyone on it is closed (4410) and
    /// its data leaves the store.
    func delete() async throws {
        await close(.deleted)
        try await context.store.deleteBoard(id: boardID, deliveries: state.deletionDeliveries(now: context.clock.now()))
        context.webhooks.ring()
        logger.notice("deleted the board", metadata: ["tb.event": "board.deleted"])
    }

    /// The board's webhook endpoints changed (the owner here, or the dispatcher disabled one).
    func webhooksChanged(_ change: WebhookChange) { perform(state.webhooksChanged(change)) }

    /// Closes the room once everything it applied is durable (the board is deleted, the server stops).
    func close(_ reason: RoomCloseReason) async {
        while !state.isClosed, !state.isDurable { _ = await waitUntilDurable() }
        perform(state.close(reason))
    }

    // MARK: Time and other nodes

    /// Repairs what the store kept but an edit could not have made, and finishes the timers that
    /// ran out while the board was not loaded; once, after loading.
    func activate() {
        let (repaired, actions) = state.activate(now: context.clock.now())
        if repaired > 0 { logger.warning("repaired stored order keys", metadata: ["tb.changes": "\(repaired)"]) }
        perform(actions)
    }

    /// The shared store's log reaches `revision` (nil: anything may have been missed).
    func otherNodeAppended(upTo revision: Int64?) { perform(state.otherNodeAppended(upTo: revision)) }

    func otherNodePresence(_ news: PresenceNews, from node: String) {
        perform(state.otherNodePresence(news, from: node, now: context.clock.now()))
    }

    /// The board's title or links changed, or it was deleted, on some node: read it again.
    func otherNodeChangedBoard() async {
        guard !state.isClosed else { return }
        let stored: StoredBoard?
        do {
            stored = try await context.store.loadBoard(id: boardID)
        } catch {
            // The store is away: the room fails on its next append, or rereads on the feed's return.
            logger.warning("could not reread a board another node changed", metadata: ["tb.error": "\(error)"])
            return
        }
        guard let stored else {
            perform(state.close(.deleted))
            return logger.notice("the board was deleted on another node")
        }
        perform(state.storedBoardChanged(title: stored.info.title, access: stored.access, webhooks: stored.webhooks))
    }

    // MARK: Performing

    private func perform(_ actions: [RoomAction<Outbound>]) {
        for action in actions {
            switch action {
            case .send(let sends):  // handed to the loops at once, before a later action lets a session go on
                let (messages, bytes) = fanout.hand(sends)
                context.metrics.sent(messages: messages, bytes: bytes)
            case .disconnect(let outbound, let code, let reason): fanout.disconnect(outbound, code, reason: reason)
            case .save(let changeset, let snapshot, let deliveries):
                saver.enqueue(PendingSave(changeset: changeset, snapshot: snapshot, deliveries: deliveries, appliedAt: .now))
            case .enqueueDeliveries(let deliveries): context.webhooks.enqueue(deliveries)
            case .wakeForWarnings(let instant):
                work.wakeForWarnings(at: instant, clock: context.clock) { [weak self] in
                    await self?.run { $0.perform($0.state.warningsDue(now: $0.context.clock.now())) }
                }
            case .catchUp(let revision): work.catchUp { [weak self] in await self?.readOtherNodes(after: revision) }
            case .wakeAt(let deadline): wake(at: deadline)
            case .flushPresenceLater:
                work.flushPresence(after: context.configuration.presenceInterval) { [weak self] in await self?.run { $0.perform($0.state.flushPresence()) } }
            case .announcePresenceRegularly:
                guard let nodes = context.otherNodes else { break }
                work.announce(every: nodes.announceInterval) { [weak self] in
                    await self?.run { $0.perform($0.state.announcePresence(now: $0.context.clock.now(), silenceLimit: nodes.silenceLimit)) }
                }
            case .tellOtherNodes(let news): presenceTeller?.enqueue(news)
            case .releaseWaiters: waiters.release(durable: state.durableRevision, closed: state.isClosed)
            case .releaseIfIdle: context.idleRooms.release(self)
            case .count(let count): count.record(in: context.metrics)
            case .closed(let reason): stopWork(closedFor: reason)
            }
        }
    }

    /// A connection refused a frame on its loop: gone, or too far behind (it resumes from its revision).
    private func refused(_ outbound: Outbound) {
        perform(state.leave(outbound.id))
        if outbound.didOverflow {
            context.metrics.slowClientDropped()
            logger.notice("dropped a subscriber that fell behind", metadata: ["tb.connection.id": "\(outbound.id)"])
        }
    }

    /// Hands changesets to the store, an append per run up to a snapshot, in revision order.
    private func save(_ batch: [PendingSave]) async {
        for append in PendingSave.appends(batch) {
            let started = ContinuousClock.now
            do {
                try await context.store.append(append.changesets, snapshot: append.snapshot, deliveries: append.deliveries)
            } catch {
                return perform(state.close(RoomCloseReason(storeError: error)))
            }
            if !append.deliveries.isEmpty { context.webhooks.ring() }
            context.metrics.stored(append.changesets, applied: append.applied, started: started)
            perform(state.stored(upTo: append.changesets[append.changesets.count - 1].revision))
        }
    }

    /// Reads what other nodes appended after `revision` and hands it to the state.
    private func readOtherNodes(after revision: Int64) async {
        let read: RoomState<Outbound>.CatchUpRead
        do {
            read = try await context.store.changesets(boardID: boardID, after: revision).map { .changesets($0) } ?? .gone
        } catch {
            read = .failed(RoomCloseReason(storeError: error))
        }
        perform(state.caughtUp(read, after: revision))
    }

    /// Aims the wake-up at the next deadline. On a cluster, a node that is not the board's
    /// timekeeper waits its grace first (`RoomState.finishDelay`).
    private func wake(at deadline: Int64?) {
        work.wake(at: deadline, clock: context.clock, grace: { [weak self] in await self?.finishDelay() ?? 0 }) { [weak self] in
            await self?.run { $0.perform($0.state.finishExpiredTimers(now: $0.context.clock.now())) }
        }
    }

    private func finishDelay() -> Int64 {
        guard let nodes = context.otherNodes else { return 0 }
        return state.finishDelay(localNode: nodes.nodeID, grace: nodes.timekeeperGrace)
    }

    private func run(_ body: @Sendable (isolated BoardRoom) -> Void) { body(self) }

    /// The room closed: whatever it started stops, and the close is logged as its row says.
    private func stopWork(closedFor reason: RoomCloseReason) {
        work.cancelAll()
        saver.discardWaiting()
        fanout.unsubscribeAll()
        let closing = RoomClosing.table(reason)
        guard let level = closing.logLevel else { return }
        logger.log(level: level, "\(closing.logMessage)", metadata: reason.logMetadata)
    }
}
