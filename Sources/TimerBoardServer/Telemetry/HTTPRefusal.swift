/// Why the server refused a connection or a request before any route ran: the `reason` of
/// `timerboard_http_refusals_total` and the `tb.refusal` of the `connection.refused` log event.
/// The raw values are stable (docs/architecture.md, "Metrics" and "Logs").
enum HTTPRefusal: String, CaseIterable, Sendable {
    /// A WebSocket over `--max-connections` (503).
    case serverFull = "server_full"
    /// A WebSocket over `--max-connections-per-address` from its address (503).
    case addressFull = "address_full"
    /// No whole request header within `--header-timeout-seconds` (closed, no answer).
    case headerTimeout = "header_timeout"
    /// A request that had not arrived whole (its body) `--request-timeout-seconds` after its
    /// header (408, or closed when its answer had begun).
    case requestTimeout = "request_timeout"
    /// A request header over `--max-header-bytes` (431).
    case headerTooLarge = "header_too_large"
    /// A request body over what its route accepts (413).
    case bodyTooLarge = "body_too_large"
    /// A new board over `--boards-per-minute` from its address (429).
    case boardCreationRate = "board_creation_rate"
    /// History or report reads over `--history-reads-per-minute` from its address (429).
    case historyReadRate = "history_read_rate"
}
