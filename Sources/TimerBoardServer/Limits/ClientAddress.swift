import NIOCore

#if canImport(Glibc)
import Glibc
#else
import Darwin
#endif

/// The key per-address limits count by: the peer's IP address, and for IPv6 its /64 (one
/// machine or household usually holds a whole /64, so counting single addresses would let it
/// step around every limit).
enum ClientAddress {
    static func key(_ address: SocketAddress?) -> String {
        switch address {
        case .v4(let v4)?:
            return v4.host
        case .v6?:
            guard let bytes = address?.ipAddressBytes, bytes.count == 16 else { return address?.ipAddress ?? "unknown" }
            return bytes.prefix(8).map { String($0, radix: 16) }.joined(separator: ":") + "::/64"
        default:
            return "local"
        }
    }
}

extension SocketAddress {
    /// The 16 bytes of an IPv6 address.
    fileprivate var ipAddressBytes: [UInt8]? {
        guard case .v6 = self, let text = ipAddress else { return nil }
        var address = in6_addr()
        guard inet_pton(AF_INET6, text, &address) == 1 else { return nil }
        return withUnsafeBytes(of: address) { Array($0) }
    }
}
