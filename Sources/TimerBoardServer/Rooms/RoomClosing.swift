import BoardStore
import Logging
import NIOWebSocket

/// Why a room closes. Every close, whatever its reason, goes through `RoomState.close(_:)`,
/// which does what the reason's row of `RoomClosing.table` says.
enum RoomCloseReason: Equatable, Sendable {
    /// Nobody is on the board and everything is durable: it leaves memory.
    case idle
    /// The board was deleted, here or on another node.
    case deleted
    /// The store failed to append or to read: memory is ahead of the disk and must not be served.
    case storeFailed(String)
    /// Another node wrote the board first: this node's copy is stale and is loaded again.
    case lostClaim(String)
    /// The server is stopping, and everything the room applied is durable.
    case shutdown

    /// Why a store's error closes the room: another node won the revision, or the store failed.
    init(storeError error: any Error) {
        self = (error as? StoreError)?.kind == .revisionConflict ? .lostClaim("\(error)") : .storeFailed(String(reflecting: error))
    }

    /// The reason's stable name, for the log (`tb.reason` of `board.unloaded`).
    var name: String {
        switch self {
        case .idle: "idle"
        case .deleted: "deleted"
        case .storeFailed: "store_failed"
        case .lostClaim: "lost_claim"
        case .shutdown: "shutdown"
        }
    }

    /// The fields of its `board.unloaded` line.
    var logMetadata: Logger.Metadata {
        var metadata: Logger.Metadata = ["tb.event": "board.unloaded", "tb.reason": "\(name)"]
        if let detail { metadata["tb.error"] = "\(detail)" }
        return metadata
    }

    /// What went wrong, for the log.
    var detail: String? {
        switch self {
        case .storeFailed(let detail), .lostClaim(let detail): detail
        case .idle, .deleted, .shutdown: nil
        }
    }
}

/// What closing for one reason does.
struct RoomClosing: Equatable {
    /// The close code and reason every connection still on the board gets (it may rejoin).
    let code: WebSocketErrorCode
    let message: String
    /// Whether the other nodes are told this node has nobody on the board any more, at once
    /// rather than after the silence limit. A deleted board's nodes learn it from the store.
    let tellsOtherNodes: Bool
    /// Whether the links are forgotten, so not even a join already under way gets in.
    let forgetsAccess: Bool
    /// What `/metrics` counts.
    let count: RoomCount?
    /// How the close is logged; nil: not at all (the caller logged it with more to say).
    let logLevel: Logger.Level?
    let logMessage: String

    /// The table: one row per reason.
    static func table(_ reason: RoomCloseReason) -> RoomClosing {
        switch reason {
        case .idle:
            RoomClosing(
                code: .goingAway, message: "nobody is on the board", tellsOtherNodes: true, forgetsAccess: false, count: nil,
                logLevel: .info, logMessage: "unloaded the board: nobody is on it"
            )
        case .deleted:
            RoomClosing(
                code: closeCode(4410), message: "the board was deleted", tellsOtherNodes: false, forgetsAccess: true, count: nil,
                logLevel: nil, logMessage: "the board was deleted"
            )
        case .storeFailed:
            RoomClosing(
                code: .unexpectedServerError, message: "the board failed to store an edit; rejoin with since", tellsOtherNodes: true,
                forgetsAccess: false, count: nil, logLevel: .error, logMessage: "unloaded the board: the store failed"
            )
        case .lostClaim:
            RoomClosing(
                code: closeCode(1012), message: "the board changed on another node; rejoin with since", tellsOtherNodes: true,
                forgetsAccess: false, count: .revisionClaimLost, logLevel: .notice,
                logMessage: "unloaded the board: another node wrote it first; it loads again at the next join"
            )
        case .shutdown:
            RoomClosing(
                code: .goingAway, message: "the server is stopping; rejoin with since", tellsOtherNodes: true, forgetsAccess: false,
                count: nil, logLevel: .debug, logMessage: "unloaded the board: the server is stopping"
            )
        }
    }

    /// Close codes of docs/protocol.md, "Links and roles" and "Closing".
    static let linkReplacedCode = closeCode(4403)

    private static func closeCode(_ number: UInt16) -> WebSocketErrorCode {
        WebSocketErrorCode(codeNumber: Int(number))
    }
}
