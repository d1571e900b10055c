import BoardProtocol

/// What `PresenceTracker.listOrder` compares: the same for this node's participants and for
/// the users other nodes tell of.
typealias PresenceListKey = (editing: Bool, name: String, userID: String)

extension Participant {
    var listKey: PresenceListKey { (editing != nil, name, userID) }
}

extension ServerMessage.PresenceUser {
    var listKey: PresenceListKey { (editing != nil, name, userID) }
}
