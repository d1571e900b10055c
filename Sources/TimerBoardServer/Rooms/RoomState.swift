import BoardCore
import BoardProtocol
import BoardStore
import NIOCore
import TimerBoardTransport

/// Everything one live board knows, and every decision about it, with no I/O: no task, no
/// store, no socket. Each mutating method takes an event (an edit, a join, "stored up to r",
/// another node's changesets, a deadline, a close) and returns what to do, as `RoomAction`s
/// that `BoardRoom` performs in order. Its promises are tested on it directly (RoomStateTests).
///
/// Every changeset gets the next revision and is kept for resume; what the room sends goes
/// through the outbox, tagged with the revision of the moment, and leaves only once that
/// revision is durable: an ack means "stored", a joiner's snapshot never shows what a crash
/// could take back, and every subscriber sees every changeset once, in order.
///
/// Its properties change only through its event methods (here and in `RoomState+*.swift`);
/// they are not private only so that those extensions, one file per concern, can reach them.
struct RoomState<Member: RoomMember> {
    typealias Action = RoomAction<Member>

    let boardID: String
    let settings: RoomSettings
    var title: String
    /// Hashes of the link secrets; nil for a board from before links, which nobody can join.
    var access: BoardAccess?
    var board: Board
    /// The revision of `board`: the last applied changeset.
    var revision: Int64
    /// The last revision the store has made durable.
    var durableRevision: Int64
    private var lastSnapshotRevision: Int64
    /// Bytes of the changesets since: a snapshot is also due when they reach half the resume
    /// budget, so a load replays little however large the changesets (a few hundred of 5.9 MB
    /// each took gigabytes and over the store's timeout).
    private var bytesSinceSnapshot = 0
    /// Why the room closed; nil while it is open. A closed room takes no more work.
    private(set) var closedFor: RoomCloseReason?
    var presence: PresenceTracker<OutboundFrame>
    var recentChangesets: ChangesetLog
    var outcomes: OutcomeLog
    /// What it takes to undo each client's last edits, by op id.
    var undoRecords: ClientRecords<EditRecord>
    /// Deliveries waiting for their revision to be durable, and who is subscribed.
    var outbox = RoomOutbox<Member, OutboundFrame>()
    /// The snapshot of the current revision, encoded (and compressed) once per revision.
    var snapshots = SnapshotCache<OutboundFrame>()
    /// Another node appended and the room has not read it yet; a read is under way.
    var catchUpWanted = false
    var isCatchingUp = false
    /// The deadline the room's wake-up is aimed at.
    private var scheduledDeadline: Int64?
    private var isAnnouncing = false
    /// HTTP requests using the room now: a room in use is not idle.
    private var requestsInProgress = 0
    /// The board's webhook endpoints, and the warnings handed to the store.
    var webhooks: RoomWebhooks

    /// What a join did.
    enum JoinResult: Equatable {
        case joined
        /// The secret is not one of this board's: answered as if there were no board.
        case denied
        /// The room has closed: ask the registry again.
        case closed
    }

    init(stored: StoredBoard, settings: RoomSettings) {
        boardID = stored.info.id
        self.settings = settings
        title = stored.info.title
        access = stored.access
        board = stored.content
        revision = stored.revision
        durableRevision = stored.revision
        lastSnapshotRevision = stored.revision
        presence = PresenceTracker(sharedWithOtherNodes: settings.sharedWithOtherNodes)
        recentChangesets = ChangesetLog(
            capacity: settings.retainedChangesets,
            maxBytes: settings.retainedChangesetBytes,
            nextRevision: stored.recentChangesets.first?.revision ?? stored.revision + 1
        )
        outcomes = OutcomeLog(limitPerClient: settings.outcomesPerClient, limitInTotal: settings.outcomesPerBoard)
        undoRecords = ClientRecords(
            limitPerClient: settings.undoPerClient,
            limitInTotal: settings.undoPerBoard,
            weightLimit: settings.undoBytesPerBoard,
            weight: \.estimatedBytes
        )
        webhooks = RoomWebhooks(stored.webhooks)
        // Edits the load read no more of than who made them: a resend is still a duplicate.
        for edit in stored.olderEdits {
            outcomes.record(.accepted(revision: edit.revision), clientID: edit.clientID, opID: edit.opID)
        }
        for changeset in stored.recentChangesets {
            recentChangesets.append(Self.encode(.changes(Changeset(revision: changeset.revision, changes: changeset.changes))), revision: changeset.revision)
            if let clientID = changeset.clientID, let opID = changeset.opID {
                outcomes.record(.accepted(revision: changeset.revision), clientID: clientID, opID: opID)
                if let undo = changeset.undo {
                    undoRecords.record(EditRecord(forward: changeset.changes, backward: undo), clientID: clientID, opID: opID)
                }
            }
        }
    }

    // MARK: Reading

    var isClosed: Bool { closedFor != nil }

    /// Nothing applied waits to be stored.
    var isDurable: Bool { durableRevision == revision }

    /// The board and its revision, as the last durable state plus edits in flight.
    var snapshot: ServerMessage.Snapshot {
        ServerMessage.Snapshot(board: boardID, title: title, revision: revision, content: board)
    }

    var runningTimerCount: Int {
        board.timers.values.reduce(0) { $0 + ($1.run.status == .running ? 1 : 0) }
    }

    /// Nobody is subscribed and nothing waits to be stored, read or sent. Running timers do not
    /// keep a board in memory (the next load finishes those that ran out), unless its webhooks
    /// want to hear of them when they happen.
    var isIdle: Bool {
        outbox.subscribers.isEmpty && outbox.isEmpty && isDurable && !isCatchingUp && requestsInProgress == 0 && !isKeptForWebhooks
    }

    /// Keeps the room open for an HTTP request until `endRequest`; false when it has closed.
    mutating func beginRequest() -> Bool {
        guard !isClosed else { return false }
        requestsInProgress += 1
        return true
    }

    mutating func endRequest() {
        requestsInProgress -= 1
    }

    // MARK: Joining and leaving

    /// Subscribes `member` when the secret hashed to `secretHash` is one of the board's: it gets
    /// its role, then a snapshot (or, with `since` still in the log and the catch-up fitting half
    /// its queue, a resume and the missed changesets), the presence list, then every later
    /// changeset, with no gap or duplicate.
    mutating func join(_ member: Member, since: Int64?, secretHash: [UInt8], clientID: String, name: String) -> (JoinResult, [Action]) {
        guard !isClosed else { return (.closed, []) }
        guard let role = access?.role(ofHash: secretHash) else { return (.denied, []) }
        let participant = Participant(clientID: clientID, boardID: boardID, name: name, role: role)
        var actions: [Action] = []
        enqueue(.direct(member, Self.encode(.access(board: boardID, role: role, userID: participant.userID))))
        if let since, since <= revision, let missed = recentChangesets.frames(after: since), missed.count <= member.capacity / 2 {
            enqueue(.direct(member, Self.encode(.resume(board: boardID, title: title, since: since, revision: revision))))
            for frame in missed { enqueue(.direct(member, frame)) }
            actions.append(.count(.joined(resumed: true)))
        } else {
            enqueue(.direct(member, snapshotFrame(compressed: member.acceptsDeflate)))
            actions.append(.count(.joined(resumed: false)))
        }
        let effect = presence.add(participant, on: member.id)
        // The list is encoded once per flush interval and shared by every joiner until then:
        // encoding it for each of N joiners made a crowd's arrival cost N².
        enqueue(.direct(member, presence.joinerList { Self.encode(.presence($0, more: $1)) }))
        enqueue(.subscribe(member))
        actions += presenceActions(effect)
        if settings.sharedWithOtherNodes, !isAnnouncing {
            isAnnouncing = true
            actions.append(.announcePresenceRegularly)
        }
        return (.joined, actions + deliverDurable())
    }

    /// The member left, its connection went, or its queue refused a frame: nothing more is sent
    /// to it, and a join still waiting in the outbox does not subscribe it later.
    mutating func leave(_ memberID: Int) -> [Action] {
        let dropped = outbox.pendingDirects(to: memberID)
        var actions: [Action] = []
        if let (member, wasSubscribed) = outbox.remove(memberID) {
            if dropped > 0 { member.releaseHeldAnswers(dropped) }
            if wasSubscribed { actions.append(.send([.unsubscribe(member)])) }
        }
        return actions + presenceActions(presence.remove(memberID).effect)
    }

    /// The snapshot of the current revision, encoded (and compressed) once per revision.
    mutating func snapshotFrame(compressed: Bool) -> OutboundFrame {
        while true {
            switch snapshots.next(revision: revision, compressed: compressed) {
            case .send(let frame): return frame
            case .encode: snapshots.store(Self.encode(.snapshot(snapshot)), compressed: false, revision: revision)
            case .compress(let plain): snapshots.store(OutboundFrame(deflating: plain), compressed: true, revision: revision)
            }
        }
    }

    // MARK: Revisions

    /// Makes changes the next revision: kept for resume, stored, then sent to everyone once
    /// durable. The edit's (client, opId), when it has one, is answered from now on as this revision.
    mutating func commit(
        _ changes: [Change],
        clientID: String?,
        opID: String?,
        now: Int64,
        author: String? = nil,
        undo: [Change]? = nil,
        handOvers: [SequenceHandOver] = []
    ) -> [Action] {
        revision += 1
        let frame = Self.encode(.changes(Changeset(revision: revision, changes: changes)))
        recentChangesets.append(frame, revision: revision)
        enqueue(.broadcast(frame))
        var actions: [Action] = [.count(.changesetCommitted(subscribers: outbox.subscribers.count))]
        if let clientID, let opID {
            outcomes.record(.accepted(revision: revision), clientID: clientID, opID: opID)
        }
        bytesSinceSnapshot += frame.bytes.readableBytes
        let snapshotDue = revision - lastSnapshotRevision >= Int64(settings.snapshotInterval) || bytesSinceSnapshot >= settings.retainedChangesetBytes / 2
        if snapshotDue {
            lastSnapshotRevision = revision
            bytesSinceSnapshot = 0
        }
        let stored = StoredChangeset(
            boardID: boardID,
            revision: revision,
            changes: changes,
            clientID: clientID,
            opID: opID,
            time: now,
            author: author,
            undo: undo
        )
        let deliveries = webhookDeliveries(for: changes, serverMade: clientID == nil, handOvers: handOvers, now: now)
        actions.append(.save(stored, snapshot: snapshotDue ? board : nil, deliveries: deliveries))
        return actions + scheduleWake()
    }

    func currentEntity(_ id: EntityID?) -> ServerMessage.Entity? {
        guard let id else { return nil }
        return if let section = board.sections[id] { .section(section) } else if let timer = board.timers[id] { .timer(timer) } else { nil }
    }

    // MARK: Timers

    /// Repairs what the store kept but an edit could not have made (order keys too long or of an
    /// older form) and finishes timers that ran out while the board was not loaded; once, after
    /// loading. A repair is a changeset of the server's own, so resuming clients get it too.
    mutating func activate(now: Int64) -> (repairedChanges: Int, actions: [Action]) {
        let (repaired, changes) = board.repairedOrder()
        var actions: [Action] = []
        if !changes.isEmpty {
            board = repaired
            actions = commit(changes, clientID: nil, opID: nil, now: now)
        }
        return (changes.count, actions + finishExpiredTimers(now: now))
    }

    /// Finishes every timer whose deadline has passed, each at its deadline, and hands over to
    /// the next timer of a sequence at that instant, as one changeset of the server's own.
    mutating func finishExpiredTimers(now: Int64) -> [Action] {
        scheduledDeadline = nil
        guard !isClosed else { return [] }
        let (changes, handOvers) = board.finishExpiredTimersHandingOver(now: now)
        guard !changes.isEmpty else { return scheduleWake() }
        let finished = changes.count { change in
            if case .updateTimer(_, let patch) = change { patch.run?.status == .finished } else { false }
        }
        return [.count(.timersFinished(finished))] + commit(changes, clientID: nil, opID: nil, now: now, handOvers: handOvers)
    }

    /// Keeps the one wake-up aimed at the earliest deadline of a running timer (and the
    /// webhooks' at the earliest warning).
    mutating func scheduleWake() -> [Action] {
        let next = board.nextDeadline
        guard next != scheduledDeadline else { return aimWarnings() }
        scheduledDeadline = next
        return [.wakeAt(next)] + aimWarnings()
    }

    // MARK: Durability

    /// The store made everything up to `last` durable: what waited for it leaves.
    mutating func stored(upTo last: Int64) -> [Action] {
        durableRevision = max(durableRevision, last)
        return deliverDurable() + [.releaseWaiters] + startCatchUp() + releaseAfterWebhooks()
    }

    /// Queues a delivery; a `.direct` one is counted as held by its connection until it leaves
    /// (`LoopSubscribers`), so its session puts its own answers behind it.
    mutating func enqueue(_ delivery: RoomOutbox<Member, OutboundFrame>.Delivery) {
        if case .direct(let member, _) = delivery { member.holdAnswer() }
        outbox.add(delivery, at: revision)
    }

    /// Answers the member's own message (a pong, an error), after the answers the room holds for
    /// its earlier messages.
    mutating func answer(_ frame: OutboundFrame, to member: Member) -> [Action] {
        guard !isClosed else { return [.send([.frame(frame, to: member, held: false)])] }
        enqueue(.direct(member, frame))
        return deliverDurable()
    }

    /// Everything whose revision is durable, in order, as sends.
    mutating func deliverDurable() -> [Action] {
        let sends = outbox.release(durable: durableRevision)
        return sends.isEmpty ? [] : [.send(sends)]
    }

    // MARK: Closing

    /// Closes the room, for any reason, as `RoomClosing.table` says: no more work, every
    /// connection still known (subscribed or still waiting for its join's answer) closed with
    /// the reason's code, presence forgotten, waiters answered.
    mutating func close(_ reason: RoomCloseReason) -> [Action] {
        guard !isClosed else { return [] }
        closedFor = reason
        let closing = RoomClosing.table(reason)
        if closing.forgetsAccess { access = nil }
        var actions: [Action] = [.closed(reason)]
        for member in outbox.removeAll() {
            actions.append(.disconnect(member, closing.code, closing.message))
        }
        presence.removeAll()
        if closing.tellsOtherNodes, settings.sharedWithOtherNodes {
            actions.append(.tellOtherNodes(PresenceNews(scope: .full, users: [], left: [])))
        }
        if let count = closing.count { actions.append(.count(count)) }
        return actions + [.releaseWaiters]
    }

    /// Closes the room when it is idle (nil when it is not), so the registry can drop it.
    mutating func closeIfIdle() -> [Action]? {
        isIdle ? close(.idle) : nil
    }

    static func encode(_ message: ServerMessage) -> OutboundFrame {
        OutboundFrame(message)
    }
}
