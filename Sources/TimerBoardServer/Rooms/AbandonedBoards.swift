import BoardStore
import Logging

/// Boards whose creation the client was told failed (503) but that the store may hold all the
/// same: the store did not answer in time and the write went on, or failed after it was sent.
/// Nobody has their secrets, so nobody could ever open them: each is deleted once its write has
/// ended, and again and again while the store does not answer, until it is gone.
///
/// A write cancelled while it still waited for the store (`CancellationError`) wrote nothing,
/// and a `duplicateBoard` is another board's id: those are left alone.
actor AbandonedBoards {
    private let store: any BoardStore
    private let logger: Logger
    /// How long one delete may take before it counts as failed and is tried again later.
    private let storeTimeout: Duration
    private var waiting: [(boardID: String, write: Task<Void, any Error>)] = []
    private var worker: Task<Void, Never>?
    private var stopped = false

    init(store: any BoardStore, storeTimeout: Duration, logger: Logger) {
        self.store = store
        self.storeTimeout = storeTimeout
        self.logger = logger
    }

    /// Deletes `boardID` once `write` (its creation) has ended, if it may have made it.
    func add(_ boardID: String, write: Task<Void, any Error>) {
        guard !stopped else { return leftBehind([boardID]) }
        waiting.append((boardID, write))
        if worker == nil { worker = Task { await self.work() } }
    }

    /// Boards still waiting, by id (tests, and the warning at shutdown).
    var pending: [String] { waiting.map(\.boardID) }

    /// Stops trying (the server stops); boards not yet deleted are named in the log.
    func stop() {
        stopped = true
        worker?.cancel()
        worker = nil
        leftBehind(pending)
        waiting = []
    }

    private func work() async {
        var pause = Duration.seconds(1)
        while !stopped, let (boardID, write) = waiting.first {
            if case .failure(let error) = await write.result, Self.wroteNothing(error) {
                settled(boardID, deleted: false)
                continue
            }
            do {
                try await Deadline.run(within: storeTimeout) { [store] in try await store.deleteBoard(id: boardID) }
                settled(boardID, deleted: true)
            } catch let error as StoreError where error.kind == .boardNotFound {
                settled(boardID, deleted: false)  // the write made nothing
            } catch {
                if stopped { break }
                logger.warning(
                    "cannot yet delete a board whose creation was answered 503; trying again",
                    metadata: ["tb.board.id": "\(boardID)", "tb.error": "\(error)"]
                )
                do { try await Task.sleep(for: pause) } catch { break }
                pause = min(pause * 2, .seconds(30))
                continue
            }
            pause = .seconds(1)
        }
        worker = nil
    }

    /// The first board waiting is settled: the store holds nothing of it now.
    private func settled(_ boardID: String, deleted: Bool) {
        if !waiting.isEmpty { waiting.removeFirst() }
        logger.log(
            level: deleted ? .notice : .info,
            deleted ? "deleted a board the store made after its creation was answered 503" : "a creation answered 503 made no board",
            metadata: ["tb.event": "board.rolled_back", "tb.board.id": "\(boardID)", "tb.reason": deleted ? "deleted" : "never_written"]
        )
    }

    private static func wroteNothing(_ error: any Error) -> Bool {
        error is CancellationError || (error as? StoreError)?.kind == .duplicateBoard
    }

    private func leftBehind(_ boardIDs: [String]) {
        guard !boardIDs.isEmpty else { return }
        logger.warning(
            "stopping with boards whose creation was answered 503 perhaps still in the store; nobody holds their links",
            metadata: ["tb.board.ids": .array(boardIDs.map { .string($0) })]
        )
    }
}
