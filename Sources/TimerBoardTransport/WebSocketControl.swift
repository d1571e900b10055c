import NIOCore

/// What a session may ask of its connection, from any thread.
package struct WebSocketControl: Sendable {
    package let channel: any Channel

    package init(channel: any Channel) {
        self.channel = channel
    }

    /// Reads from the socket again after the receiver said it was full.
    package func resumeReading() {
        let channel = channel
        channel.eventLoop.execute {
            try? channel.pipeline.syncOperations.handler(type: WebSocketConnection.self).resumeReading()
        }
    }
}
