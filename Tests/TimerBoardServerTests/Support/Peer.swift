import BoardCore
import BoardProtocol
import Foundation
import TimerBoardTestClient

/// A test client: a real WebSocket connection plus its replica of the board, which checks
/// every changeset as it arrives (no gap, no duplicate, every change fits).
final class Peer {
    let clientID: String
    let connection: BoardConnection
    private(set) var replica = BoardReplica()
    private var nextOpID = 0
    /// Everything received, in order, for assertions.
    private(set) var received: [ServerMessage] = []

    init(url: String, clientID: String) async throws {
        self.clientID = clientID
        connection = BoardConnection(url: url)
        connection.send(.hello(.init(clientID: clientID, name: "test \(clientID)")))
        guard case .welcome = try await connection.receive() else { throw TestFailure("no welcome") }
    }

    /// Who is on the board, from the presence messages so far.
    private(set) var presence = PresenceList()
    /// What the last join's `access` said: the role and this client's user id on the board.
    private(set) var access: (role: BoardRole, userID: String)?

    /// The next message other than presence (which comes whenever anyone joins or leaves);
    /// board messages are applied to the replica.
    func receive() async throws -> ServerMessage {
        let message = try await receiveWithoutApplying()
        try replica.apply(message)
        return message
    }

    /// The next message other than presence, not applied to the replica.
    func receiveWithoutApplying() async throws -> ServerMessage {
        while true {
            let message = try await connection.receive()
            received.append(message)
            if presence.apply(message) { continue }
            if case .access(_, let role, let userID) = message {
                access = (role, userID)
                continue
            }
            return message
        }
    }

    /// Joins and returns the snapshot.
    @discardableResult
    func join(_ board: TestBoard, as role: BoardRole = .edit) async throws -> ServerMessage.Snapshot {
        connection.send(.join(.init(board: board.id, secret: board.secret(role))))
        guard case .snapshot(let snapshot) = try await receive() else { throw TestFailure("join did not answer with a snapshot") }
        return snapshot
    }

    /// Sends an edit and reads until its ack or reject, applying what arrives meanwhile.
    @discardableResult
    func edit(_ ops: [BoardOperation], opID: String? = nil) async throws -> ServerMessage {
        let opID = opID ?? nextID()
        connection.send(.edit(.init(opID: opID, ops: ops)))
        return try await outcome(of: opID)
    }

    func outcome(of opID: String) async throws -> ServerMessage {
        while true {
            let message = try await receive()
            switch message {
            case .ack(let id, _, _, _, _) where id == opID: return message
            case .reject(let reject) where reject.opID == opID: return message
            default: continue
            }
        }
    }

    /// Reads until the replica reaches `revision`.
    func catchUp(to revision: Int64) async throws {
        while replica.revision < revision { _ = try await receive() }
    }

    /// A round trip that proves everything sent before it has been read by the server.
    func ping() async throws {
        let t = Double(nextOpID)
        connection.send(.ping(t: t))
        while true {
            if case .pong(let echoed, _) = try await receive(), echoed == t { return }
        }
    }

    func nextID() -> String {
        nextOpID += 1
        return "\(clientID)-\(nextOpID)"
    }

    func close() async {
        await connection.close()
    }
}
