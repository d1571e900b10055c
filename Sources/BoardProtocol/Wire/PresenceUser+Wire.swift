import BoardCore

extension JSONWriter {
    /// `"users":[{"userId":…,"name":…,"color":…,"editing":…,"clockError":…}]` (`clockError` when known), as both presence messages carry it.
    mutating func presenceUsers(_ users: [ServerMessage.PresenceUser]) {
        key("users")
        beginArray()
        for user in users {
            beginObject()
            field("userId", user.userID)
            field("name", user.name)
            field("color", user.color)
            key("editing")
            if let editing = user.editing { string(editing.rawValue) } else { null() }
            if let clockError = user.clockError { field("clockError", clockError) }
            endObject()
        }
        endArray()
    }
}
