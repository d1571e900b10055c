import Hummingbird
import HummingbirdWebSocket
import NIOCore
import Synchronization

/// The request context of the WebSocket route. Like hummingbird's basic one, but it knows the
/// connection's channel, so a session can write its frames into the channel directly.
///
/// Hummingbird keeps the route's handler, with a copy of this context, in a box that the context
/// itself holds (`webSocket`): a reference cycle that kept every closed connection, its channel
/// included, in memory. The box sits in a slot here that the session empties when it ends
/// (`releaseWebSocketReference`), which breaks the cycle. The channel is then held strongly: a
/// weak reference moves an object's reference counts to a side table, and the channel is
/// retained and released on every write.
package struct TimerBoardWebSocketContext: RequestContext, WebSocketRequestContext {
    package var coreContext: CoreRequestContextStorage
    package let channel: any Channel
    private let slot: WebSocketReferenceSlot<Self>

    package var webSocket: WebSocketHandlerReference<Self> { slot.reference }

    package init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        channel = source.channel
        slot = WebSocketReferenceSlot()
    }

    /// Lets go of hummingbird's handler box; call when the connection's handler returns.
    package func releaseWebSocketReference() {
        slot.release()
    }
}

/// Holds hummingbird's `WebSocketHandlerReference` until the connection ends.
package final class WebSocketReferenceSlot<Context: WebSocketRequestContext>: Sendable {
    private let held = Mutex<WebSocketHandlerReference<Context>?>(WebSocketHandlerReference())

    /// The reference; a fresh, empty one once released (nothing reads it then).
    package var reference: WebSocketHandlerReference<Context> {
        held.withLock { $0 } ?? WebSocketHandlerReference()
    }

    package func release() {
        held.withLock { $0 = nil }
    }
}
