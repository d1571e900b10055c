import BoardProtocol
import HTTPTypes
import Hummingbird
import Logging
import NIOCore
import NIOPosix

/// Serves the browser client's files to GET and HEAD requests that no route matched: `/` is
/// index.html, files are checked by `StaticPath` (the request) and `WebRoot` (the disk), and
/// answered with validators (304), one byte range (206 or 416) or whole. A matched route never
/// reaches this code. Errors are answered here, so they carry the security headers too.
struct StaticFileMiddleware<Context: RequestContext>: RouterMiddleware {
    let webRoot: WebRoot
    /// Larger files are not read into memory: 404, and a warning for the operator.
    let maxFileBytes: Int
    let logger: Logger

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        // The router names the endpoint before a matched route's middleware runs; only its
        // not-found responder comes here without one.
        guard context.endpointPath == nil, request.method == .get || request.method == .head else {
            return try await next(request, context)
        }
        let path: StaticPath
        do {
            path = try StaticPath(requestPath: request.uri.path)
        } catch .malformed {
            return Self.plain(.badRequest, "the path is not valid percent-encoded UTF-8, or holds a NUL")
        } catch .notServed {
            return Self.plain(.notFound, "not found")
        }
        context.coreContext.endpointPath.value = "static files"
        let outcome: Outcome
        do {
            outcome = try await NIOThreadPool.singleton.runIfActive { [webRoot, maxFileBytes, method = request.method, headers = request.headers] in
                try Self.look(up: path, in: webRoot, maxFileBytes: maxFileBytes, method: method, headers: headers)
            }
        } catch {
            logger.error("static file failed", metadata: ["tb.path": "\(request.uri.path)", "tb.error": "\(error)"])
            return Self.plain(.internalServerError, "the file could not be read")
        }
        return response(to: outcome, requestPath: request.uri.path)
    }

    // MARK: - On the thread pool

    /// What the disk said, decided there so the file is opened once and read only if needed.
    enum Outcome: Sendable {
        case notFound
        case tooLarge(size: Int)
        case found(name: String, file: FileValidators, answer: StaticFileAnswer, body: [UInt8])
    }

    private static func look(
        up path: StaticPath,
        in webRoot: WebRoot,
        maxFileBytes: Int,
        method: HTTPRequest.Method,
        headers: HTTPFields
    ) throws -> Outcome {
        guard let file = try webRoot.open(path) else { return .notFound }
        defer { file.close() }
        let validators = try file.validators()
        guard validators.size <= maxFileBytes else { return .tooLarge(size: validators.size) }
        let answer = StaticFileAnswer(method: method, headers: headers, file: validators)
        var body: [UInt8] = []
        if method == .get {
            switch answer {
            case .whole where validators.size > 0: body = try file.read(0...(validators.size - 1))
            case .partial(let range): body = try file.read(range)
            default: break
            }
        }
        return .found(name: file.name, file: validators, answer: answer, body: body)
    }

    // MARK: - The response

    private func response(to outcome: Outcome, requestPath: String) -> Response {
        switch outcome {
        case .notFound:
            return Self.plain(.notFound, "not found")
        case .tooLarge(let size):
            logger.warning(
                "a static file is over the size limit and is not served",
                metadata: ["tb.path": "\(requestPath)", "tb.size": "\(size)", "tb.limit": "\(maxFileBytes)"]
            )
            return Self.plain(.notFound, "not found")
        case .found(let name, let file, let answer, let body):
            var headers: HTTPFields = [
                .eTag: file.eTag,
                .lastModified: file.lastModified,
                .acceptRanges: "bytes",
            ]
            switch answer {
            case .notModified:
                // No body; a length, if any, is the 200's and not the empty body's 0 (RFC 9110 15.4.5).
                headers[.contentLength] = String(file.size)
                return Response(status: .notModified, headers: headers, body: .init())
            case .unsatisfiable:
                headers[.contentRange] = "bytes */\(file.size)"
                headers[.contentType] = "text/plain; charset=utf-8"
                return Response(
                    status: .rangeNotSatisfiable,
                    headers: headers,
                    body: .init(byteBuffer: ByteBuffer(string: "range not satisfiable\n"))
                )
            case .whole:
                headers[.contentType] = StaticContentType.of(fileNamed: name)
                headers[.contentLength] = String(file.size)
                return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: body)))
            case .partial(let range):
                headers[.contentType] = StaticContentType.of(fileNamed: name)
                headers[.contentRange] = "bytes \(range.lowerBound)-\(range.upperBound)/\(file.size)"
                headers[.contentLength] = String(range.count)
                return Response(status: .partialContent, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: body)))
            }
        }
    }

    /// An error in the protocol's shape, as every HTTP error is (docs/protocol.md, "HTTP errors").
    private static func plain(_ status: HTTPResponse.Status, _ message: String) -> Response {
        let code: ErrorCode =
            switch status {
            case .notFound: .notFound
            case .badRequest: .badMessage
            default: .internal
            }
        return HTTPAnswer(status, code, message).response
    }
}
