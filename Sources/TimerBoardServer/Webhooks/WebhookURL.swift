import Foundation

/// A webhook endpoint's URL, checked as the owner registers it: `http` or `https`, a host, no
/// user name or password, no fragment, at most 2,048 bytes. Where it points (an address on the
/// internet, not inside the server's network) is `WebhookTarget`'s question.
struct WebhookURL: Sendable, Equatable {
    static let maxBytes = 2_048

    let text: String
    let isHTTPS: Bool
    /// The host as written, without the brackets of an IPv6 literal, lowercased.
    let host: String
    let port: Int

    /// Why a URL is refused, in words for the owner.
    struct Problem: Error, Equatable, CustomStringConvertible {
        let description: String
    }

    init(_ text: String) throws(Problem) {
        guard text.utf8.count <= Self.maxBytes else { throw Problem(description: "url must be at most \(Self.maxBytes) bytes") }
        guard !text.unicodeScalars.contains(where: { $0.properties.isWhitespace || $0.properties.generalCategory == .control }) else {
            throw Problem(description: "url must not contain spaces or control characters")
        }
        guard let components = URLComponents(string: text), let scheme = components.scheme?.lowercased() else {
            throw Problem(description: "url must be an absolute http or https URL")
        }
        guard scheme == "http" || scheme == "https" else { throw Problem(description: "url must be http or https, not \(scheme)") }
        guard components.percentEncodedUser == nil, components.percentEncodedPassword == nil else {
            throw Problem(description: "url must not carry a user name or password")
        }
        guard components.percentEncodedFragment == nil else { throw Problem(description: "url must not have a fragment (#…)") }
        var host = components.percentEncodedHost ?? ""
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        guard !host.isEmpty else { throw Problem(description: "url must name a host") }
        let port = components.port ?? (scheme == "https" ? 443 : 80)
        guard (1...65_535).contains(port) else { throw Problem(description: "url's port must be from 1 to 65535") }
        self.text = text
        self.isHTTPS = scheme == "https"
        self.host = host.lowercased()
        self.port = port
    }

    /// The same URL aimed at `address` instead of its host name, for a plain `http` send that
    /// connects to the very address that was checked (the `Host` header keeps the name).
    func pinned(to address: IPAddress) -> String? {
        guard var components = URLComponents(string: text) else { return nil }
        components.percentEncodedHost = address.isIPv4 ? address.description : "[\(address.description)]"
        return components.string
    }

    /// The `Host` header's value: the host, and the port when it is not the scheme's own.
    var hostHeader: String {
        let name = host.contains(":") ? "[\(host)]" : host
        return port == (isHTTPS ? 443 : 80) ? name : "\(name):\(port)"
    }
}
