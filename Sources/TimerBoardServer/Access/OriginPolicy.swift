import Foundation
import HTTPTypes

/// Which browser pages may open the board socket or change state over HTTP (cross-site
/// WebSocket hijacking and cross-site requests). A request without `Origin` is not from a
/// browser page (a script, curl) and is allowed; a page is allowed when it is served by this
/// server (its origin names the host the request was sent to) or listed in `--allowed-origin`.
struct OriginPolicy: Sendable {
    /// Extra origins, exactly as browsers send them (`https://kitchen.example.com`).
    let allowedOrigins: Set<String>

    /// Whether a request with these `Origin` and `Host` headers may go on.
    func allows(origin: String?, host: String?) -> Bool {
        guard let origin else { return true }
        // A browser page's origin is http(s); WebSocket client libraries (hummingbird's among
        // them) send their ws(s) URL without the port. A page cannot set `Origin` itself.
        if origin.hasPrefix("ws://") || origin.hasPrefix("wss://") { return true }
        if allowedOrigins.contains(origin) { return true }
        // The server's own pages: the origin's host[:port] is the Host the request was sent to,
        // whatever the scheme (a TLS proxy in front changes it).
        guard let host, let separator = origin.range(of: "://") else { return false }
        return origin[separator.upperBound...].lowercased() == host.lowercased()
    }

    /// For a request: its `Origin` against the authority (the Host header) it was sent to.
    func allows(_ request: HTTPRequest) -> Bool {
        allows(origin: request.headerFields[.origin], host: request.authority)
    }
}
