import BoardCore
import BoardProtocol
import BoardStore

/// Who sends an edit, as the room knows them: the client id that keys its idempotency (and
/// whose edits it may undo), the role of the link it came through, and the name the history
/// shows. A socket's is its participant's; an HTTP edit's comes from its bearer secret.
struct EditAuthor: Equatable {
    let clientID: String
    let role: BoardRole
    let name: String
}

/// Edits: each is answered once, by an ack or a reject, and applied at most once per
/// (client id, opId), whatever the transport.
extension RoomState {
    /// Answers an edit refused before it reached the board (over the sender's rate), in order
    /// after the answers to the connection's earlier edits.
    mutating func refuse(_ reject: ServerMessage.Reject, to member: Member) -> [Action] {
        enqueue(.direct(member, Self.encode(.reject(reject))))
        return [.count(.editRejected(reject.code))] + deliverDurable()
    }

    /// Applies an edit from a socket's `member` and answers it (ack or reject, once durable).
    /// Returns how many changes it made (0 when none), for the sender's budget.
    mutating func edit(_ edit: ClientMessage.Edit, from member: Member, now: Int64) -> (changes: Int, actions: [Action]) {
        guard !isClosed else {
            let reject = ServerMessage.Reject(opID: edit.opID, code: .internal, message: "the board is reloading; send the edit again")
            return (0, [.count(.editRejected(.internal)), .send([.frame(Self.encode(.reject(reject)), to: member, held: false)])])
        }
        // No participant: its link was just replaced (its socket is being closed) or it fell behind.
        guard let participant = presence.participant(on: member.id) else {
            return (0, refuse(.init(opID: edit.opID, code: .forbidden, message: "this link can only view the board"), to: member))
        }
        let author = EditAuthor(clientID: participant.clientID, role: participant.role, name: participant.name)
        let (answer, changes, actions) = decide(edit, by: author, now: now)
        enqueue(.direct(member, Self.encode(answer)))
        return (changes, actions + deliverDurable())
    }

    /// Applies an edit that came over HTTP and returns its answer, which the caller may give out
    /// once the board's current revision is durable; nil when the room has closed (ask the
    /// registry again).
    mutating func editOverHTTP(_ edit: ClientMessage.Edit, by author: EditAuthor, now: Int64) -> (answer: ServerMessage?, changes: Int, actions: [Action]) {
        guard !isClosed else { return (nil, 0, []) }
        let (answer, changes, actions) = decide(edit, by: author, now: now)
        return (answer, changes, actions + deliverDurable())
    }

    /// The answer to an edit, and what it did: a resend gets its first outcome; otherwise a
    /// deadline that passed before the edit is met first, then the edit applies atomically or
    /// not at all.
    private mutating func decide(_ edit: ClientMessage.Edit, by author: EditAuthor, now: Int64) -> (ServerMessage, changes: Int, [Action]) {
        guard author.role.canEdit else {
            let reject = ServerMessage.Reject(opID: edit.opID, code: .forbidden, message: "this link can only view the board")
            return (.reject(reject), 0, [.count(.editRejected(.forbidden))])
        }
        if let outcome = outcomes.outcome(clientID: author.clientID, opID: edit.opID) {
            switch outcome {
            case .accepted(let revision):
                return (.ack(opID: edit.opID, revision: revision, duplicate: true), 0, [])
            case .unchanged(let revision):
                return (.ack(opID: edit.opID, revision: revision, duplicate: true, unchanged: true), 0, [])
            case .rejected(var reject):
                reject.current = reject.opIndex.flatMap { edit.ops.indices.contains($0) ? currentEntity(edit.ops[$0].entityID) : nil }
                return (.reject(reject), 0, [])
            }
        }
        // A deadline that passed before this edit is met first, in a changeset of the server's
        // own, so the edit applies to the board as it is now, never to a stale one.
        var actions: [Action] = []
        if let deadline = board.nextDeadline, deadline <= now {
            actions = finishExpiredTimers(now: now)
        }
        if let target = edit.undoing {
            return undo(target, in: edit, by: author, now: now, after: actions)
        }
        let changes: [Change]
        let record: EditRecord
        do {
            (changes, record) = try board.applyRecording(edit.ops, limits: settings.limits, now: now)
        } catch {
            let reject = ServerMessage.Reject(
                opID: edit.opID,
                code: ErrorCode(error.error.kind),
                message: error.error.message,
                opIndex: error.operationIndex,
                current: currentEntity(edit.ops[error.operationIndex].entityID)
            )
            outcomes.record(.rejected(reject), clientID: author.clientID, opID: edit.opID)
            return (.reject(reject), 0, actions + [.count(.editRejected(reject.code))])
        }
        guard !changes.isEmpty else {
            // Nothing changed (the values were there already): acked at the current revision.
            outcomes.record(.unchanged(revision: revision), clientID: author.clientID, opID: edit.opID)
            return (.ack(opID: edit.opID, revision: revision, duplicate: false, unchanged: true), 0, actions + [.count(.editAccepted)])
        }
        actions += commit(changes, clientID: author.clientID, opID: edit.opID, now: now, author: author.name, undo: record.backward)
        undoRecords.record(record, clientID: author.clientID, opID: edit.opID)
        return (.ack(opID: edit.opID, revision: revision, duplicate: false), changes.count, actions + [.count(.editAccepted)])
    }

    /// Undoes the author's own edit `target`: what it replaced comes back where the board still
    /// holds what it set; what others changed since stays, and the ack names it (`skipped`). The
    /// undo is an edit like any other, so undoing it is a redo.
    private mutating func undo(
        _ target: String,
        in edit: ClientMessage.Edit,
        by author: EditAuthor,
        now: Int64,
        after earlier: [Action]
    ) -> (ServerMessage, changes: Int, [Action]) {
        guard let record = undoRecords.value(clientID: author.clientID, opID: target) else {
            let message =
                switch outcomes.outcome(clientID: author.clientID, opID: target) {
                case .unchanged?: "edit \(target) changed nothing, so there is nothing to undo"
                case .rejected?: "edit \(target) was refused, so there is nothing to undo"
                // Its undo record was forgotten before its outcome (the per-board bound, or the store's log).
                case .accepted?: "edit \(target) is too old to undo: each client can undo its last \(settings.undoPerClient) edits of a board, \(settings.undoPerBoard) in all"
                case nil: "no edit \(target) of yours to undo: each client can undo its last \(settings.undoPerClient) edits of a board"
                }
            let reject = ServerMessage.Reject(opID: edit.opID, code: .notFound, message: message, opIndex: 0)
            outcomes.record(.rejected(reject), clientID: author.clientID, opID: edit.opID)
            return (.reject(reject), 0, earlier + [.count(.editRejected(.notFound))])
        }
        let (changes, redo, skipped) = board.undo(record, now: now)
        var actions = earlier
        if !changes.isEmpty {
            actions += commit(changes, clientID: author.clientID, opID: edit.opID, now: now, author: author.name, undo: redo.backward)
            undoRecords.record(redo, clientID: author.clientID, opID: edit.opID)
        } else {
            outcomes.record(.unchanged(revision: revision), clientID: author.clientID, opID: edit.opID)
        }
        let ack = ServerMessage.ack(opID: edit.opID, revision: revision, duplicate: false, skipped: skipped, unchanged: changes.isEmpty)
        return (ack, changes.count, actions + [.count(.editAccepted)])
    }

}
