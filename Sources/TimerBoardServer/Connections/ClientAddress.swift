import NIOCore
import NIOHTTP1

/// Which address a client connects from, for the per-address caps. The one place that decides
/// it: today the TCP peer's IP address; a trusted proxy's forwarded address belongs here too,
/// which is why the request's header is passed in already.
enum ClientAddress {
    /// The client's address, as a key for counting.
    static func of(channel: any Channel, request: HTTPRequestHead) -> String {
        // Every client without an IP (a Unix socket) is counted as one.
        channel.remoteAddress?.ipAddress ?? "unknown"
    }
}
