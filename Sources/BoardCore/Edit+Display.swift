import Foundation

/// The display operations: a message to every screen, blackout, the time zone.
extension Edit {
    mutating func applyDisplay(_ operation: BoardOperation) throws(BoardError) {
        var display = board.display
        switch operation {
        case .showMessage(let text, let flash):
            guard !OneLineText.showsNothing(text) else { throw .invalidField("text", "must not be empty") }
            guard text.count <= ScreenMessage.maxLength, text.utf8.count <= BoardLimits.maxTitleBytes else {
                throw .invalidField("text", "is longer than \(ScreenMessage.maxLength) characters or \(BoardLimits.maxTitleBytes) bytes")
            }
            guard !OneLineText.breaksALine(text) else {
                throw .invalidField("text", "must not contain control characters or line breaks (such as a newline)")
            }
            // The same text shown again is shown anew (screens flash it again): `shownAt` moves.
            display.message = ScreenMessage(text: text, flash: flash, shownAt: now)
        case .clearMessage:
            display.message = nil
        case .setBlackout(let on):
            display.blackout = on
        case .setTimeZone(let identifier):
            guard identifier.utf8.count <= 64, TimeZone(identifier: identifier) != nil else {
                throw .invalidField("timeZone", "must be an IANA time zone, such as Europe/Paris or UTC")
            }
            display.timeZone = identifier
        default:
            return
        }
        setDisplay(display)
    }
}
