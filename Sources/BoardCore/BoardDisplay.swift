/// What a board's screens show beyond its sections: a message to every screen, the screens
/// blacked out, and the time zone wall-clock times are shown in. Board state like the rest:
/// changed by edits, sent as changesets, stored, resumed.
public struct BoardDisplay: Hashable, Sendable {
    /// The message every display shows, or nil.
    public var message: ScreenMessage?
    /// Displays show nothing but black.
    public var blackout: Bool
    /// An IANA time zone (`Europe/Paris`): every screen shows wall-clock times in it, whatever
    /// its own. `UTC` until someone sets it.
    public var timeZone: String

    public static let defaultTimeZone = "UTC"

    public init(message: ScreenMessage? = nil, blackout: Bool = false, timeZone: String = BoardDisplay.defaultTimeZone) {
        self.message = message
        self.blackout = blackout
        self.timeZone = timeZone
    }
}

/// A short message to every screen of a board ("Wrap up", "Speak louder").
public struct ScreenMessage: Hashable, Sendable {
    public var text: String
    /// Screens draw attention to it (they flash it) until it is cleared.
    public var flash: Bool
    /// When it was shown, server epoch ms.
    public var shownAt: Int64

    public init(text: String, flash: Bool, shownAt: Int64) {
        self.text = text
        self.flash = flash
        self.shownAt = shownAt
    }

    /// Longest message, in characters (and `BoardLimits.maxTitleBytes` bytes).
    public static let maxLength = 200
}

/// The fields of a board's display that changed.
public struct DisplayPatch: Hashable, Sendable {
    /// What happened to the message, when it changed.
    public enum MessageChange: Hashable, Sendable {
        case show(ScreenMessage)
        case clear
    }

    public var message: MessageChange?
    public var blackout: Bool?
    public var timeZone: String?

    public init(message: MessageChange? = nil, blackout: Bool? = nil, timeZone: String? = nil) {
        self.message = message
        self.blackout = blackout
        self.timeZone = timeZone
    }

    public var isEmpty: Bool { message == nil && blackout == nil && timeZone == nil }

    /// The fields of `new` that differ from `old`.
    public init(from old: BoardDisplay, to new: BoardDisplay) {
        self.init(
            message: old.message == new.message ? nil : new.message.map { .show($0) } ?? .clear,
            blackout: old.blackout == new.blackout ? nil : new.blackout,
            timeZone: old.timeZone == new.timeZone ? nil : new.timeZone
        )
    }

    public func applied(to display: BoardDisplay) -> BoardDisplay {
        var display = display
        switch message {
        case .show(let shown)?: display.message = shown
        case .clear?: display.message = nil
        case nil: break
        }
        if let blackout { display.blackout = blackout }
        if let timeZone { display.timeZone = timeZone }
        return display
    }
}
