/// The bounds every edit is validated against. The server's configuration sets them;
/// the defaults are documented in the README's configuration table.
public struct BoardLimits: Hashable, Sendable {
    /// Longest title, in characters (grapheme clusters, what a person counts).
    public var maxTitleLength: Int
    public var maxMinutes: Int
    public var maxSections: Int
    public var maxTimers: Int

    public init(maxTitleLength: Int = 200, maxMinutes: Int = 999, maxSections: Int = 1_000, maxTimers: Int = 10_000) {
        self.maxTitleLength = maxTitleLength
        self.maxMinutes = maxMinutes
        self.maxSections = maxSections
        self.maxTimers = maxTimers
    }

    /// Longest title in bytes of UTF-8 as well: 200 characters can otherwise be 60 KB of
    /// combining marks, and a board of such titles more than any client would take.
    public static let maxTitleBytes = 1_024

    /// Seconds are a clock face: 0 to 59.
    public static let maxSeconds = 59

    /// The most time left a timer may have, and the bound of a warning point and of one
    /// adjustment, in milliseconds: `maxMinutes` minutes.
    public var maxMilliseconds: Int64 { Int64(maxMinutes) * 60_000 }
}
