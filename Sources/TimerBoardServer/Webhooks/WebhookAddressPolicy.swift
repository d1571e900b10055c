/// Which addresses a webhook may be sent to: not the server's own machine or network
/// (server-side request forgery), unless the operator allows it (`--allow-private-webhooks`).
enum WebhookAddressPolicy {
    /// Why `address` is refused (for the owner to read), or nil when it is on the internet.
    static func refusal(for address: IPAddress) -> String? {
        if address.isIPv4 { return ipv4Refusal(address.bytes) }
        let bytes = address.bytes
        if bytes.allSatisfy({ $0 == 0 }) { return "the unspecified address" }
        if bytes.dropLast().allSatisfy({ $0 == 0 }) && bytes[15] == 1 { return "a loopback address" }
        // Addresses that carry an IPv4 address inside: judged by that one.
        if bytes.prefix(12).allSatisfy({ $0 == 0 }) { return ipv4Refusal(Array(bytes.suffix(4))) }  // IPv4-compatible
        if bytes.prefix(12) == [0x00, 0x64, 0xff, 0x9b, 0, 0, 0, 0, 0, 0, 0, 0] { return ipv4Refusal(Array(bytes.suffix(4))) }  // NAT64
        if bytes[0] == 0x20, bytes[1] == 0x02 { return ipv4Refusal(Array(bytes[2..<6])) }  // 6to4
        if bytes[0] == 0xff { return "a multicast address" }
        if bytes[0] == 0xfe, bytes[1] & 0xc0 == 0x80 { return "a link-local address" }
        if bytes[0] == 0xfe, bytes[1] & 0xc0 == 0xc0 { return "a site-local address" }
        if bytes[0] & 0xfe == 0xfc { return "a unique local (private) address" }
        if bytes[0] == 0x20, bytes[1] == 0x01, bytes[2] == 0x0d, bytes[3] == 0xb8 { return "a documentation address" }
        return nil
    }

    private static func ipv4Refusal(_ bytes: [UInt8]) -> String? {
        let (a, b) = (bytes[0], bytes[1])
        switch a {
        case 0: return "the unspecified network (0.0.0.0/8)"
        case 10: return "a private address (10.0.0.0/8)"
        case 127: return "a loopback address (127.0.0.0/8)"
        case 100 where b & 0xc0 == 64: return "a shared (carrier-grade NAT) address (100.64.0.0/10)"
        case 169 where b == 254: return "a link-local address (169.254.0.0/16)"
        case 172 where b & 0xf0 == 16: return "a private address (172.16.0.0/12)"
        case 192 where b == 168: return "a private address (192.168.0.0/16)"
        case 192 where b == 0 && bytes[2] == 0: return "a reserved address (192.0.0.0/24)"
        case 198 where b & 0xfe == 18: return "a benchmarking address (198.18.0.0/15)"
        case 224...239: return "a multicast address (224.0.0.0/4)"
        case 240...255: return "a reserved or broadcast address (240.0.0.0/4)"
        default: return nil
        }
    }
}
