import Logging
import NIOCore
import Synchronization

extension ConnectionGuard {
    /// What every connection's guard shares: one object, so a guard holds one reference.
    final class Settings: Sendable {
        let limiter: ConnectionLimiter
        let headerTimeout: TimeAmount
        /// From a request's header to its end (`--request-timeout-seconds`).
        let requestTimeout: TimeAmount
        /// How long a connection may be kept alive (`--keep-alive-lifetime-seconds`).
        let keepAliveLifetime: TimeAmount
        let shutdownGrace: TimeAmount
        let trustedProxies: TrustedProxies
        let metrics: ServerMetrics
        let logger: Logger
        /// The largest request body any route reads: a longer `Content-Length` that expects
        /// `100-continue` is refused at once (`ExpectContinueHandler`).
        let largestRequestBody: Int
        /// Connections over a cap that wait for their header to be answered `503` (the rest are
        /// closed at once): a bound, so refusals cannot hold file descriptors without end.
        private let refusing = Atomic<Int>(0)
        static let maxRefusing = 64

        init(configuration: ServerConfiguration, largestRequestBody: Int = .max, metrics: ServerMetrics = .detached, logger: Logger) {
            limiter = ConnectionLimiter(
                maxTotal: configuration.maxConnections,
                maxPerAddress: configuration.maxConnectionsPerAddress,
                maxPerNetwork: configuration.maxConnectionsPerIPv6Network,
                networkPrefix: configuration.ipv6NetworkPrefix
            )
            headerTimeout = TimeAmount(configuration.headerTimeout)
            requestTimeout = TimeAmount(configuration.requestTimeout)
            keepAliveLifetime = TimeAmount(configuration.keepAliveLifetime)
            shutdownGrace = TimeAmount(configuration.shutdownGrace)
            trustedProxies = configuration.trustedProxies
            self.largestRequestBody = largestRequestBody
            self.metrics = metrics
            self.logger = logger
        }

        /// The key a connection from `peer` counts under at accept: nil for a trusted proxy,
        /// which speaks for many clients (its WebSockets count under the client it names).
        func acceptKey(peer: SocketAddress?) -> String? {
            if !trustedProxies.isEmpty, let text = peer?.ipAddress, let address = IPAddress(text), trustedProxies.contains(address) {
                return nil
            }
            return ClientAddress.key(peer)
        }

        /// Takes one of the `maxRefusing` places; false when none is left.
        func beginRefusal() -> Bool {
            let taken = refusing.wrappingAdd(1, ordering: .relaxed).newValue
            guard taken <= Self.maxRefusing else {
                refusing.wrappingSubtract(1, ordering: .relaxed)
                return false
            }
            return true
        }

        func endRefusal() {
            refusing.wrappingSubtract(1, ordering: .relaxed)
        }

        /// Counts a refusal and logs it (`connection.refused`, docs/architecture.md, "Logs").
        func refused(_ reason: HTTPRefusal, _ message: Logger.Message, level: Logger.Level, address: String? = nil) {
            metrics.refused(reason)
            var metadata: Logger.Metadata = ["tb.event": "connection.refused", "tb.refusal": "\(reason.rawValue)"]
            if let address { metadata["tb.address"] = "\(address)" }
            logger.log(level: level, message, metadata: metadata)
        }
    }

    /// Tells a connection that its slot went to a newcomer: it closes once its request in
    /// progress, if any, is answered.
    struct Evicted: Sendable {}
}
