import HTTPTypes
import Logging
import NIOCore
import Synchronization
import TimerBoardTransport

/// Decides which requests become board sockets and gives each one its session.
struct SessionFactory: Sendable {
    /// The one path of the board socket.
    static let path = "/ws"

    let services: SessionServices
    private let originPolicy: OriginPolicy
    private let trustedProxies: TrustedProxies
    /// Shared with the event streams: a room's subscribers need ids that no two connections share.
    let connectionCounter: ConnectionCounter

    init(
        configuration: ServerConfiguration,
        metrics: ServerMetrics,
        editBudgets: SharedEditBudgets,
        registry: BoardRegistry,
        heartbeat: Heartbeat,
        connectionCounter: ConnectionCounter,
        clock: any ServerClock,
        logger: Logger
    ) {
        self.connectionCounter = connectionCounter
        services = SessionServices(
            configuration: configuration,
            metrics: metrics,
            editBudgets: editBudgets,
            registry: registry,
            heartbeat: heartbeat,
            clock: clock,
            logger: logger
        )
        trustedProxies = configuration.trustedProxies
        originPolicy = OriginPolicy(allowedOrigins: Set(configuration.allowedOrigins))
    }

    /// A request for the board socket from an allowed origin is upgraded; anything else asking
    /// for a WebSocket is answered 400. A page of another site must not open the socket with its
    /// visitor's browser (cross-site WebSocket hijacking).
    func accept(_ request: HTTPRequest, channel: any Channel) -> WebSocketUpgradeChannel.Acceptance? {
        guard request.method == .get, request.path.map(Self.pathOnly) == Self.path, originPolicy.allows(request) else { return nil }
        let acceptsDeflate = services.configuration.permessageDeflate && DeflateNegotiation.isNegotiated(by: request.headerFields)
        var headers = HTTPFields()
        if acceptsDeflate { headers[.secWebSocketExtensions] = DeflateNegotiation.response }
        let connectionID = connectionCounter.next()
        let address = ClientAddress.key(
            peer: channel.remoteAddress,
            forwardedFor: request.headerFields[values: .xForwardedFor],
            realIP: request.headerFields[.xRealIP],
            trusted: trustedProxies
        )
        return WebSocketUpgradeChannel.Acceptance(headers: headers) { [self] channel in
            try start(connectionID: connectionID, address: address, acceptsDeflate: acceptsDeflate, on: channel)
        }
    }

    /// Takes over an upgraded channel, on its event loop: its queue, its session, the connection
    /// handler with the session as receiver, and the connection's slot from its guard, which the
    /// session gives back when the connection closes.
    private func start(connectionID: Int, address: String, acceptsDeflate: Bool, on channel: any Channel) throws {
        let outbound = Outbound(
            id: connectionID,
            capacity: services.configuration.outboundQueueLimit,
            byteLimit: services.configuration.outboundQueueMebibytes << 20,
            acceptsDeflate: acceptsDeflate,
            eventLoop: channel.eventLoop
        )
        let slot = ConnectionGuard.handOverSlot(of: channel)
        // The slot counts under the same key (`ClientAddress`): the session keeps that string,
        // not a copy. An IPv6 key (`2001:db8:1:2::/64`) is over 15 bytes, 64 of heap each.
        var address = address
        if let key = slot?.client ?? slot?.address, key == address { address = key }
        let session = ClientSession(outbound: outbound, channel: channel, address: address, slot: slot, services: services)
        // Registered first: a channel that closes during the install tells the session, which
        // unregisters it, so the heartbeat never keeps a connection that is gone.
        services.heartbeat.register(outbound)
        do {
            try WebSocketConnection.install(
                on: channel,
                outbound: outbound,
                receiver: session,
                maxFrameBytes: services.configuration.maxFrameBytes,
                maxMessageBytes: services.configuration.maxFrameBytes
            )
        } catch {
            // The connection handler is not in the pipeline, so the session will not hear of the close.
            services.heartbeat.unregister(outbound)
            slot?.giveBack()
            throw error
        }
    }

    private static func pathOnly(_ target: String) -> String {
        String(target.prefix { $0 != "?" })
    }
}
