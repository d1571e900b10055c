import BoardCore
import BoardProtocol
import Foundation
import Hummingbird

extension BoardsController {
    /// The `title` of a JSON object body: nil when absent (and not `required`), else checked by
    /// the rule every title follows, sections' and timers' too: not only white space, at most
    /// `maxTitleLength` characters, one line, stored as sent (docs/protocol.md, "Operations").
    func readTitle(_ request: Request, required: Bool) async -> Result<String?, HTTPAnswer> {
        let contentType = request.headers[.contentType] ?? ""
        guard contentType.lowercased().hasPrefix("application/json") else {
            return .failure(HTTPAnswer(.unsupportedMediaType, .badJSON, "send the body as Content-Type: application/json"))
        }
        let body: ByteBuffer
        do {
            body = try await request.body.collect(upTo: Self.maxBodyBytes)
        } catch {
            metrics.refused(.bodyTooLarge)
            return .failure(HTTPAnswer(.contentTooLarge, .tooLarge, "the body must be at most \(Self.maxBodyBytes) bytes"))
        }
        var title: String?
        if body.readableBytes > 0 {
            guard case .object(let fields)? = JSONValue.parse(Data(body.readableBytesView)) else {
                return .failure(HTTPAnswer(.badRequest, .badJSON, #"the body must be a JSON object, such as {"title":"Kitchen"}"#))
            }
            switch fields["title"] {
            case nil, .null?: break
            case .string(let text)?: title = text
            case let other?: return .failure(HTTPAnswer(.badRequest, .invalidField, "title must be a string, not \(other.typeName)"))
            }
        }
        if required, title == nil {
            return .failure(HTTPAnswer(.badRequest, .invalidField, "title is missing"))
        }
        if let title, OneLineText.showsNothing(title) {
            return .failure(HTTPAnswer(.badRequest, .invalidField, "title must not be empty or only white space"))
        }
        if let title,
            title.count > maxTitleLength || title.utf8.count > BoardLimits.maxTitleBytes
                || OneLineText.breaksALine(title)
        {
            return .failure(
                HTTPAnswer(
                    .badRequest,
                    .invalidField,
                    "title must be at most \(maxTitleLength) characters and \(BoardLimits.maxTitleBytes) bytes, one line"
                )
            )
        }
        return .success(title)
    }
}
