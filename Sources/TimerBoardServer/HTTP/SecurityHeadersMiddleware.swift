import HTTPTypes
import Hummingbird

/// Headers every response carries: the page runs only its own scripts and cannot be framed,
/// nothing is sniffed into another type, no URL leaks to other sites in a Referer, and the
/// client's files (no build step, no hashed names) are revalidated rather than kept stale.
struct SecurityHeadersMiddleware<Context: RequestContext>: RouterMiddleware {
    static var contentSecurityPolicy: String {
        "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
            + "base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
    }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var response = try await next(request, context)
        response.headers[HTTPField.Name.contentSecurityPolicy] = Self.contentSecurityPolicy
        response.headers[HTTPField.Name.contentTypeOptions] = "nosniff"
        response.headers[HTTPField.Name.referrerPolicy] = "no-referrer"
        if response.headers[.cacheControl] == nil { response.headers[.cacheControl] = "no-cache" }
        return response
    }
}

extension HTTPField.Name {
    static let contentSecurityPolicy = Self("Content-Security-Policy")!
    static let contentTypeOptions = Self("X-Content-Type-Options")!
    static let referrerPolicy = Self("Referrer-Policy")!
}
