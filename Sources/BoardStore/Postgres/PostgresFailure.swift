import PostgresNIO
import _ConnectionPoolModule

/// What went wrong with PostgreSQL, in PostgreSQL's own words: postgres-nio's `PSQLError`
/// prints "Generic description to prevent accidental leakage" whatever happened, so the store
/// reads the server's fields (message, SQLSTATE, detail, hint) or the connection's error itself.
/// Nothing here can hold the password: the server never repeats it, and the URL is never quoted.
enum PostgresFailure {
    /// Whether the database itself refused who we are or where we asked to go: a wrong password,
    /// a role that may not log in, no such database. Waiting does not help; the node ends.
    static func isRefusedLogin(_ error: any Error) -> Bool {
        guard let error = error as? PSQLError else { return false }
        // A server without the TLS the URL requires (sslmode=require) will not offer it later.
        if [.authMechanismRequiresPassword, .unsupportedAuthMechanism, .saslError, .sslUnsupported].contains(error.code) { return true }
        guard let state = error.serverInfo?[.sqlState] else { return false }
        // Class 28: invalid authorization; 3D000: no such database; 42501: no privilege (CONNECT).
        return state.hasPrefix("28") || state == "3D000" || state == "42501"
    }

    /// The SQLSTATE PostgreSQL answered with, when it answered.
    static func sqlState(_ error: any Error) -> String? {
        (error as? PSQLError)?.serverInfo?[.sqlState]
    }

    /// `error` as a store reports it: a `StoreError` (`unavailable`) that says what PostgreSQL
    /// said, or why it could not be reached. A `StoreError` or a cancellation passes unchanged.
    static func storeError(_ error: any Error, host: String, port: Int) -> any Error {
        switch error {
        case is StoreError, is CancellationError: return error
        case let error as ConnectionPoolError where error == .requestCancelled: return CancellationError()
        default: return StoreError(.unavailable, describe(error, host: host, port: port))
        }
    }

    /// One line an operator can act on.
    static func describe(_ error: any Error, host: String, port: Int) -> String {
        let place = "PostgreSQL at \(host):\(port)"
        switch error {
        case let error as PSQLError:
            if let info = error.serverInfo, let message = info[.message] {
                var text = "\(place) said: \(message)"
                if let state = info[.sqlState] { text += " (SQLSTATE \(state))" }
                if let detail = info[.detail] { text += "; \(detail)" }
                if let hint = info[.hint] { text += "; hint: \(hint)" }
                return text
            }
            let cause = error.underlying.map { ": \($0)" } ?? ""
            switch error.code {
            case .connectionError: return "cannot reach \(place)\(cause)"
            case .serverClosedConnection: return "\(place) closed the connection\(cause)"
            case .clientClosedConnection, .poolClosed: return "the connection to \(place) was closed\(cause)"
            case .authMechanismRequiresPassword: return "\(place) asks for a password, and the store URL has none"
            case .unsupportedAuthMechanism: return "\(place) asks for an authentication method this server does not support"
            case .sslUnsupported: return "\(place) does not offer TLS, which the store URL requires (sslmode=require)"
            default: return "\(place): \(error.code)\(cause)"
            }
        case let error as ConnectionPoolError where error == .connectionCreationCircuitBreakerTripped:
            return "no connection to \(place) could be opened for a minute"
        case let error as ConnectionPoolError where error == .poolShutdown:
            return "the connections to \(place) are closed"
        default:
            return "\(place): \(error)"
        }
    }
}
