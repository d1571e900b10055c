import ArgumentParser
import TimerBoardServer

/// `serve`'s connection cap per IPv6 network wider than one /64 (docs/security.md): one site's
/// many /64s cannot fill the server.
struct IPv6NetworkOptions: ParsableArguments {
    private static let defaults = ServerConfiguration()

    @Option(help: "Most connections open at once from one IPv6 network (all its /64s together, see --ipv6-network-prefix).")
    var maxConnectionsPerIpv6Network = Self.defaults.maxConnectionsPerIPv6Network
    @Option(help: "The prefix length, 16 to 64, of the IPv6 network --max-connections-per-ipv6-network counts by.")
    var ipv6NetworkPrefix = Self.defaults.ipv6NetworkPrefix

    func validate() throws {
        if maxConnectionsPerIpv6Network < 1 { throw ValidationError("--max-connections-per-ipv6-network must be at least 1") }
        if !(16...64).contains(ipv6NetworkPrefix) { throw ValidationError("--ipv6-network-prefix must be 16 to 64") }
    }

    func apply(to configuration: inout ServerConfiguration) {
        configuration.maxConnectionsPerIPv6Network = maxConnectionsPerIpv6Network
        configuration.ipv6NetworkPrefix = ipv6NetworkPrefix
    }
}
