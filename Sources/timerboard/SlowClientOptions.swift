import ArgumentParser
import TimerBoardServer

/// `serve`'s limits on slow HTTP clients: how long one request may take to arrive, and how long
/// one connection may be kept alive (docs/security.md).
struct SlowClientOptions: ParsableArguments {
    private static let defaults = ServerConfiguration()

    @Option(help: "Seconds a request has, from its header, to arrive whole (its body too); later is answered 408.")
    var requestTimeoutSeconds = Int(Self.defaults.requestTimeout.components.seconds)
    @Option(help: "Seconds a kept-alive HTTP connection may live, however often it asks; then it is closed after its answer.")
    var keepAliveLifetimeSeconds = Int(Self.defaults.keepAliveLifetime.components.seconds)

    func validate() throws {
        if requestTimeoutSeconds < 1 { throw ValidationError("--request-timeout-seconds must be at least 1") }
        if keepAliveLifetimeSeconds < 1 { throw ValidationError("--keep-alive-lifetime-seconds must be at least 1") }
    }

    func apply(to configuration: inout ServerConfiguration) {
        configuration.requestTimeout = .seconds(requestTimeoutSeconds)
        configuration.keepAliveLifetime = .seconds(keepAliveLifetimeSeconds)
    }
}
