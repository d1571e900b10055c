/// The encoded snapshot of a board's current revision, plain and compressed, so that a storm
/// of joins encodes and compresses the board once per revision instead of once per joiner.
///
/// Decides only: `next` says what the room must do to get the frame a joiner needs (use the
/// cached one, encode the board, or compress the plain frame), and the room hands back what it
/// made with `store`. A cached frame serves only the revision it was made at; `invalidate`
/// drops both when something a snapshot shows changes without a new revision (a rename).
struct SnapshotCache<Frame> {
    /// What the room must do to get the snapshot frame for a joiner.
    enum Step {
        /// This frame is the snapshot of the revision asked for: send it.
        case send(Frame)
        /// Encode the board and `store` the frame as plain.
        case encode
        /// Compress this plain frame and `store` the result as compressed.
        case compress(Frame)
    }

    private var plain: (revision: Int64, frame: Frame)?
    private var compressed: (revision: Int64, frame: Frame)?

    /// The next step towards the snapshot of `revision`, compressed or not. A compressed frame
    /// is always made from the plain one of the same revision.
    func next(revision: Int64, compressed wantsCompressed: Bool) -> Step {
        if wantsCompressed, let compressed, compressed.revision == revision { return .send(compressed.frame) }
        guard let plain, plain.revision == revision else { return .encode }
        return wantsCompressed ? .compress(plain.frame) : .send(plain.frame)
    }

    /// Keeps a frame the room made for `revision`.
    mutating func store(_ frame: Frame, compressed isCompressed: Bool, revision: Int64) {
        if isCompressed {
            compressed = (revision, frame)
        } else {
            plain = (revision, frame)
        }
    }

    /// Forgets both frames: the board's snapshot changed without a new revision.
    mutating func invalidate() {
        plain = nil
        compressed = nil
    }
}
