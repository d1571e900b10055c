import BoardProtocol
import Foundation

/// The `ETag` of a board read over HTTP: its revision and its title (a rename makes no
/// revision), so it changes exactly when what `GET /api/boards/ID` shows changes.
struct EntityTag: Equatable {
    let value: String

    init(revision: Int64, title: String) {
        // FNV-1a of the title: short, stable across processes (unlike Hasher).
        var hash: UInt32 = 2_166_136_261
        for byte in title.utf8 { hash = (hash ^ UInt32(byte)) &* 16_777_619 }
        value = "\"\(revision)-\(String(hash, radix: 36))\""
    }

    /// Whether an `If-None-Match` header names this tag (or `*`): a list of tags, weak or strong.
    func isMatched(by ifNoneMatch: String?) -> Bool {
        guard let ifNoneMatch else { return false }
        return ifNoneMatch.split(separator: ",").contains { candidate in
            let tag = candidate.trimmingCharacters(in: .whitespaces)
            return tag == "*" || tag == value || tag == "W/" + value
        }
    }
}
