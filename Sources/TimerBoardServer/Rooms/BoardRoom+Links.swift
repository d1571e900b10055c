import BoardProtocol
import BoardStore
import Logging

/// A change of who may reach a board, as `BoardRoom.changeAccess` performs it: the new links,
/// the roles whose sockets it closes, what the caller gets back, and its log line.
struct AccessChange<Result: Sendable>: Sendable {
    let access: BoardAccess
    let ending: Set<BoardRole>
    let result: Result
    let log: Logger.Message
    let metadata: Logger.Metadata
}

/// The calls that change a board's links.
extension BoardRoom {
    /// Replaces the edit or view link, derived from the owner secret; the old link stops at once
    /// (its sockets close, 4403). Returns the new secret, or nil when `ownerSecret` is not the board's.
    func replaceLink(_ role: BoardRole, ownerSecret: String) async throws -> String? {
        precondition(role != .owner, "the owner link is not replaced")
        return try await changeAccess { access in
            guard let access, let secrets = BoardSecrets.recover(owner: ownerSecret, access: access) else { return nil }
            let replaced = secrets.replacing(role)
            return AccessChange(
                access: replaced.access,
                ending: [role],
                result: replaced.secret(for: role),
                log: "replaced a link",
                metadata: ["tb.event": "board.link_replaced", "tb.role": "\(role.rawValue)"]
            )
        }
    }

    /// Gives the board three new secrets, for the operator (a lost or leaked owner link): every
    /// old link stops at once and every socket on the board closes (4403); on a cluster the
    /// store rings the other nodes, which do the same. Nil when the room has closed.
    func resetLinks() async throws -> BoardSecrets? {
        let secrets = BoardSecrets.mint()
        return try await changeAccess { _ in
            AccessChange(
                access: secrets.access,
                ending: [.owner, .edit, .view],
                result: secrets,
                log: "reset every link of the board (the operator's call)",
                metadata: ["tb.event": "board.links_reset"]
            )
        }
    }
}
