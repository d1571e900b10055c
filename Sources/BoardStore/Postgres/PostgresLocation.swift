import Foundation
import PostgresNIO

/// Where a PostgreSQL store lives, from `postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE`.
///
/// TLS is off unless the URL asks for it with `?sslmode=require`: a cluster's nodes usually sit
/// next to their database on a private network, and the operator says otherwise in the URL.
///
/// The URL is read by hand rather than by `URLComponents`: a password as people write them
/// (with `/`, `?`, `#` or `@` in it, not percent-encoded) must work, and a URL that does not
/// parse must never be repeated with its password in a message (`redacted`).
public struct PostgresLocation: Hashable, Sendable, CustomStringConvertible {
    public var host: String
    public var port: Int
    public var username: String
    public var password: String?
    public var database: String
    public var requiresTLS: Bool
    /// The most connections the store's pool opens (postgres-nio's default, 20). A node holds
    /// one of them for its `LISTEN`; appends, loads and operator commands share the others.
    public var maximumConnections = 20
    /// How long a call waits for a connection of the pool before it fails (`unavailable`,
    /// nothing sent); nil: as long as postgres-nio's pool lets it, which is up to a minute when
    /// the database has gone (its backoff, then its circuit breaker). The server sets it to
    /// `--store-timeout-seconds`, so an edit in flight, a join and a stop do not hang.
    public var connectionWait: Duration?

    /// Nil unless `url` is a `postgres://` or `postgresql://` URL with a user, a host and a database.
    ///
    /// The user and password end at the URL's last `@`, so they may hold any character (percent
    /// escapes are decoded too); the host, port, database and query follow it and may not hold `@`.
    public init?(url: String) {
        guard let schemeEnd = url.range(of: "://") else { return nil }
        guard ["postgres", "postgresql"].contains(url[..<schemeEnd.lowerBound].lowercased()) else { return nil }
        let rest = url[schemeEnd.upperBound...]
        guard let at = rest.lastIndex(of: "@") else { return nil }
        let userInfo = rest[..<at]
        var afterUser = rest[rest.index(after: at)...]
        var query: Substring = ""
        if let question = afterUser.firstIndex(of: "?") {
            query = afterUser[afterUser.index(after: question)...]
            afterUser = afterUser[..<question]
        }
        guard let slash = afterUser.firstIndex(of: "/") else { return nil }
        let hostAndPort = afterUser[..<slash]
        let database = Self.decoded(afterUser[afterUser.index(after: slash)...])
        guard !database.isEmpty, !database.contains("/") else { return nil }

        let (user, password) =
            userInfo.firstIndex(of: ":").map { (userInfo[..<$0], Optional(userInfo[userInfo.index(after: $0)...])) }
            ?? (userInfo, nil)
        guard !user.isEmpty else { return nil }
        guard let (host, port) = Self.hostAndPort(hostAndPort) else { return nil }
        self.host = host
        self.port = port
        self.username = Self.decoded(user)
        self.password = password.map(Self.decoded)
        self.database = database
        let sslMode = query.split(separator: "&").compactMap { pair -> Substring? in
            let parts = pair.split(separator: "=", maxSplits: 1)
            return parts.count == 2 && parts[0] == "sslmode" ? parts[1] : nil
        }.first
        self.requiresTLS = sslMode == "require" || sslMode == "verify-full"
    }

    /// `host`, `host:port`, `[v6]` or `[v6]:port`; nil for an empty host or a port that is no port.
    private static func hostAndPort(_ text: Substring) -> (String, Int)? {
        var host = text
        var portText: Substring?
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]") else { return nil }
            host = text[text.index(after: text.startIndex)..<close]
            let after = text[text.index(after: close)...]
            if after.hasPrefix(":") { portText = after.dropFirst() } else if !after.isEmpty { return nil }
        } else if let colon = text.lastIndex(of: ":") {
            host = text[..<colon]
            portText = text[text.index(after: colon)...]
        }
        guard !host.isEmpty else { return nil }
        guard let portText else { return (String(host), 5432) }
        guard let port = Int(portText), (1...65_535).contains(port) else { return nil }
        return (String(host), port)
    }

    private static func decoded(_ text: Substring) -> String {
        String(text).removingPercentEncoding ?? String(text)
    }

    /// `url` with its password (if it has one) replaced by `***`: what a message may repeat of
    /// a store URL, parsed or not.
    public static func redacted(_ url: String) -> String {
        guard let schemeEnd = url.range(of: "://") else { return url.contains("@") ? "***" : url }
        let rest = url[schemeEnd.upperBound...]
        guard let at = rest.lastIndex(of: "@") else { return url }
        let userInfo = rest[..<at]
        guard let colon = userInfo.firstIndex(of: ":") else { return url }
        return String(url[..<schemeEnd.upperBound]) + userInfo[..<colon] + ":***" + rest[at...]
    }

    /// The URL without its password, for logs.
    public var description: String {
        "postgres://\(username)@\(host.contains(":") ? "[\(host)]" : host):\(port)/\(database)"
    }

    var clientConfiguration: PostgresClient.Configuration {
        var configuration = PostgresClient.Configuration(
            host: host,
            port: port,
            username: username,
            password: password,
            database: database,
            tls: requiresTLS ? .require(.makeClientConfiguration()) : .disable
        )
        configuration.options.connectTimeout = .seconds(5)
        configuration.options.maximumConnections = maximumConnections
        return configuration
    }

    /// One connection outside the pool, as the pool would open it: how the store asks at start
    /// and while the pool waits out its backoff whether the database answers.
    func connectionConfiguration() throws -> PostgresConnection.Configuration {
        var configuration = PostgresConnection.Configuration(
            host: host,
            port: port,
            username: username,
            password: password,
            database: database,
            tls: requiresTLS ? .require(try NIOSSLContext(configuration: .makeClientConfiguration())) : .disable
        )
        configuration.options.connectTimeout = .seconds(5)
        return configuration
    }
}
