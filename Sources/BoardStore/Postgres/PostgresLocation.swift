import Foundation
import PostgresNIO

/// Where a PostgreSQL store lives, from `postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE`.
///
/// TLS is off unless the URL asks for it with `?sslmode=require`: a cluster's nodes usually sit
/// next to their database on a private network, and the operator says otherwise in the URL.
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

    /// Nil unless `url` is a `postgres://` or `postgresql://` URL with a user, a host and a database.
    public init?(url: String) {
        guard let components = URLComponents(string: url), ["postgres", "postgresql"].contains(components.scheme),
            let host = components.host, !host.isEmpty,
            let username = components.user, !username.isEmpty
        else { return nil }
        let database = String(components.path.drop(while: { $0 == "/" }))
        guard !database.isEmpty, !database.contains("/") else { return nil }
        self.host = host
        self.port = components.port ?? 5432
        self.username = username.removingPercentEncoding ?? username
        self.password = components.password.map { $0.removingPercentEncoding ?? $0 }
        self.database = database
        let sslMode = components.queryItems?.first(where: { $0.name == "sslmode" })?.value
        self.requiresTLS = sslMode == "require" || sslMode == "verify-full"
    }

    /// The URL without its password, for logs.
    public var description: String {
        "postgres://\(username)@\(host):\(port)/\(database)"
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

}
