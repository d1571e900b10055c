/// A request's path as the static files see it: percent-decoded, split into names, and checked
/// before any file system call. Browsers remove `.` and `..` segments before they send a URL, so
/// a request that still has them, or that names a dotfile, is refused rather than normalised.
struct StaticPath: Equatable, Sendable {
    /// Why a path names no file that may be served.
    enum Refusal: Error, Equatable {
        /// Invalid percent-encoding, a NUL, or bytes that are not UTF-8: 400.
        case malformed
        /// A `.` or `..` segment, a name that starts with a dot, or not a path at all: 404.
        case notServed
    }

    /// The names under the web root, decoded; none is empty or starts with a dot.
    let names: [String]
    /// The path ends in `/` (`/` itself included): it names a folder, answered by its index.html.
    let namesFolder: Bool

    /// The path of a request target (`request.uri.path`, still percent-encoded, no query).
    init(requestPath: String) throws(Refusal) {
        guard requestPath.first == "/" else { throw .notServed }
        // Decode before splitting: `%2F` is a separator on disk, so it must meet the same checks.
        let decoded = try Self.percentDecoded(requestPath)
        let segments = decoded.split(separator: "/", omittingEmptySubsequences: false).dropFirst()
        var names: [String] = []
        for segment in segments where !segment.isEmpty {
            guard segment.first != "." else { throw .notServed }
            names.append(String(segment))
        }
        self.names = names
        self.namesFolder = decoded.last == "/"
    }

    /// The path relative to the web root, as it is looked up on disk.
    var relativePath: String {
        namesFolder ? (names + ["index.html"]).joined(separator: "/") : names.joined(separator: "/")
    }

    /// RFC 3986 percent-decoding of a path: `%` must be followed by two hex digits, and the result
    /// must be UTF-8 without NUL (no file name holds one; C file APIs would cut the path there).
    static func percentDecoded(_ path: String) throws(Refusal) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(path.utf8.count)
        var iterator = path.utf8.makeIterator()
        while let byte = iterator.next() {
            if byte == UInt8(ascii: "%") {
                guard let high = iterator.next().flatMap(Self.hexValue), let low = iterator.next().flatMap(Self.hexValue) else {
                    throw .malformed
                }
                bytes.append(high << 4 | low)
            } else {
                bytes.append(byte)
            }
        }
        guard !bytes.contains(0), let decoded = String(validating: bytes, as: UTF8.self) else { throw .malformed }
        return decoded
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
