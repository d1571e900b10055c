import Logging
import ServiceLifecycle

/// The rooms as a service. At start it loads the boards whose webhooks want events (their
/// timers must finish on time with nobody on them). Stopped after the server (no new edits come
/// in), before the store: each room waits until what it applied is durable, then closes.
struct RoomsService: Service {
    let registry: BoardRegistry
    let logger: Logger

    func run() async throws {
        do {
            let loaded = try await registry.loadBoardsWithWebhooks()
            if loaded > 0 { logger.info("loaded the boards with webhooks", metadata: ["tb.boards": "\(loaded)"]) }
        } catch is CancellationError {
            // The start failed (a taken port, say) before the boards were loaded: nothing to tell.
        } catch {
            logger.error("could not load the boards with webhooks; each loads on its next use", metadata: ["tb.error": "\(error)"])
        }
        try? await gracefulShutdown()
        await registry.shutDown()
    }
}
