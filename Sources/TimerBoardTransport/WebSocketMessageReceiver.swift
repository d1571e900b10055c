/// What a WebSocket connection hands its messages to: the session, or a test's echo. Called on
/// the connection's event loop, so it must not block; it starts work and returns.
package protocol WebSocketMessageReceiver: AnyObject, Sendable {
    /// A whole message arrived. Returning false stops reading from the socket until the
    /// receiver calls the connection's `Outbound.resumeReading()`: a client cannot queue more messages
    /// than the receiver is willing to hold.
    func received(_ message: InboundMessage) -> Bool

    /// The connection is closed; called once, and nothing is received after it.
    func connectionClosed()
}
