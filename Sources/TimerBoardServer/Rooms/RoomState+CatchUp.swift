import BoardCore
import BoardProtocol
import BoardStore

/// Catching up with what other nodes appended to a shared store.
extension RoomState {
    /// What reading the other nodes' changesets gave.
    enum CatchUpRead {
        case changesets([StoredChangeset])
        /// The log no longer holds what followed (pruned behind a snapshot, or the board was
        /// deleted): only a fresh load has it.
        case gone
        case failed(RoomCloseReason)
    }

    /// The shared store says the board's log reaches `revision` (another node's append, or this
    /// node's own), or nil when anything may have been missed (the feed reconnected).
    mutating func otherNodeAppended(upTo revision: Int64?) -> [Action] {
        if let revision, revision <= self.revision { return [] }  // ours, or read already
        catchUpWanted = true
        return startCatchUp()
    }

    /// Reads what other nodes appended once this node's own appends are stored: until then they
    /// either land first (and the read follows them) or lose their claim (and the room reloads).
    mutating func startCatchUp() -> [Action] {
        guard catchUpWanted, !isCatchingUp, !isClosed, isDurable else { return [] }
        catchUpWanted = false
        isCatchingUp = true
        return [.catchUp(after: revision)]
    }

    /// Applies what a read after revision `from` found, in order, each changeset once: a node
    /// catching up never reorders or duplicates. Other nodes' changesets are durable already.
    mutating func caughtUp(_ read: CatchUpRead, after from: Int64) -> [Action] {
        isCatchingUp = false
        guard !isClosed else { return [] }
        guard revision == from else {
            // This node applied an edit meanwhile: read again once it is stored (or refused).
            catchUpWanted = true
            return startCatchUp()
        }
        let changesets: [StoredChangeset]
        switch read {
        case .failed(let reason): return close(reason)
        case .gone: return close(.lostClaim("board \(boardID): the log no longer holds what followed revision \(from)"))
        case .changesets(let read): changesets = read
        }
        var actions: [Action] = []
        for changeset in changesets where changeset.revision == revision + 1 {
            do {
                board = try apply(changeset.changes, to: board)
            } catch {
                return close(.storeFailed("board \(boardID), revision \(changeset.revision): another node's changeset does not apply: \(error)"))
            }
            revision = changeset.revision
            let frame = Self.encode(.changes(Changeset(revision: revision, changes: changeset.changes)))
            recentChangesets.append(frame, revision: revision)
            enqueue(.broadcast(frame))
            // A client that moves to this node and resends is answered as a duplicate, and can
            // undo the edit here.
            if let clientID = changeset.clientID, let opID = changeset.opID {
                outcomes.record(.accepted(revision: revision), clientID: clientID, opID: opID)
                if let undo = changeset.undo {
                    undoRecords.record(EditRecord(forward: changeset.changes, backward: undo), clientID: clientID, opID: opID)
                }
            }
        }
        durableRevision = revision
        actions += deliverDurable() + [.releaseWaiters]
        // Another node's changesets may have moved the next deadline (a timer started there).
        actions += scheduleWake()
        return actions + startCatchUp()
    }
}
