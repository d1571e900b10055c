import BoardCore

/// The version of the wire protocol this build speaks.
public let protocolVersion = 1

/// The limits a server announces in `welcome` and enforces on every message.
public struct ProtocolLimits: Hashable, Sendable {
    /// Longest message accepted, in bytes of UTF-8.
    public var maxMessageBytes: Int
    public var maxOpsPerEdit: Int
    public var board: BoardLimits

    public init(maxMessageBytes: Int = 65_536, maxOpsPerEdit: Int = 100, board: BoardLimits = BoardLimits()) {
        self.maxMessageBytes = maxMessageBytes
        self.maxOpsPerEdit = maxOpsPerEdit
        self.board = board
    }

    /// An `opId` is 1 to 64 characters (grapheme clusters)...
    public static let maxOpIDCharacters = 64
    /// ...and at most 256 bytes of UTF-8, so a character count cannot hide a long string.
    public static let maxOpIDBytes = 256
}
