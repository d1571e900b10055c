import Foundation
import Hummingbird
import NIOCore

/// The browser client's pages that are not files: a board's link, and its display view for a
/// wall or a stage (of the board, or of one timer), open the same single page as the start
/// page, which reads the board and the view from its address.
struct PageRoutes {
    let webRoot: String

    func addRoutes(to router: Router<TimerBoardRequestContext>) {
        let indexPath = webRoot + "/index.html"
        let page: @Sendable (Request, TimerBoardRequestContext) async throws -> Response = { _, _ in
            guard let page = FileManager.default.contents(atPath: indexPath) else { throw HTTPError(.notFound) }
            return Response(status: .ok, headers: [.contentType: "text/html; charset=utf-8"], body: .init(byteBuffer: ByteBuffer(bytes: page)))
        }
        router.get("/b/:id", use: page)
        router.get("/b/:id/display", use: page)
        router.get("/b/:id/display/:timer", use: page)
    }
}
