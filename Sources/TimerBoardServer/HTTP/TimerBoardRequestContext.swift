import Hummingbird
import NIOCore

/// The request context of the HTTP routes: hummingbird's basic one plus the peer's address,
/// for limits per client address.
struct TimerBoardRequestContext: RequestContext, RemoteAddressRequestContext {
    var coreContext: CoreRequestContextStorage
    let remoteAddress: SocketAddress?

    init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        remoteAddress = source.channel.remoteAddress
    }
}
