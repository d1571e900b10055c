import BoardProtocol
import HTTPTypes
import Hummingbird

/// Answers what no route answered, and any `HTTPError` a route or the router threw, with the
/// protocol's error shape (docs/protocol.md, "HTTP errors"): a script reads one JSON shape for
/// every HTTP error, an unknown path or method included, never an empty or plain-text body.
struct ErrorShapeMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as HTTPError {
            var response = HTTPAnswer(error.status, Self.code(for: error.status), Self.message(for: error, request: request)).response
            for field in error.headers where field.name != .contentType && field.name != .contentLength {
                response.headers.append(field)
            }
            return response
        }
    }

    private static func code(for status: HTTPResponse.Status) -> ErrorCode {
        switch status.code {
        case 404, 405: .notFound
        case 408, 400: .badMessage
        case 413: .tooLarge
        case 415: .badJSON
        case 500...: .internal
        default: .badMessage
        }
    }

    private static func message(for error: HTTPError, request: Request) -> String {
        if let body = error.body, !body.isEmpty { return body }
        switch error.status.code {
        case 404, 405: return "this server has no \(request.method) \(request.uri.path)"
        default: return error.status.reasonPhrase
        }
    }
}
