import Hummingbird
import NIOCore

/// The request context of the HTTP routes: hummingbird's basic one plus the peer's address,
/// for limits per client address, and the connection's event loop and end (an event stream's
/// queue drains on the one and stops at the other).
struct TimerBoardRequestContext: RequestContext, RemoteAddressRequestContext {
    var coreContext: CoreRequestContextStorage
    let remoteAddress: SocketAddress?
    let eventLoop: any EventLoop
    let closeFuture: EventLoopFuture<Void>

    init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        remoteAddress = source.channel.remoteAddress
        eventLoop = source.channel.eventLoop
        closeFuture = source.channel.closeFuture
    }
}
