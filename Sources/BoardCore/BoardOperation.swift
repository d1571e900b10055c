/// Where an added or moved item goes among its siblings.
public enum Position: Hashable, Sendable {
    case first
    case last
    case before(EntityID)
    case after(EntityID)
}

/// An edit a client asks for. The board validates it against its current state and turns it
/// into changes; an operation never names an index or an order key, only ids and positions.
public enum BoardOperation: Hashable, Sendable {
    case addSection(id: EntityID, title: String, isExpanded: Bool, position: Position, sequence: Bool = false, loop: Bool = false)
    /// Sets the given fields; nil leaves a field as it is.
    /// `finishAt`: `.some(nil)` turns finishing together off.
    case updateSection(id: EntityID, title: String?, isExpanded: Bool?, sequence: Bool? = nil, loop: Bool? = nil, finishAt: Int64?? = nil)
    case moveSection(id: EntityID, position: Position)
    /// Deletes the section and every timer in it.
    case deleteSection(id: EntityID)
    case addTimer(
        id: EntityID,
        sectionID: EntityID,
        title: String,
        minutes: Int,
        seconds: Int,
        position: Position,
        warnAt: Int64 = 0,
        kind: TimerKind = .countdown,
        startAt: Int64? = nil,
        targetAt: Int64? = nil
    )
    /// Sets the given fields; nil leaves a field as it is.
    /// `startAt` and `targetAt`: `.some(nil)` clears them.
    case updateTimer(
        id: EntityID,
        title: String?,
        minutes: Int?,
        seconds: Int?,
        warnAt: Int64? = nil,
        kind: TimerKind? = nil,
        startAt: Int64?? = nil,
        targetAt: Int64?? = nil
    )
    /// Moves within the timer's section, or into `sectionID` when given.
    case moveTimer(id: EntityID, sectionID: EntityID?, position: Position)
    case deleteTimer(id: EntityID)
    /// Starts an idle timer, resumes a paused one, restarts a finished one; a running one is left alone.
    case startTimer(id: EntityID)
    /// Pauses a running timer, keeping the time it has counted.
    case pauseTimer(id: EntityID)
    /// Back to idle with nothing counted.
    case resetTimer(id: EntityID)
    /// Starts (or resumes) every idle or paused timer of the section.
    case startSection(id: EntityID)
    /// Pauses every running timer of the section.
    case pauseSection(id: EntityID)
    /// Adds `by` milliseconds to the time left of a running, paused or finished timer
    /// (negative: takes time away). Composes: two `+1 min` give two minutes.
    case adjustTimer(id: EntityID, by: Int64)
    /// In a sequence section: finishes the current timer now and starts the next.
    case skipSection(id: EntityID)
    /// In a sequence section: every timer back to idle and the first started now.
    case restartSection(id: EntityID)
    /// Every display of the board shows `text` (flashing, with `flash`) until it is cleared.
    case showMessage(text: String, flash: Bool)
    case clearMessage
    /// Displays show nothing but black (`true`), or the board again.
    case setBlackout(Bool)
    /// Wall-clock times are shown in this IANA time zone on every screen.
    case setTimeZone(String)

    /// The entity the operation is about; nil for the board's display.
    public var entityID: EntityID? {
        switch self {
        case .addSection(let id, _, _, _, _, _), .updateSection(let id, _, _, _, _, _), .moveSection(let id, _), .deleteSection(let id),
            .addTimer(let id, _, _, _, _, _, _, _, _, _), .updateTimer(let id, _, _, _, _, _, _, _), .moveTimer(let id, _, _), .deleteTimer(let id),
            .startTimer(let id), .pauseTimer(let id), .resetTimer(let id), .startSection(let id), .pauseSection(let id),
            .adjustTimer(let id, _), .skipSection(let id), .restartSection(let id):
            id
        case .showMessage, .clearMessage, .setBlackout, .setTimeZone:
            nil
        }
    }
}
