/// The `Content-Type` of a static file, by its extension. Text says `charset=utf-8`, since the
/// client's files are UTF-8 and a browser must not guess. With `nosniff` on every response a
/// module script needs a JavaScript type, so `.js` must be right; anything unknown is
/// `application/octet-stream`, which a browser neither renders nor runs.
enum StaticContentType {
    static let byExtension: [String: String] = [
        "html": "text/html; charset=utf-8",
        "js": "text/javascript; charset=utf-8",
        "mjs": "text/javascript; charset=utf-8",
        "css": "text/css; charset=utf-8",
        "json": "application/json; charset=utf-8",
        "map": "application/json; charset=utf-8",
        "webmanifest": "application/manifest+json; charset=utf-8",
        "txt": "text/plain; charset=utf-8",
        "svg": "image/svg+xml",
        "png": "image/png",
        "ico": "image/x-icon",
        "jpg": "image/jpeg",
        "jpeg": "image/jpeg",
        "webp": "image/webp",
        "woff2": "font/woff2",
    ]

    /// The type for a file name (the last path component); case-insensitive extension.
    static func of(fileNamed name: String) -> String {
        guard let dot = name.lastIndex(of: ".") else { return "application/octet-stream" }
        return byExtension[name[name.index(after: dot)...].lowercased()] ?? "application/octet-stream"
    }
}
