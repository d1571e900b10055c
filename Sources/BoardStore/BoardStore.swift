import BoardCore
import Foundation

/// What a board is called and when it was made; listed on the start page.
public struct BoardInfo: Hashable, Sendable {
    public let id: String
    public var title: String
    public let createdDate: Int64

    public init(id: String, title: String, createdDate: Int64) {
        self.id = id
        self.title = title
        self.createdDate = createdDate
    }
}

/// Who may reach a board: SHA-256 hashes of its three link secrets, never the secrets, and how
/// often the edit and view links were replaced (the server derives those two secrets from the
/// owner's and the count, so an owner can be shown them again).
public struct BoardAccess: Hashable, Sendable {
    public var ownerHash: [UInt8]
    public var editHash: [UInt8]
    public var viewHash: [UInt8]
    public var editGeneration: Int
    public var viewGeneration: Int

    public init(ownerHash: [UInt8], editHash: [UInt8], viewHash: [UInt8], editGeneration: Int, viewGeneration: Int) {
        self.ownerHash = ownerHash
        self.editHash = editHash
        self.viewHash = viewHash
        self.editGeneration = editGeneration
        self.viewGeneration = viewGeneration
    }

    /// From a stored row: nil when any hash is missing (a board without links).
    public init?(ownerHash: Data?, editHash: Data?, viewHash: Data?, editGeneration: Int, viewGeneration: Int) {
        guard let ownerHash, let editHash, let viewHash else { return nil }
        self.init(
            ownerHash: Array(ownerHash),
            editHash: Array(editHash),
            viewHash: Array(viewHash),
            editGeneration: editGeneration,
            viewGeneration: viewGeneration
        )
    }
}

/// One accepted edit as the log keeps it.
public struct StoredChangeset: Hashable, Sendable {
    public let boardID: String
    public let revision: Int64
    public let changes: [Change]
    /// Who made the edit, for idempotent resubmission; nil for changes the server made itself.
    public let clientID: String?
    public let opID: String?
    /// Server time of the edit, epoch milliseconds.
    public let time: Int64
    /// The name its author gave (`hello`'s name), for the board's history; nil for changes the
    /// server made itself.
    public let author: String?
    /// The changes that put back what it replaced, so its author can undo it (and a deleted item
    /// can be restored from the history); nil for changes the server made itself.
    public let undo: [Change]?

    public init(
        boardID: String,
        revision: Int64,
        changes: [Change],
        clientID: String?,
        opID: String?,
        time: Int64,
        author: String? = nil,
        undo: [Change]? = nil
    ) {
        self.boardID = boardID
        self.revision = revision
        self.changes = changes
        self.clientID = clientID
        self.opID = opID
        self.time = time
        self.author = author
        self.undo = undo
    }
}

/// A board as loaded from the store: its last acked state and the tail of its log.
public struct StoredBoard: Hashable, Sendable {
    public let info: BoardInfo
    /// Nil for a board made before links existed: nobody can reach it until an operator gives
    /// it links (`timerboard reset-links`).
    public let access: BoardAccess?
    public let content: Board
    public let revision: Int64
    /// The retained changesets, oldest first, ending at `revision`: enough to resume clients
    /// and to recognise resent edits.
    public let recentChangesets: [StoredChangeset]
    /// Retained edits older than `recentChangesets`, which a load leaves unread beyond a byte
    /// budget: only who made them (client and opId), so a resend of one is still recognised.
    public let olderEdits: [StoredEditID]
    /// The endpoints its owner registered, oldest first.
    public let webhooks: [WebhookEndpoint]

    public init(
        info: BoardInfo,
        access: BoardAccess?,
        content: Board,
        revision: Int64,
        recentChangesets: [StoredChangeset],
        olderEdits: [StoredEditID] = [],
        webhooks: [WebhookEndpoint] = []
    ) {
        self.info = info
        self.access = access
        self.content = content
        self.revision = revision
        self.recentChangesets = recentChangesets
        self.olderEdits = olderEdits
        self.webhooks = webhooks
    }
}

/// Who made a stored edit, and its revision: what recognises a resend of it.
public struct StoredEditID: Hashable, Sendable {
    public let revision: Int64
    public let clientID: String
    public let opID: String

    public init(revision: Int64, clientID: String, opID: String) {
        self.revision = revision
        self.clientID = clientID
        self.opID = opID
    }
}

/// An endpoint and its most recent attempts, newest first, for its owner.
public struct WebhookReport: Hashable, Sendable {
    public let endpoint: WebhookEndpoint
    public let attempts: [WebhookAttempt]

    public init(endpoint: WebhookEndpoint, attempts: [WebhookAttempt]) {
        self.endpoint = endpoint
        self.attempts = attempts
    }
}

/// Durable storage of boards: an op log per board plus periodic snapshots.
///
/// Every implementation must pass the contract suite in Tests/BoardStoreTests.
public protocol BoardStore: Sendable {
    /// Adds an empty board at revision 0. Throws `StoreError.duplicateBoard` if the id exists.
    func createBoard(_ info: BoardInfo, access: BoardAccess) async throws
    /// Boards, newest first.
    func boards(limit: Int) async throws -> [BoardInfo]
    /// The board at its last appended revision, or nil when there is no such board.
    func loadBoard(id: String) async throws -> StoredBoard?
    /// The board's link hashes, or nil when there is no such board or it has no links: what a
    /// secret is checked against before the whole board is loaded.
    func loadAccess(id: String) async throws -> BoardAccess?
    /// Every changeset of the board after `revision`, oldest first: how a node catches up with
    /// what other nodes appended. Nil when there is no such board, or when the log no longer
    /// holds all of them (pruned behind a snapshot): then load the board instead.
    func changesets(boardID: String, after revision: Int64) async throws -> [StoredChangeset]?
    /// What the log still holds of the board, newest first: at most `limit` changesets before
    /// revision `before` (all of the newest without it). The board's history and report.
    func history(boardID: String, before: Int64?, limit: Int) async throws -> [StoredChangeset]
    /// Appends the next changesets of one board, in revision order, in one transaction; durable
    /// when this returns. With `snapshot` (the board's content at the last of them), the snapshot
    /// is stored too, and log entries no longer needed for replay or resume are pruned.
    ///
    /// Throws `StoreError.revisionConflict` unless the revisions continue the board's last one
    /// by one: a revision is written once, ever.
    ///
    /// `deliveries` (the webhooks' events these changesets caused) join the outbox in the same
    /// transaction, so a crash loses neither or both; one whose endpoint is gone or disabled by
    /// then is left out, and one with a `coalesceKey` already waiting replaces that one's payload.
    func append(_ changesets: [StoredChangeset], snapshot: Board?, deliveries: [WebhookDelivery]) async throws
    /// Replaces who may reach the board. Throws `StoreError.boardNotFound` when there is none.
    func setAccess(_ access: BoardAccess, boardID: String) async throws
    /// Renames the board. Throws `StoreError.boardNotFound` when there is none.
    func renameBoard(id: String, title: String) async throws
    /// Removes the board, its log, its snapshot and its endpoints, and adds `deliveries` (its
    /// `board.deleted` events) to the outbox in the same transaction. Throws
    /// `StoreError.boardNotFound` when there is none.
    func deleteBoard(id: String, deliveries: [WebhookDelivery]) async throws
    /// Lets go of the database (files, connections); call once, after the last write is durable.
    func close() async throws
    /// Returns when the store answers a small read, throws why not: what `/ready` and
    /// `timerboard_store_up` ask. A store may repair its connections here (PostgreSQL's pool).
    func check() async throws

    // MARK: Webhooks

    /// Adds an endpoint to its board. Throws `StoreError.boardNotFound` when there is no such
    /// board, `StoreError.limitReached` when it has `limit` endpoints already.
    func createWebhook(_ endpoint: WebhookEndpoint, limit: Int) async throws
    /// Removes an endpoint, its attempts and its deliveries not sent yet; false when the board
    /// has no such endpoint.
    func deleteWebhook(id: String, boardID: String) async throws -> Bool
    /// The board's endpoints, oldest first, each with its last `webhookAttemptsKept` attempts.
    func webhooks(boardID: String) async throws -> [WebhookReport]
    /// The boards that have an enabled endpoint, in id order.
    func boardsWithWebhooks() async throws -> [String]
    /// Adds deliveries that no changeset caused (a timer's warning), with the rules of `append`.
    func enqueue(_ deliveries: [WebhookDelivery]) async throws
    /// Leases up to `limit` deliveries due at `now`, earliest first, until `leaseUntil`: no other
    /// caller (on any node) gets them meanwhile. A `coalesceKey` is cleared as its send begins.
    func claimDeliveries(now: Int64, limit: Int, leaseUntil: Int64) async throws -> [WebhookDelivery]
    /// When the earliest delivery can next be claimed (its due time, or its lease's end), or
    /// nil when the outbox is empty: how long a sender may sleep.
    func nextDeliveryTime() async throws -> Int64?
    /// Records an attempt at a leased delivery and what it means: delivered or failed, the
    /// delivery leaves the outbox; retried, it waits until then, unleased. The endpoint's
    /// `failingSince` is set by a failure (if not set) and cleared by a success. Returns the
    /// endpoint as it is now, or nil when it is gone.
    @discardableResult
    func recordAttempt(_ attempt: WebhookAttempt, of delivery: WebhookDelivery, outcome: WebhookAttemptOutcome) async throws -> WebhookEndpoint?
    /// Disables an endpoint with its reason and drops its deliveries not sent yet.
    func disableWebhook(id: String, boardID: String, reason: String) async throws
    /// How many deliveries wait to be sent (on a shared store: by every node).
    func pendingDeliveryCount() async throws -> Int
    /// Takes back the leases of senders that died with them: on a store only one node uses
    /// (SQLite), every lease; a shared store waits for them to run out.
    func releaseAbandonedLeases() async throws
}

extension BoardStore {
    /// An append that causes no webhook delivery.
    public func append(_ changesets: [StoredChangeset], snapshot: Board?) async throws {
        try await append(changesets, snapshot: snapshot, deliveries: [])
    }

    /// A delete that tells no endpoint.
    public func deleteBoard(id: String) async throws {
        try await deleteBoard(id: id, deliveries: [])
    }

    public func check() async throws {
        _ = try await boards(limit: 1)
    }
}

/// A store's pool of database connections, for `/metrics`.
public protocol StoreConnectionPool: Sendable {
    /// Connections the store's calls hold now.
    var connectionsInUse: Int { get }
    /// The store's calls waiting for a connection now.
    var callsWaiting: Int { get }
    /// The most connections the pool opens.
    var maximumConnections: Int { get }
}

/// Errors a store reports in terms of the domain.
public struct StoreError: Error, Hashable, Sendable, CustomStringConvertible {
    public enum Kind: Hashable, Sendable {
        case duplicateBoard
        case boardNotFound
        case revisionConflict
        /// Stored data cannot be read: the store's fault, never the client's.
        case corrupt
        /// Stored data is in a format this version does not know (written by a newer one).
        case unsupportedFormat
        /// The database could not be reached, or refused the statement: the message says what
        /// it said (PostgreSQL's own words and SQLSTATE), never a password.
        case unavailable
        /// A board has as many of something (webhook endpoints) as it may.
        case limitReached
    }

    public let kind: Kind
    /// The board the error is about, when it is about one.
    public let boardID: String?
    /// The revision of the row that could not be read or written, when there is one.
    public let revision: Int64?
    public let message: String

    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.boardID = nil
        self.revision = nil
        self.message = message
    }

    /// An error about one row of one board; the description names both.
    public init(_ kind: Kind, boardID: String, revision: Int64?, _ message: String) {
        self.kind = kind
        self.boardID = boardID
        self.revision = revision
        self.message = message
    }

    public var description: String {
        switch (boardID, revision) {
        case (let boardID?, let revision?): "board \(boardID), revision \(revision): \(message)"
        case (let boardID?, nil): "board \(boardID): \(message)"
        default: message
        }
    }
}
