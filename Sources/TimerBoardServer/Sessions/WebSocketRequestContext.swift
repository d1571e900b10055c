import Hummingbird
import HummingbirdWebSocket
import NIOCore

/// The request context of the WebSocket route. Like hummingbird's basic one, but it keeps the
/// connection's channel, so a session can write its frames into the channel directly.
struct TimerBoardWebSocketContext: RequestContext, WebSocketRequestContext {
    var coreContext: CoreRequestContextStorage
    let webSocket: WebSocketHandlerReference<Self>
    let channel: any Channel

    init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        webSocket = .init()
        channel = source.channel
    }
}
