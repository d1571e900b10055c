import BoardStore
import Logging
import ServiceLifecycle

/// The store as a service: first in the service group, so it is stopped last, once every room
/// has made what it applied durable (`RoomsService`), and then closed.
struct StoreService: Service {
    let store: any BoardStore
    let logger: Logger

    func run() async throws {
        // Throws only when the group is cancelled, which ends this service all the same.
        try? await gracefulShutdown()
        do {
            try await store.close()
        } catch {
            logger.error("closing the store failed", metadata: ["tb.error": "\(error)"])
        }
    }
}
