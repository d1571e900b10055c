import BoardCore
import BoardProtocol

/// Who is on a board, by connection, and which users' presence changed since it was last told.
///
/// Decides only: it never sleeps and never sends. A change that needs telling returns
/// `.scheduleFlush` the first time after a flush, and the room then calls `flush()` after
/// `presenceInterval` and broadcasts what it returns. Presence is never stored.
///
/// `Frame` is the encoded `presence` list a joiner gets; the tracker keeps the one the room
/// encoded until the next flush, so a crowd of N joining encodes it once per interval, not N
/// times. That cached list may lack or have stale entries for users touched since the last
/// flush; the next `presenceChanged`, which every joiner receives, carries exactly those.
struct PresenceTracker<Frame> {
    /// What the room must do after a change.
    enum Effect: Equatable {
        case none
        /// Call `flush()` after the presence interval; nothing else is scheduled yet.
        case scheduleFlush
    }

    /// What `setPresence` did.
    enum PresenceOutcome: Equatable {
        /// The connection is not on the board (it left or was dropped): nothing to do.
        case notOnBoard
        /// Its link may not edit, so it shows no editing: a view link may only report its clock.
        case forbidden
        /// It was editing that already, with that clock error.
        case unchanged
        case changed(Effect)
    }

    /// What a flush tells everyone: the present users touched since the last flush, and the
    /// user ids none of whose connections is still on the board.
    struct Flush: Equatable {
        let users: [ServerMessage.PresenceUser]
        let left: [String]
    }

    private(set) var participants: [Int: Participant] = [:]
    /// User ids whose presence changed since the last flush.
    private var touched: Set<String> = []
    private var joinerList: Frame?
    private var isFlushScheduled = false

    func participant(on connection: Int) -> Participant? {
        participants[connection]
    }

    /// Puts a participant on the board.
    mutating func add(_ participant: Participant, on connection: Int) -> Effect {
        participants[connection] = participant
        return touch(participant.userID)
    }

    /// Takes the connection off the board; nil and `.none` when it was not on it.
    mutating func remove(_ connection: Int) -> (participant: Participant?, effect: Effect) {
        guard let participant = participants.removeValue(forKey: connection) else { return (nil, .none) }
        return (participant, touch(participant.userID))
    }

    /// Takes every connection whose participant matches off the board; returns them.
    mutating func remove(where matches: (Participant) -> Bool) -> (removed: [Int: Participant], effect: Effect) {
        let removed = participants.filter { matches($0.value) }
        var effect = Effect.none
        for (connection, participant) in removed {
            participants[connection] = nil
            if touch(participant.userID) == .scheduleFlush { effect = .scheduleFlush }
        }
        return (removed, effect)
    }

    /// Forgets everyone without telling anyone (the room failed and closes every connection).
    mutating func removeAll() {
        participants.removeAll()
    }

    /// Records what the connection's user is editing and, when given, its clock's error bound.
    /// A view link edits nothing, but a wall screen's clock matters as much as anyone's: it may
    /// send a clock error with `editing` null.
    mutating func setPresence(editing: EntityID?, clockError: Int64?, on connection: Int) -> PresenceOutcome {
        guard var participant = participants[connection] else { return .notOnBoard }
        guard participant.role.canEdit || (editing == nil && clockError != nil) else { return .forbidden }
        let updated = (editing: editing, clockError: clockError ?? participant.clockError)
        guard participant.editing != updated.editing || participant.clockError != updated.clockError else { return .unchanged }
        participant.editing = updated.editing
        participant.clockError = updated.clockError
        participants[connection] = participant
        return .changed(touch(participant.userID))
    }

    /// The `presence` list for a joiner: the cached one, or the one `encode` makes from the
    /// present users (sorted by name, then user id), kept until the next flush.
    mutating func joinerList(encode: ([ServerMessage.PresenceUser]) -> Frame) -> Frame {
        if let joinerList { return joinerList }
        let list = encode(participants.values.map(\.presenceUser).sorted(by: Self.presenceOrder))
        joinerList = list
        return list
    }

    /// What to tell everyone now, or nil when nothing changed. Ends the scheduled flush.
    mutating func flush() -> Flush? {
        isFlushScheduled = false
        guard !touched.isEmpty else { return nil }
        var present: [String: ServerMessage.PresenceUser] = [:]
        for participant in participants.values where touched.contains(participant.userID) {
            present[participant.userID] = participant.presenceUser
        }
        let left = touched.subtracting(present.keys).sorted()
        touched = []
        joinerList = nil
        return Flush(users: present.values.sorted(by: Self.presenceOrder), left: left)
    }

    private mutating func touch(_ userID: String) -> Effect {
        touched.insert(userID)
        guard !isFlushScheduled else { return .none }
        isFlushScheduled = true
        return .scheduleFlush
    }

    private static func presenceOrder(_ a: ServerMessage.PresenceUser, _ b: ServerMessage.PresenceUser) -> Bool {
        (a.name, a.userID) < (b.name, b.userID)
    }
}
