import BoardCore
import BoardProtocol
import BoardStore
import Logging
import NIOCore
import NIOWebSocket
import TimerBoardTransport

/// The single owner of one live board.
///
/// Every edit is validated and applied here, one at a time, and gets the next revision. What
/// the room sends goes through an outbox in revision order and leaves only once the revisions
/// before it are durable: an ack always means "stored", a joining client's snapshot never shows
/// an edit that a crash could still lose, and every subscriber sees every changeset once, in order.
actor BoardRoom {
    nonisolated let boardID: String
    private var title: String
    /// Hashes of the link secrets; nil for a board from before links, which nobody can join.
    private var access: BoardAccess?
    /// The last write of `access` to the store: each waits for the one before, so the store
    /// ends with the room's last access, not whichever write happened to land last.
    private var accessWrite: Task<Void, any Error>?
    private var board: Board
    /// The revision of `board`: the last applied edit.
    private var revision: Int64
    /// The last revision the store has made durable.
    private var durableRevision: Int64
    private var lastSnapshotRevision: Int64

    private let store: any BoardStore
    private let configuration: ServerConfiguration
    private let clock: any ServerClock
    private let logger: Logger

    /// Who is on the board, by connection, and the presence changes not yet told.
    private var presence: PresenceTracker<OutboundFrame>
    /// The last presence message to the other nodes: each waits for the one before, so they
    /// arrive in order.
    private var presencePublish: Task<Void, Never>?
    /// Tells the other nodes this node's whole list now and then, while the room is open.
    private var presenceAnnouncer: Task<Void, Never>?
    /// Sends the gathered presence changes after `presenceInterval`.
    private var presenceFlush: Task<Void, Never>?
    private var recentChangesets: ChangesetLog
    private var outcomes: OutcomeLog
    /// Deliveries waiting for their revision to be durable, and who is subscribed.
    private var outbox = RoomOutbox<Outbound, OutboundFrame>()
    /// Accepted edits not yet handed to the store.
    private var unsaved: [StoredChangeset] = []
    /// When each of `unsaved` was applied, for the edit -> durable latency in `/metrics`.
    private var unsavedApplied: [ContinuousClock.Instant] = []
    private var isSaving = false
    /// Set when the store failed or the room was unloaded; a closed room takes no more work.
    private(set) var isClosed = false
    /// The encoded snapshot of the current revision, plain and compressed for connections that
    /// negotiated permessage-deflate: a storm of joins encodes the board once.
    private var snapshots = SnapshotCache<OutboundFrame>()
    /// Callers waiting for a revision to be durable (a read over HTTP, a release): resumed
    /// with true once it is, with false when the store failed.
    private var durabilityWaiters: [(revision: Int64, continuation: CheckedContinuation<Bool, Never>)] = []
    /// Another node appended (its doorbell rang) and the room has not read it yet.
    private var catchUpWanted = false
    private var isCatchingUp = false
    /// Wakes the room at the next timer deadline, to finish the timers that ran out.
    private var expiryTask: Task<Void, Never>?
    private var scheduledDeadline: Int64?

    /// What a join did.
    enum JoinResult: Sendable {
        case joined
        /// The secret is not one of this board's: answered as if there were no board.
        case denied
        /// The room was unloaded meanwhile: ask the registry again.
        case closed
    }

    init(stored: StoredBoard, store: any BoardStore, configuration: ServerConfiguration, clock: any ServerClock, logger: Logger) {
        boardID = stored.info.id
        title = stored.info.title
        access = stored.access
        board = stored.content
        revision = stored.revision
        durableRevision = stored.revision
        lastSnapshotRevision = stored.revision
        self.store = store
        self.configuration = configuration
        self.clock = clock
        presence = PresenceTracker(sharedWithOtherNodes: configuration.clusterPresence != nil)
        var logger = logger
        logger[metadataKey: "tb.board.id"] = .string(stored.info.id)
        self.logger = logger

        let first = stored.recentChangesets.first?.revision ?? stored.revision + 1
        recentChangesets = ChangesetLog(
            capacity: configuration.retainedChangesets,
            maxBytes: configuration.retainedChangesetBytes,
            nextRevision: first
        )
        outcomes = OutcomeLog(limitPerClient: configuration.outcomesPerClient, limitInTotal: configuration.outcomesPerBoard)
        for changeset in stored.recentChangesets {
            let frame = OutboundFrame(.changes(Changeset(revision: changeset.revision, changes: changeset.changes)))
            recentChangesets.append(frame, revision: changeset.revision)
            if let clientID = changeset.clientID, let opID = changeset.opID {
                outcomes.record(.accepted(revision: changeset.revision), clientID: clientID, opID: opID)
            }
        }
    }

    // MARK: Reading

    /// The board and its revision, as the last durable state plus edits in flight.
    func snapshot() -> ServerMessage.Snapshot {
        ServerMessage.Snapshot(board: boardID, title: title, revision: revision, content: board)
    }

    /// The board once everything applied so far is durable, or nil when the store failed:
    /// what a reader outside the live protocol may be shown (a crash cannot take it back).
    func durableSnapshot() async -> ServerMessage.Snapshot? {
        guard await waitUntilDurable() else { return nil }
        return snapshot()
    }

    /// Returns once every revision applied so far is durable: true, or false when the store failed.
    func waitUntilDurable() async -> Bool {
        guard !isClosed || durableRevision == revision else { return false }
        guard durableRevision < revision else { return true }
        let target = revision
        return await withCheckedContinuation { continuation in
            durabilityWaiters.append((target, continuation))
        }
    }

    private func resumeDurabilityWaiters() {
        let due = durabilityWaiters.filter { isClosed || $0.revision <= durableRevision }
        durabilityWaiters.removeAll { isClosed || $0.revision <= durableRevision }
        for waiter in due { waiter.continuation.resume(returning: !isClosed) }
    }

    /// Timers running on the board now, for `/metrics`.
    var runningTimerCount: Int {
        board.timers.values.reduce(0) { $0 + ($1.run.status == .running ? 1 : 0) }
    }

    /// True when nobody is subscribed and nothing is waiting to be stored or sent. Running
    /// timers do not keep a board in memory: the next load finishes those that ran out.
    private var isIdle: Bool {
        outbox.subscribers.isEmpty && outbox.isEmpty && unsaved.isEmpty && !isSaving && !isCatchingUp && requestsInProgress == 0
    }

    /// HTTP requests using the room now: a room in use is not idle, so another request's
    /// release cannot close it halfway through (a link replacement then answered 403).
    private var requestsInProgress = 0

    /// Keeps the room open for a request until `endRequest`; false when it has closed already
    /// (ask the registry again).
    func beginRequest() -> Bool {
        guard !isClosed else { return false }
        requestsInProgress += 1
        return true
    }

    func endRequest() {
        requestsInProgress -= 1
    }

    /// Closes the room if it is idle, so the registry can drop it. Returns whether it closed.
    func closeIfIdle() -> Bool {
        guard isIdle else { return false }
        isClosed = true
        expiryTask?.cancel()
        presenceFlush?.cancel()
        presenceAnnouncer?.cancel()
        // The last one to leave went before the presence flush could tell the other nodes.
        publishPresence(.full, users: [], left: [])
        return true
    }

    // MARK: Joining

    /// The role `secret` gives on this board, or nil when it gives none.
    func role(of secret: String) -> BoardRole? {
        access?.role(of: secret)
    }

    /// The role of the secret whose SHA-256 is `secretHash`, or nil when it gives none.
    func role(ofHash secretHash: [UInt8]) -> BoardRole? {
        access?.role(ofHash: secretHash)
    }

    /// Subscribes `outbound` when the secret hashed to `secretHash` is one of the board's: it receives its role, then a
    /// snapshot (or, with `since` still in the log, a resume and the missed changesets), then
    /// every later changeset, with no gap or duplicate.
    func join(_ outbound: Outbound, since: Int64?, secretHash: [UInt8], clientID: String, name: String) -> JoinResult {
        guard !isClosed else { return .closed }
        guard let role = access?.role(ofHash: secretHash) else { return .denied }
        let participant = Participant(clientID: clientID, boardID: boardID, name: name, role: role)
        enqueue(.direct(outbound, encode(.access(board: boardID, role: role, userID: participant.userID))))
        // A catch-up must fit the connection's queue beside live traffic, or the client would
        // be cut off as too slow again and again: one that does not fit goes as a snapshot.
        if let since, since <= revision, let missed = recentChangesets.frames(after: since), missed.count <= outbound.capacity / 2 {
            enqueue(.direct(outbound, encode(.resume(board: boardID, title: title, since: since, revision: revision))))
            for frame in missed { enqueue(.direct(outbound, frame)) }
            configuration.metrics.joined(resumed: true)
        } else {
            enqueue(.direct(outbound, snapshotFrame(compressed: outbound.acceptsDeflate)))
            configuration.metrics.joined(resumed: false)
        }
        let effect = presence.add(participant, on: outbound.id)
        // Encoding the whole list for every joiner made a crowd of N joining cost N² (half the
        // server's CPU in a 1,000-client join storm); once per flush interval is enough.
        enqueue(.direct(outbound, presence.joinerList { encode(.presence($0)) }))
        enqueue(.subscribe(outbound))
        perform(effect)
        startAnnouncingPresence()
        deliverDurable()
        return .joined
    }

    /// The snapshot of the current revision, encoded (and compressed) once per revision.
    private func snapshotFrame(compressed: Bool) -> OutboundFrame {
        while true {
            switch snapshots.next(revision: revision, compressed: compressed) {
            case .send(let frame):
                return frame
            case .encode:
                snapshots.store(encode(.snapshot(snapshot())), compressed: false, revision: revision)
            case .compress(let plain):
                snapshots.store(OutboundFrame(deflating: plain), compressed: true, revision: revision)
            }
        }
    }

    func leave(_ outbound: Outbound) {
        // A join still waiting in the outbox must not subscribe it later.
        outbox.remove(outbound.id)
        perform(presence.remove(outbound.id).effect)
    }

    // MARK: Presence

    /// Records what the connection's user is editing (and its clock's error bound, when given)
    /// and tells everyone on the board. Returns false, changing nothing, when the connection's
    /// link may not say that (a view link naming something it edits).
    func setPresence(editing: EntityID?, clockError: Int64?, by outbound: Outbound) -> Bool {
        switch presence.setPresence(editing: editing, clockError: clockError, on: outbound.id) {
        case .notOnBoard, .unchanged: return true
        case .forbidden: return false
        case .changed(let effect):
            perform(effect)
            return true
        }
    }

    /// Starts the timer the tracker asked for: the change goes out with the others gathered
    /// within `presenceInterval`.
    private func perform(_ effect: PresenceTracker<OutboundFrame>.Effect) {
        guard effect == .scheduleFlush else { return }
        presenceFlush = Task { [weak self, interval = configuration.presenceInterval] in
            try? await Task.sleep(for: interval)
            await self?.flushPresence()
        }
    }

    /// Tells everyone on the board the current presence of each user touched since the last
    /// time. Presence goes through the outbox like everything else, after what was queued
    /// before it.
    private func flushPresence() {
        presenceFlush = nil
        guard !isClosed else { return }
        if let local = presence.flushLocal() {
            publishPresence(.delta, users: local.users, left: local.left)
        }
        guard let flush = presence.flush() else { return }
        enqueue(.broadcast(encode(.presenceChanged(users: flush.users, left: flush.left))))
        deliverDurable()
    }

    // MARK: Presence on other nodes

    private func publishPresence(_ kind: ClusterPresence.Kind, users: [ServerMessage.PresenceUser], left: [String]) {
        guard let cluster = configuration.clusterPresence else { return }
        let payloads = cluster.payloads(kind, users: users, left: left)
        let previous = presencePublish
        presencePublish = Task { [boardID, logger] in
            _ = await previous?.value
            for payload in payloads {
                do {
                    try await cluster.feed.publishPresence(boardID: boardID, payload: payload)
                } catch {
                    // Best effort: the next full announcement repairs what this one missed.
                    logger.debug("could not tell other nodes of presence", metadata: ["tb.error": "\(error)"])
                }
            }
        }
    }

    /// Another node told who is on the board there.
    func otherNodePresence(_ payload: String) {
        guard !isClosed, let cluster = configuration.clusterPresence, let message = cluster.message(from: payload) else { return }
        perform(
            presence.applyRemote(node: message.node, users: message.users, left: message.left, replacing: message.kind == .full, now: clock.now())
        )
    }

    /// Sends this node's whole list every `announceInterval` and forgets silent nodes' users.
    private func startAnnouncingPresence() {
        guard let cluster = configuration.clusterPresence, presenceAnnouncer == nil, !isClosed else { return }
        presenceAnnouncer = Task { [weak self] in
            while !Task.isCancelled {
                try? await Task.sleep(for: cluster.announceInterval)
                guard let self, !Task.isCancelled else { return }
                await self.announcePresence()
            }
        }
    }

    private func announcePresence() {
        guard !isClosed, let cluster = configuration.clusterPresence else { return }
        publishPresence(.full, users: presence.localUsers, left: [])
        perform(presence.forgetSilentNodes(heardBefore: clock.now() - cluster.silenceLimit))
    }

    // MARK: Editing

    /// Answers an edit the session refused before it reached the board (over its rate), in
    /// order after the answers to the connection's earlier edits.
    func refuse(_ reject: ServerMessage.Reject, to outbound: Outbound) {
        configuration.metrics.editRejected(reject.code)
        enqueue(.direct(outbound, encode(.reject(reject))))
        deliverDurable()
    }

    /// Applies an edit from the client on `outbound`, answering it with an ack or a reject.
    /// Returns how many changes it made (0 when it made none), for the session's budget.
    @discardableResult
    func edit(_ edit: ClientMessage.Edit, from outbound: Outbound) -> Int {
        guard !isClosed else {
            configuration.metrics.editRejected(.internal)
            outbound.send(encode(.reject(.init(opID: edit.opID, code: .internal, message: "the board is reloading; send the edit again"))))
            return 0
        }
        // No participant: its link was just replaced (its socket is being closed) or it fell behind.
        guard let participant = presence.participant(on: outbound.id), participant.role.canEdit else {
            refuse(.init(opID: edit.opID, code: .forbidden, message: "this link can only view the board"), to: outbound)
            return 0
        }
        let clientID = participant.clientID
        if let outcome = outcomes.outcome(clientID: clientID, opID: edit.opID) {
            switch outcome {
            case .accepted(let revision):
                enqueue(.direct(outbound, encode(.ack(opID: edit.opID, revision: revision, duplicate: true))))
            case .rejected(var reject):
                reject.current = reject.opIndex.flatMap { edit.ops.indices.contains($0) ? currentEntity(edit.ops[$0].entityID) : nil }
                enqueue(.direct(outbound, encode(.reject(reject))))
            }
            deliverDurable()
            return 0
        }

        let now = clock.now()
        // A deadline that passed before this edit is met first, in a changeset of the server's
        // own, so the edit applies to the board as it is now (an adjustment of a timer that has
        // just finished runs it again, a sequence has already moved on), never to a stale one.
        if let deadline = board.nextDeadline, deadline <= now {
            finishExpiredTimers()
        }
        let changes: [Change]
        do {
            changes = try board.apply(edit.ops, limits: configuration.limits.board, now: now)
        } catch {
            let reject = reject(for: error, in: edit)
            outcomes.record(.rejected(reject), clientID: clientID, opID: edit.opID)
            configuration.metrics.editRejected(reject.code)
            enqueue(.direct(outbound, encode(.reject(reject))))
            deliverDurable()
            return 0
        }
        guard !changes.isEmpty else {
            // Nothing changed (the values were already there): acked at the current revision.
            outcomes.record(.accepted(revision: revision), clientID: clientID, opID: edit.opID)
            configuration.metrics.editAccepted()
            enqueue(.direct(outbound, encode(.ack(opID: edit.opID, revision: revision, duplicate: false))))
            deliverDurable()
            return 0
        }

        commit(changes, clientID: clientID, opID: edit.opID, now: now, editor: outbound)
        return changes.count
    }

    /// Makes accepted changes the next revision: sent to everyone (and acked to the editor) once
    /// they are durable. Returns at once: the caller (a session) reads its next message while
    /// this one is being stored, so a client's pipelined edits share one fsync.
    private func commit(_ changes: [Change], clientID: String?, opID: String?, now: Int64, editor: Outbound?) {
        revision += 1
        let frame = encode(.changes(Changeset(revision: revision, changes: changes)))
        recentChangesets.append(frame, revision: revision)
        enqueue(.broadcast(frame))
        configuration.metrics.changesetCommitted(subscribers: outbox.subscribers.count)
        if let clientID, let opID {
            outcomes.record(.accepted(revision: revision), clientID: clientID, opID: opID)
        }
        if let editor, let opID {
            configuration.metrics.editAccepted()
            enqueue(.direct(editor, encode(.ack(opID: opID, revision: revision, duplicate: false))))
        }
        unsaved.append(StoredChangeset(boardID: boardID, revision: revision, changes: changes, clientID: clientID, opID: opID, time: now))
        unsavedApplied.append(.now)
        scheduleExpiry()
        startSaving()
    }

    // MARK: Management (the owner's calls)

    /// Renames the board: stored, then told to everyone on it.
    func rename(to newTitle: String) async throws {
        guard !isClosed else { throw StoreError(.boardNotFound, "board \(boardID) is closed") }
        try await store.renameBoard(id: boardID, title: newTitle)
        title = newTitle
        snapshots.invalidate()
        enqueue(.broadcast(encode(.renamed(title: newTitle))))
        deliverDurable()
    }

    /// The board's current secrets, when `ownerSecret` is its owner secret: what the owner's
    /// Share dialog shows.
    func secrets(ownerSecret: String) -> BoardSecrets? {
        access.flatMap { BoardSecrets.recover(owner: ownerSecret, access: $0) }
    }

    /// Replaces the edit or view link, given the owner secret the new one is derived from. The
    /// old link stops at once: every connection that joined with it is closed (4403). Returns
    /// the new secret, or nil when `ownerSecret` is not this board's.
    func replaceLink(_ role: BoardRole, ownerSecret: String) async throws -> String? {
        precondition(role != .owner, "the owner link is not replaced")
        guard !isClosed, let access, let secrets = BoardSecrets.recover(owner: ownerSecret, access: access) else { return nil }
        let replaced = secrets.replacing(role)
        // Taken over before the store is written, so a replacement of the other link that runs
        // while this one waits builds on this one instead of undoing it.
        self.access = replaced.access
        let previousWrite = accessWrite
        let write = Task { [store, boardID] in
            _ = await previousWrite?.result
            try await store.setAccess(replaced.access, boardID: boardID)
        }
        accessWrite = write
        do {
            try await write.value
        } catch {
            if self.access == replaced.access { self.access = access }  // not stored: the old link holds
            throw error
        }
        disconnectAll(where: { $0.role == role }, code: Self.linkReplacedCode, reason: "the \(role.rawValue) link was replaced")
        logger.notice("replaced a link", metadata: ["tb.role": "\(role.rawValue)"])
        return replaced.secret(for: role)
    }

    /// Deletes the board once everything applied is stored: no edit is taken from here on,
    /// everyone on it is closed (4410) and its data leaves the store.
    func delete() async throws {
        while !isClosed, !(unsaved.isEmpty && !isSaving) {
            _ = await waitUntilDurable()
        }
        closeAsDeleted()
        try await store.deleteBoard(id: boardID)
        logger.notice("deleted the board")
    }

    /// The board is gone, here or on another node: no more work, and everyone on it is closed (4410).
    private func closeAsDeleted() {
        isClosed = true
        access = nil
        expiryTask?.cancel()
        presenceFlush?.cancel()
        presenceAnnouncer?.cancel()
        disconnectAll(where: { _ in true }, code: Self.boardDeletedCode, reason: "the board was deleted")
        resumeDurabilityWaiters()
    }

    /// Close codes of docs/protocol.md, "Links and roles".
    static let linkReplacedCode = WebSocketErrorCode(codeNumber: 4403)
    static let boardDeletedCode = WebSocketErrorCode(codeNumber: 4410)
    /// 1012, "service restart": this node's copy of the board is being reloaded; rejoin.
    static let reloadingCode = WebSocketErrorCode(codeNumber: 1012)

    private func disconnectAll(where matches: (Participant) -> Bool, code: WebSocketErrorCode, reason: String) {
        let (removed, effect) = presence.remove(where: matches)
        perform(effect)
        for id in removed.keys {
            if let connection = outbox.remove(id) {
                connection.disconnect(code, reason: reason)
            }
        }
    }

    // MARK: Timers

    /// Repairs what the store kept but an edit could not have made (order keys too long or of
    /// an older form) and finishes timers that ran out while the board was not loaded; call
    /// once after loading. A repair is a changeset of the server's own, so clients resuming
    /// from an earlier revision get it too.
    func activate() {
        let (repaired, changes) = board.repairedOrder()
        if !changes.isEmpty {
            logger.warning("repaired stored order keys", metadata: ["tb.changes": "\(changes.count)"])
            board = repaired
            commit(changes, clientID: nil, opID: nil, now: clock.now(), editor: nil)
        }
        finishExpiredTimers()
    }

    /// Finishes every timer whose deadline has passed, each at its deadline, and hands over to
    /// the next timer of a sequence at that instant, as one changeset of the server's own.
    private func finishExpiredTimers() {
        scheduledDeadline = nil
        guard !isClosed else { return }
        let now = clock.now()
        let changes = board.finishExpiredTimers(now: now)
        if changes.isEmpty {
            scheduleExpiry()
        } else {
            let finished = changes.count { change in
                if case .updateTimer(_, let patch) = change { patch.run?.status == .finished } else { false }
            }
            configuration.metrics.timersFinished(finished)
            commit(changes, clientID: nil, opID: nil, now: now, editor: nil)
        }
    }

    /// Keeps one sleeping task aimed at the earliest deadline of a running timer.
    private func scheduleExpiry() {
        let next = board.nextDeadline
        guard next != scheduledDeadline else { return }
        expiryTask?.cancel()
        scheduledDeadline = next
        guard let next else {
            expiryTask = nil
            return
        }
        expiryTask = Task { [weak self, clock] in
            do {
                try await clock.sleep(until: next)
                if let delay = await self?.finishDelay(), delay > 0 {
                    try await clock.sleep(until: next + delay)
                }
                try Task.checkCancellation()
            } catch {
                return  // rescheduled or closed
            }
            await self?.finishExpiredTimers()
        }
    }

    /// How long past a deadline this node waits before it writes the finish, ms.
    ///
    /// When several nodes serve the board, each would write the same finish at the same
    /// instant, race for the revision, and the loser would close its room (its clients
    /// reconnect). So the finishes are the timekeeper's to write: of the nodes with users on
    /// the board, the one with the smallest id. The others wait `timekeeperGrace` for its
    /// changeset, which the catch-up applies (and the expiry is aimed at the next deadline);
    /// if it never comes (the timekeeper died, or has not heard of this node's users yet), they
    /// write the finish themselves, at its deadline's instants as always, only later.
    private func finishDelay() -> Int64 {
        guard let cluster = configuration.clusterPresence else { return 0 }
        guard let timekeeper = presence.nodesWithUsers(localNode: cluster.nodeID).min(), timekeeper != cluster.nodeID else { return 0 }
        return cluster.timekeeperGrace
    }

    private func reject(for error: EditError, in edit: ClientMessage.Edit) -> ServerMessage.Reject {
        ServerMessage.Reject(
            opID: edit.opID,
            code: ErrorCode(error.error.kind),
            message: error.error.message,
            opIndex: error.operationIndex,
            current: currentEntity(edit.ops[error.operationIndex].entityID)
        )
    }

    private func currentEntity(_ id: EntityID) -> ServerMessage.Entity? {
        if let section = board.sections[id] { .section(section) } else if let timer = board.timers[id] { .timer(timer) } else { nil }
    }

    // MARK: Durability

    /// Starts the board's writer unless it runs: a task that lives while there is something to
    /// store, then ends, so an idle board holds none.
    private func startSaving() {
        guard !isSaving else { return }
        isSaving = true
        Task { await self.saveUnsaved() }
    }

    /// Hands every unsaved changeset to the store, one batch at a time. Edits that arrive while
    /// a batch is being written wait for the next batch: group commit within the board, in
    /// revision order, whatever order the callers' tasks run in.
    private func saveUnsaved() async {
        defer { isSaving = false }
        while !unsaved.isEmpty, !isClosed {
            let batch = unsaved
            let applied = unsavedApplied
            unsaved = []
            unsavedApplied = []
            let last = batch[batch.count - 1].revision
            // `board` is exactly the state at `last` here: nothing can apply between taking the
            // batch and this line.
            let snapshotDue = last - lastSnapshotRevision >= Int64(configuration.snapshotInterval)
            let started = ContinuousClock.now
            do {
                try await store.append(batch, snapshot: snapshotDue ? board : nil)
            } catch {
                fail(error)
                return
            }
            configuration.metrics.stored(batch, applied: applied, started: started)
            if snapshotDue { lastSnapshotRevision = last }
            durableRevision = last
            deliverDurable()
            resumeDurabilityWaiters()
        }
        isSaving = false
        startCatchUp()
    }

    /// The store failed: what is in memory is ahead of what is durable and must not be served.
    /// Everyone is disconnected (clients reconnect and resume), nothing pending is acked, and
    /// the registry loads the board again from the store on the next join.
    ///
    /// On a shared store, losing a revision's claim to another node ends here too: the room's
    /// edits since its last durable revision were built on a board that is not the stored one.
    /// Its clients reconnect (through nginx, usually to the node that won), resume from their
    /// revision and resend what was not acked, which then applies on the stored board.
    private func fail(_ error: any Error) {
        let lostClaim = (error as? StoreError)?.kind == .revisionConflict
        if lostClaim {
            configuration.metrics.revisionClaimLost()
            logger.notice("another node wrote the board first; reloading it", metadata: ["tb.error": "\(error)"])
        } else {
            logger.error("store append failed; closing the board", metadata: ["tb.error": "\(String(reflecting: error))"])
        }
        isClosed = true
        expiryTask?.cancel()
        unsaved.removeAll()
        unsavedApplied.removeAll()
        for subscriber in outbox.removeAll() {
            if lostClaim {
                subscriber.disconnect(Self.reloadingCode, reason: "the board changed on another node; rejoin with since")
            } else {
                subscriber.disconnect(.unexpectedServerError, reason: "the board failed to store an edit; rejoin with since")
            }
        }
        presence.removeAll()
        presenceAnnouncer?.cancel()
        // Other nodes stop showing this node's users of the board now, not after the silence limit.
        publishPresence(.full, users: [], left: [])
        resumeDurabilityWaiters()
    }

    // MARK: Other nodes (a shared store)

    /// The shared store says the board's log reaches `revision` (rung by another node's append,
    /// or by this node's own), or nil when anything may have been missed (the feed reconnected).
    func otherNodeAppended(upTo revision: Int64?) {
        if let revision, revision <= self.revision { return }  // ours, or read already
        catchUpWanted = true
        startCatchUp()
    }

    /// The board's title or links changed, or it was deleted, on some node (this one's own
    /// changes ring too, and then change nothing here). A replaced link stops on every node at
    /// once, as on one: the sockets that joined with it are closed (4403).
    func otherNodeChangedBoard() async {
        guard !isClosed else { return }
        let stored: StoredBoard?
        do {
            stored = try await store.loadBoard(id: boardID)
        } catch {
            // The store is away: the room fails on its next append, or reloads on the feed's return.
            logger.warning("could not reread a board another node changed", metadata: ["tb.error": "\(error)"])
            return
        }
        guard !isClosed else { return }
        guard let stored else {
            closeAsDeleted()
            logger.notice("the board was deleted on another node")
            return
        }
        if stored.info.title != title {
            title = stored.info.title
            snapshots.invalidate()
            enqueue(.broadcast(encode(.renamed(title: title))))
            deliverDurable()
        }
        if let old = access, let new = stored.access, old != new {
            access = new
            let ended: Set<BoardRole> =
                old.ownerHash != new.ownerHash
                ? [.owner, .edit, .view]
                : Set([old.editHash != new.editHash ? BoardRole.edit : nil, old.viewHash != new.viewHash ? .view : nil].compactMap { $0 })
            disconnectAll(where: { ended.contains($0.role) }, code: Self.linkReplacedCode, reason: "the link was replaced")
        } else {
            access = stored.access
        }
    }

    /// Reads what other nodes appended, once this node's own appends are stored: until then
    /// they either land first (and the catch-up follows them) or lose their claim (and the
    /// room reloads).
    private func startCatchUp() {
        guard catchUpWanted, !isCatchingUp, !isClosed, unsaved.isEmpty, !isSaving else { return }
        catchUpWanted = false
        isCatchingUp = true
        Task { await self.catchUp() }
    }

    private func catchUp() async {
        let from = revision
        let result: Result<[StoredChangeset]?, any Error>
        do {
            result = .success(try await store.changesets(boardID: boardID, after: from))
        } catch {
            result = .failure(error)
        }
        isCatchingUp = false
        guard !isClosed else { return }
        guard revision == from else {
            // This node applied an edit meanwhile: read again once it is stored (or refused).
            catchUpWanted = true
            startCatchUp()
            return
        }
        let changesets: [StoredChangeset]
        switch result {
        case .failure(let error):
            return fail(error)
        case .success(nil):
            // Pruned behind a snapshot, or deleted: only a fresh load has it.
            return fail(StoreError(.revisionConflict, boardID: boardID, revision: from, "the log no longer holds what followed"))
        case .success(let read?):
            changesets = read
        }
        for changeset in changesets where changeset.revision == revision + 1 {
            do {
                board = try apply(changeset.changes, to: board)
            } catch {
                return fail(StoreError(.corrupt, boardID: boardID, revision: changeset.revision, "another node's changeset does not apply: \(error)"))
            }
            revision = changeset.revision
            let frame = encode(.changes(Changeset(revision: revision, changes: changeset.changes)))
            recentChangesets.append(frame, revision: revision)
            enqueue(.broadcast(frame))
            // A client that moves to this node and resends is answered as a duplicate.
            if let clientID = changeset.clientID, let opID = changeset.opID {
                outcomes.record(.accepted(revision: revision), clientID: clientID, opID: opID)
            }
        }
        durableRevision = revision
        deliverDurable()
        resumeDurabilityWaiters()
        scheduleExpiry()
        startCatchUp()
    }

    // MARK: Outbox

    private func enqueue(_ delivery: RoomOutbox<Outbound, OutboundFrame>.Delivery) {
        outbox.add(delivery, at: revision)
    }

    /// Sends, in order, everything whose revision is durable. The frames are queued on each
    /// connection here; the writing happens on the event loops, one task per loop.
    private func deliverDurable() {
        var drains = DrainBatch()
        let sends = outbox.release(durable: durableRevision)
        var bytes = 0
        for send in sends {
            bytes += send.frame.bytes.readableBytes
            switch send.connection.enqueue(send.frame) {
            case .queued: break
            case .needsDrain: drains.add(send.connection)
            case .refused: drop(send.connection)
            }
        }
        drains.schedule()
        configuration.metrics.sent(messages: sends.count, bytes: bytes)
    }

    /// Forgets a subscriber whose connection is gone or fell too far behind.
    private func drop(_ subscriber: Outbound) {
        outbox.remove(subscriber.id)
        perform(presence.remove(subscriber.id).effect)
        if subscriber.didOverflow {
            configuration.metrics.slowClientDropped()
            logger.notice("dropped a subscriber that fell behind", metadata: ["tb.connection.id": "\(subscriber.id)"])
        }
    }

    private nonisolated func encode(_ message: ServerMessage) -> OutboundFrame {
        OutboundFrame(message)
    }
}
