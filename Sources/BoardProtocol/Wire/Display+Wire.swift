import BoardCore

// The board's display on the wire: in a snapshot, `"display":{"message":{…}|null,"blackout":false,
// "timeZone":"UTC"}` when any of it is not its default (absent: no message, no blackout, UTC);
// a change is {"update":"board", …only the fields that changed}; a cleared message is null.

extension JSONWriter {
    mutating func displayField(_ display: BoardDisplay) {
        guard display != BoardDisplay() else { return }
        key("display")
        beginObject()
        key("message")
        message(display.message)
        field("blackout", display.blackout)
        field("timeZone", display.timeZone)
        endObject()
    }

    /// The fields of a `{"update":"board"}` change.
    mutating func displayPatchFields(_ patch: DisplayPatch) {
        switch patch.message {
        case .show(let shown)?:
            key("message")
            message(shown)
        case .clear?:
            key("message")
            null()
        case nil: break
        }
        if let blackout = patch.blackout { field("blackout", blackout) }
        if let timeZone = patch.timeZone { field("timeZone", timeZone) }
    }

    private mutating func message(_ message: ScreenMessage?) {
        guard let message else { return null() }
        beginObject()
        field("text", message.text)
        field("flash", message.flash)
        field("shownAt", message.shownAt)
        endObject()
    }
}

extension BoardDisplay {
    /// A snapshot's `display`, or the defaults when it has none.
    init(wire reader: FieldReader) throws(ProtocolError) {
        self.init()
        guard let value = reader.value("display") else { return }
        let display = try FieldReader(value, path: reader.name("display"), origin: reader.origin)
        message = try ScreenMessage.optional(wire: display)
        blackout = try display.optionalBool("blackout") ?? false
        timeZone = try display.optionalString("timeZone") ?? BoardDisplay.defaultTimeZone
    }
}

extension DisplayPatch {
    /// The fields of a `{"update":"board"}` change.
    init(wire reader: FieldReader) throws(ProtocolError) {
        var message: MessageChange?
        if let value = reader.written("message") {
            message = value == .null ? .clear : try ScreenMessage.optional(wire: reader).map { .show($0) }
        }
        self.init(message: message, blackout: try reader.optionalBool("blackout"), timeZone: try reader.optionalString("timeZone"))
    }
}

extension ScreenMessage {
    /// The `message` of `reader`'s object, or nil when it is absent or null.
    static func optional(wire reader: FieldReader) throws(ProtocolError) -> ScreenMessage? {
        guard let value = reader.value("message"), value != .null else { return nil }
        let message = try FieldReader(value, path: reader.name("message"), origin: reader.origin)
        return ScreenMessage(text: try message.string("text"), flash: try message.bool("flash"), shownAt: try message.int("shownAt"))
    }
}
