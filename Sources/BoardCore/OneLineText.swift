/// The rule for text a screen shows on one line (titles, names, messages): nothing that breaks
/// a line, and (for what must not be empty) something to see.
public enum OneLineText {
    /// A control character (a newline, a tab) or a line or paragraph separator (U+2028,
    /// U+2029), which a page breaks the line at as it does at a newline.
    public static func breaksALine(_ text: String) -> Bool {
        text.unicodeScalars.contains { scalar in
            switch scalar.properties.generalCategory {
            case .control, .lineSeparator, .paragraphSeparator: true
            default: false
            }
        }
    }

    /// Only white space and invisible format characters (a zero-width space, a direction
    /// mark): a title or message that reads as blank.
    public static func showsNothing(_ text: String) -> Bool {
        text.unicodeScalars.allSatisfy { $0.properties.isWhitespace || $0.properties.generalCategory == .format }
    }
}
