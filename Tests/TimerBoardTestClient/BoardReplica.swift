import BoardCore
import BoardProtocol

/// A client's copy of one board, kept by applying what the server sends.
///
/// It checks the server's promises as it goes: revisions follow one by one with no gap or
/// duplicate, and every change fits the board it is applied to.
public struct BoardReplica: Sendable {
    public private(set) var board = Board()
    public private(set) var revision: Int64 = -1

    /// A promise the server broke.
    public struct Violation: Error, CustomStringConvertible {
        public let description: String
    }

    public init() {}

    public init(_ snapshot: ServerMessage.Snapshot) {
        board = snapshot.content
        revision = snapshot.revision
    }

    /// Applies a snapshot, resume or changes message; ignores the others.
    public mutating func apply(_ message: ServerMessage) throws {
        switch message {
        case .snapshot(let snapshot):
            self = BoardReplica(snapshot)
        case .resume(_, _, let since, _):
            guard since == revision else { throw Violation(description: "resume from \(since) but the replica is at \(revision)") }
        case .changes(let changeset):
            guard changeset.revision == revision + 1 else {
                throw Violation(description: "changeset \(changeset.revision) after revision \(revision)")
            }
            board = try BoardCore.apply(changeset.changes, to: board)
            revision = changeset.revision
        default:
            break
        }
    }
}
