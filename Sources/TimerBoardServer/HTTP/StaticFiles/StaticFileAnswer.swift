import HTTPTypes

/// How a GET or HEAD for a file that exists is answered, from the file's validators and the
/// request's conditional and range headers (RFC 9110 13.2.2: If-None-Match, else
/// If-Modified-Since, then If-Range and Range). Pure, so every case is tested without a file.
enum StaticFileAnswer: Equatable, Sendable {
    /// 304: the client's copy is current.
    case notModified
    /// 200 with the whole file.
    case whole
    /// 206 with these bytes.
    case partial(ClosedRange<Int>)
    /// 416 with `Content-Range: bytes */size`.
    case unsatisfiable

    init(method: HTTPRequest.Method, headers: HTTPFields, file: FileValidators) {
        let ifNoneMatch = headers[values: .ifNoneMatch]
        if !ifNoneMatch.isEmpty {
            // Weak comparison (RFC 9110 13.1.2): `W/` does not matter here.
            let tags = ifNoneMatch.flatMap { $0.split(separator: ",") }.map { String($0).trimmingSpaces }
            if tags.contains(where: { $0 == "*" || Self.opaque($0) == Self.opaque(file.eTag) }) {
                self = .notModified
                return
            }
        } else if let since = headers[.ifModifiedSince].flatMap(HTTPDate.parse), file.modifiedSeconds <= since {
            self = .notModified
            return
        }
        // Range is defined for GET only; a HEAD ignores it (RFC 9110 14.2).
        guard method == .get, let range = headers[.range] else {
            self = .whole
            return
        }
        // If-Range: the range only if the client's copy is this one (strong comparison); else all.
        if let ifRange = headers[.ifRange]?.trimmingSpaces, ifRange != file.eTag, ifRange != file.lastModified {
            self = .whole
            return
        }
        switch ByteRange(header: range, size: file.size) {
        case .whole: self = .whole
        case .partial(let bytes): self = .partial(bytes)
        case .unsatisfiable: self = .unsatisfiable
        }
    }

    private static func opaque(_ tag: String) -> Substring {
        tag.hasPrefix("W/") ? tag.dropFirst(2) : Substring(tag)
    }
}

/// What identifies one version of a file: its size and modification time, and the `ETag` and
/// `Last-Modified` made of them (no hash of the content, so a 304 never reads the file).
struct FileValidators: Equatable, Sendable {
    let size: Int
    /// Modification time, whole seconds since 1970 (what `Last-Modified` can say).
    let modifiedSeconds: Int
    /// The nanoseconds within that second, so a file rewritten within a second gets a new ETag.
    let modifiedNanoseconds: Int

    /// Strong: a new size or modification time is a new tag. Hex, as nginx does.
    var eTag: String {
        "\"\(String(size, radix: 16))-\(String(modifiedSeconds, radix: 16))-\(String(modifiedNanoseconds, radix: 16))\""
    }

    var lastModified: String { HTTPDate.format(modifiedSeconds) }
}
