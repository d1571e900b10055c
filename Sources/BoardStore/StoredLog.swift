import BoardCore

/// What every store does with a board's log once read, whatever the engine: the rules are
/// the store contract's, so they live once.
enum StoredLog {
    /// True when `log`, oldest first, holds exactly the revisions after `revision` through `last`.
    static func holdsEvery(_ log: some Collection<StoredChangeset>, after revision: Int64, through last: Int64) -> Bool {
        log.count == Int(max(0, last - revision)) && zip(log, (revision + 1)...).allSatisfy { $0.revision == $1 }
    }

    /// The first revision a load reads whole: the newest changesets whose stored sizes
    /// (`sizes`, newest first: revision and bytes) fit `budget`, and every one after the
    /// snapshot, which the board is rebuilt from. A log of many large changesets (undo and redo
    /// of a big delete) took gigabytes and longer than the store's timeout to load, and the
    /// room keeps only `budget` bytes of them for resume anyway; older ones are read as
    /// `StoredEditID`s only.
    static func firstWholeRevision(sizes: [(revision: Int64, bytes: Int)], budget: Int, snapshotRevision: Int64) -> Int64 {
        var total = 0
        var first = Int64.max
        for (revision, bytes) in sizes {
            total += bytes
            guard total <= budget || revision > snapshotRevision else { break }
            first = revision
        }
        return min(first, snapshotRevision + 1)
    }

    /// The board at `revision`: `snapshot` (at `snapshotRevision`) with the later changesets of
    /// `log` applied, and the log's last `retained` changesets for resume. A log missing one
    /// of the revisions to replay is corrupt.
    static func board(
        info: BoardInfo,
        access: BoardAccess?,
        snapshot: Board,
        snapshotRevision: Int64,
        revision: Int64,
        log: [StoredChangeset],
        olderEdits: [StoredEditID] = [],
        retained: Int64,
        webhooks: [WebhookEndpoint]
    ) throws -> StoredBoard {
        let replay = log.filter { $0.revision > snapshotRevision }
        guard holdsEvery(replay, after: snapshotRevision, through: revision) else {
            throw StoreError(
                .corrupt,
                boardID: info.id,
                revision: revision,
                "the log does not hold every revision after snapshot \(snapshotRevision)"
            )
        }
        var content = snapshot
        for changeset in replay {
            content = try apply(changeset.changes, to: content)
        }
        return StoredBoard(
            info: info,
            access: access,
            content: content,
            revision: revision,
            recentChangesets: log.filter { $0.revision > revision - retained },
            olderEdits: olderEdits.filter { $0.revision > revision - retained },
            webhooks: webhooks
        )
    }
}
