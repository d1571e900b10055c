import BoardProtocol
import HTTPTypes
import Hummingbird

/// `GET /ws` without `Upgrade: websocket` (a browser's address bar, a script that forgot the
/// upgrade): `426` with what is missing, where any other unknown request would read `404`.
/// A request that does ask for the upgrade never gets here (`WebSocketUpgradeChannel`).
struct SocketPathRoute {
    func addRoutes(to router: Router<TimerBoardRequestContext>) {
        // `SessionFactory.path`, written out for scripts/server-routes.
        router.get("/ws") { _, _ in
            var response = HTTPAnswer(
                .upgradeRequired,
                .badMessage,
                "GET /ws opens the board socket: it needs Upgrade: websocket (RFC 6455)"
            ).response
            response.headers[.upgrade] = "websocket"
            response.headers[.connection] = "upgrade"  // a hop-by-hop field (RFC 9110 7.8)
            return response
        }
    }
}
