import Foundation
import Hummingbird
import NIOCore

/// The browser client's pages that are not files: a board's link opens the same single page
/// as the start page, which reads the board from its address.
struct PageRoutes {
    let webRoot: String

    func addRoutes(to router: Router<TimerBoardRequestContext>) {
        let indexPath = webRoot + "/index.html"
        router.get("/b/:id") { _, _ -> Response in
            guard let page = FileManager.default.contents(atPath: indexPath) else { throw HTTPError(.notFound) }
            return Response(status: .ok, headers: [.contentType: "text/html; charset=utf-8"], body: .init(byteBuffer: ByteBuffer(bytes: page)))
        }
    }
}
