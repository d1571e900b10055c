import BoardProtocol
import HTTPTypes
import Hummingbird
import NIOCore

/// Refuses state-changing requests (anything but GET and HEAD) from a page of another site with
/// 403 and the error shape, before any route runs.
struct OriginCheckMiddleware<Context: RequestContext>: RouterMiddleware {
    let policy: OriginPolicy

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard request.method == .get || request.method == .head || policy.allows(request.head) else {
            let body = ServerMessage.error(code: .forbidden, message: "requests from this page's origin are not allowed").encoded()
            return Response(
                status: .forbidden,
                headers: [.contentType: "application/json; charset=utf-8"],
                body: .init(byteBuffer: ByteBuffer(bytes: body))
            )
        }
        return try await next(request, context)
    }
}
