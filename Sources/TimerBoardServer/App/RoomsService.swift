import ServiceLifecycle

/// The rooms as a service: stopped after the server (no new edits come in), before the store:
/// each room waits until what it applied is durable, then closes.
struct RoomsService: Service {
    let registry: BoardRegistry

    func run() async throws {
        try? await gracefulShutdown()
        await registry.shutDown()
    }
}
