import Foundation
import NIOPosix

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where a webhook's URL leads: its host resolved, every address checked by
/// `WebhookAddressPolicy`. Asked at registration and again before each send, since what a name
/// resolves to can change in between.
enum WebhookTarget {
    /// Every address of `url`'s host, or why it may not be sent to. With `allowPrivate` every
    /// target is allowed and nothing is resolved (none: the sender connects by name).
    static func check(_ url: WebhookURL, allowPrivate: Bool) async -> Result<[IPAddress], WebhookURL.Problem> {
        guard !allowPrivate else { return .success([]) }
        let addresses: [IPAddress]
        if let literal = IPAddress(url.host) {
            addresses = [literal]
        } else {
            do {
                addresses = try await resolve(url.host, port: url.port)
            } catch {
                return .failure(WebhookURL.Problem(description: "url's host \(url.host) does not resolve (\(error))"))
            }
        }
        for address in addresses {
            if let refusal = WebhookAddressPolicy.refusal(for: address) {
                return .failure(
                    WebhookURL.Problem(
                        description: "url's host \(url.host) is \(address), \(refusal): this server sends webhooks only to the internet"
                    )
                )
            }
        }
        return .success(addresses)
    }

    struct ResolutionError: Error, CustomStringConvertible {
        let description: String
    }

    /// The host's addresses from the system's resolver (`getaddrinfo`), on NIO's thread pool:
    /// the call blocks.
    static func resolve(_ host: String, port: Int) async throws -> [IPAddress] {
        try await NIOThreadPool.singleton.runIfActive {
            var hints = addrinfo()
            hints.ai_family = AF_UNSPEC
            #if canImport(Glibc)
            hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
            #else
            hints.ai_socktype = SOCK_STREAM
            #endif
            var list: UnsafeMutablePointer<addrinfo>?
            let status = getaddrinfo(host, String(port), &hints, &list)
            guard status == 0, let first = list else {
                throw ResolutionError(description: String(cString: gai_strerror(status)))
            }
            defer { freeaddrinfo(first) }
            var addresses: [IPAddress] = []
            var entry: UnsafeMutablePointer<addrinfo>? = first
            while let current = entry {
                if let address = Self.address(current.pointee), !addresses.contains(address) { addresses.append(address) }
                entry = current.pointee.ai_next
            }
            guard !addresses.isEmpty else { throw ResolutionError(description: "no address") }
            return addresses
        }
    }

    private static func address(_ info: addrinfo) -> IPAddress? {
        guard let socketAddress = info.ai_addr else { return nil }
        var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN) + 1)
        switch info.ai_family {
        case AF_INET:
            var address = socketAddress.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { $0.pointee.sin_addr }
            guard inet_ntop(AF_INET, &address, &text, socklen_t(text.count)) != nil else { return nil }
        case AF_INET6:
            var address = socketAddress.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { $0.pointee.sin6_addr }
            guard inet_ntop(AF_INET6, &address, &text, socklen_t(text.count)) != nil else { return nil }
        default:
            return nil
        }
        return IPAddress(String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
    }
}
