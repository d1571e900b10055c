import BoardCore
import BoardProtocol

/// Someone on a board, for presence: who they are and what they are editing. Lives only in
/// memory and only while their connection is on the board.
struct Participant: Sendable {
    let clientID: String
    let name: String
    var editing: EntityID?

    /// The same colour for a client id every time, from a palette that reads well on white.
    var color: String {
        // FNV-1a: stable across processes, unlike `hashValue`.
        var hash: UInt32 = 2_166_136_261
        for byte in clientID.utf8 { hash = (hash ^ UInt32(byte)) &* 16_777_619 }
        return Self.palette[Int(hash % UInt32(Self.palette.count))]
    }

    private static let palette = [
        "#d9480f", "#1971c2", "#2b8a3e", "#ae3ec9", "#e67700", "#0c8599", "#c2255c", "#5f3dc4", "#66a80f", "#862e9c",
    ]

    var presenceUser: ServerMessage.PresenceUser {
        ServerMessage.PresenceUser(clientID: clientID, name: name, color: color, editing: editing)
    }
}
