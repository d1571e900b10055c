import BoardCore
import BoardProtocol
import Crypto
import Foundation

/// Someone on a board, for presence: who they are, what their link lets them do and what they
/// are editing. Lives only in memory and only while their connection is on the board.
struct Participant: Sendable {
    /// Secret to the client: it keys the idempotency of its edits, so it is never shown.
    let clientID: String
    /// What presence shows instead of the client id.
    let userID: String
    let name: String
    var editing: EntityID?
    /// The bound of its clock's error in milliseconds, as it last reported it.
    var clockError: Int64?
    /// Last: its byte fits behind `clockError`'s, so a participant takes 80 bytes, not 88 (one per
    /// connection in a room's table, docs/performance.md).
    let role: BoardRole

    init(clientID: String, boardID: String, name: String, role: BoardRole) {
        self.clientID = clientID
        userID = Self.userID(clientID: clientID, boardID: boardID)
        self.name = name
        self.role = role
    }

    /// 90 bits of a hash of the board and the client id: the same for every connection of one
    /// client to one board, different across boards, and no way back to the client id. Its 15
    /// characters fit inside a `String` itself, so no connection allocates one (16 did: 64 bytes
    /// of heap for every idle connection, docs/performance.md).
    static func userID(clientID: String, boardID: String) -> String {
        let digest = SHA256.hash(data: Data("timerboard user\u{0}\(boardID)\u{0}\(clientID)".utf8))
        return String(BoardSecrets.base64URL(Array(digest.prefix(12))).prefix(userIDLength))
    }

    /// The longest text a `String` holds without a heap allocation (on 64-bit platforms).
    static let userIDLength = 15

    /// The same colour for a user id every time, from a palette that reads well on white.
    var color: String {
        // FNV-1a: stable across processes, unlike `hashValue`.
        var hash: UInt32 = 2_166_136_261
        for byte in userID.utf8 { hash = (hash ^ UInt32(byte)) &* 16_777_619 }
        return Self.palette[Int(hash % UInt32(Self.palette.count))]
    }

    private static let palette = [
        "#d9480f", "#1971c2", "#2b8a3e", "#ae3ec9", "#e67700", "#0c8599", "#c2255c", "#5f3dc4", "#66a80f", "#862e9c",
    ]

    var presenceUser: ServerMessage.PresenceUser {
        ServerMessage.PresenceUser(userID: userID, name: name, color: color, editing: editing, clockError: clockError)
    }
}
