import Hummingbird
import HummingbirdWebSocket
import NIOCore

/// The request context of the WebSocket route. Like hummingbird's basic one, but it knows the
/// connection's channel, so a session can write its frames into the channel directly.
///
/// Weakly: hummingbird keeps the context for the upgrade in a box that the context itself
/// holds, and a strong channel in that loop kept every closed connection in memory.
struct TimerBoardWebSocketContext: RequestContext, WebSocketRequestContext {
    var coreContext: CoreRequestContextStorage
    let webSocket: WebSocketHandlerReference<Self>
    weak var channel: (any Channel)?

    init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        webSocket = .init()
        channel = source.channel
    }
}
