import HTTPTypes
import HummingbirdWebSocket

/// Which permessage-deflate offer (RFC 7692) the server accepts, and what it answers.
///
/// The server compresses only what is big and shared, a board's snapshot, once per revision
/// for every connection. That needs `server_no_context_takeover`. It also asks the client for
/// `client_no_context_takeover`, so no connection keeps a 32 KB inflate window while it idles.
package enum DeflateNegotiation {
    package static let extensionName = "permessage-deflate"
    package static let response = "permessage-deflate; server_no_context_takeover; client_no_context_takeover"

    /// Whether the server accepts this one offer.
    package static func accepts(_ offer: WebSocketExtensionHTTPParameters) -> Bool {
        guard offer.name == extensionName else { return false }
        for (name, value) in offer.parameters {
            switch name {
            case "server_no_context_takeover", "client_no_context_takeover":
                guard value == .null else { return false }
            case "client_max_window_bits":
                // Bounds the client's own window; without client context takeover it costs us nothing.
                if value != .null { guard let bits = value.integer, (8...15).contains(bits) else { return false } }
            case "server_max_window_bits":
                // The shared snapshot is compressed with the full 32 KB window. A client that
                // wants a smaller one is declined and gets it uncompressed.
                guard value.integer == 15 else { return false }
            default:
                return false  // RFC 7692 §5: an offer with an unknown parameter is declined
            }
        }
        return true
    }

    /// Whether a WebSocket upgrade request carries an offer the server accepts: the same
    /// answer the handshake gave, for the session to know what it may send.
    package static func isNegotiated(by requestHeaders: HTTPFields) -> Bool {
        WebSocketExtensionHTTPParameters.parseHeaders(requestHeaders).contains(where: accepts)
    }
}
