import Hummingbird
import NIOCore

/// `/health` and `/ready`, for load balancers, container runtimes and operators. They differ:
/// `/health` says the process answers at all (restart it if not); `/ready` says it should get
/// new clients: its store answers (`StoreWatch`: a small read within 2 s) and it is not shutting
/// down (send clients elsewhere if not).
struct HealthRoutes {
    let registry: BoardRegistry
    let storeWatch: StoreWatch
    let readiness: ServerReadiness

    func addRoutes(to router: Router<TimerBoardRequestContext>) {
        router.get("/health") { _, _ in
            // How many boards are in memory tells an operator (and a test) that idle boards leave.
            Self.json(.ok, #"{"status":"ok","liveBoards":\#(await registry.liveRoomCount)}"#)
        }
        router.get("/ready") { _, _ in
            if readiness.isDraining { return Self.json(.serviceUnavailable, #"{"status":"draining"}"#) }
            guard await storeWatch.check() else { return Self.json(.serviceUnavailable, #"{"status":"store_unavailable"}"#) }
            return Self.json(.ok, #"{"status":"ready"}"#)
        }
    }

    private static func json(_ status: HTTPResponse.Status, _ body: String) -> Response {
        Response(
            status: status,
            headers: [.contentType: "application/json", .cacheControl: "no-store"],
            body: .init(byteBuffer: ByteBuffer(string: body))
        )
    }
}
