import HTTPTypes
import Hummingbird

/// `HEAD` of every route that answers `GET` (RFC 9110 9.3.2): the `GET`'s status and headers,
/// its `Content-Length` included, without the body. The routes register `GET` only, so an
/// uptime monitor's `HEAD /health` was a 404; the router picks a route by method before any
/// middleware runs, hence a responder around it. Not an event stream: its `GET` joins the
/// board and holds the connection, which a `HEAD` must not.
struct HeadRequestResponder<Base: HTTPResponder>: HTTPResponder {
    let base: Base

    func respond(to request: Request, context: Base.Context) async throws -> Response {
        guard request.method == .head, !request.uri.path.hasSuffix("/events") else { return try await base.respond(to: request, context: context) }
        var head = request.head
        head.method = .get
        // Only a GET's range counts (RFC 9110 14.2): a HEAD is told the whole file's headers.
        head.headerFields[.range] = nil
        let response = try await base.respond(to: Request(head: head, body: request.body), context: context)
        // The headers keep the GET's length (RFC 9110 9.3.2); only the body goes.
        return Response(status: response.status, headers: response.headers, body: ResponseBody())
    }
}
