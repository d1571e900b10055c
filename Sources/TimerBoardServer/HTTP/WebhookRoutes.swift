import BoardProtocol
import BoardStore
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

/// A board's webhook endpoints, for its owner (or the operator): `POST /api/boards/ID/webhooks`
/// registers one and answers its signing secret, once; `GET` lists them with their recent
/// attempts; `DELETE …/webhooks/WID` removes one (docs/protocol.md, "Webhooks").
struct WebhookRoutes {
    let boards: BoardsController
    let store: any BoardStore
    /// Registrations per client address: each may cost a DNS lookup.
    let registrationLimiter: AddressRateLimiter
    let trustedProxies: TrustedProxies
    let allowPrivate: Bool
    let perBoard: Int
    let clock: any ServerClock

    func addRoutes(to group: RouterGroup<TimerBoardRequestContext>) {
        group.post(":id/webhooks", use: create)
        group.get(":id/webhooks", use: list)
        group.delete(":id/webhooks/:webhook", use: delete)
    }

    static let maxBodyBytes = 16_384

    @Sendable func create(request: Request, context: TimerBoardRequestContext) async throws -> Response {
        let address = ClientAddress.key(
            peer: context.remoteAddress,
            forwardedFor: request.headers[values: .xForwardedFor],
            realIP: request.headers[.xRealIP],
            trusted: trustedProxies
        )
        if let wait = registrationLimiter.take(address, now: clock.now()) {
            let seconds = (wait + 999) / 1_000
            var answer = HTTPAnswer(.tooManyRequests, .rateLimited, "too many webhooks from this address; try again in \(seconds) s").response
            answer.headers[.retryAfter] = "\(seconds)"
            return answer
        }
        let url: WebhookURL
        let events: [String]
        switch await Self.readRegistration(request) {
        case .success(let registration): (url, events) = registration
        case .failure(let answer): return answer.response
        }
        return try await boards.withBoard(request, context, needs: .owner) { room, _ in
            // Checked after the secret, so nobody without one can make the server resolve names.
            if case .failure(let problem) = await WebhookTarget.check(url, allowPrivate: allowPrivate) {
                return HTTPAnswer(.badRequest, .invalidField, problem.description).response
            }
            let endpoint = WebhookEndpoint(
                id: WebhookIDs.endpoint(),
                boardID: room.boardID,
                url: url.text,
                secret: WebhookIDs.secret(),
                events: events,
                createdAt: clock.now()
            )
            do {
                try await store.createWebhook(endpoint, limit: perBoard)
            } catch let error as StoreError where error.kind == .limitReached {
                return HTTPAnswer(.conflict, .limitExceeded, "a board has at most \(perBoard) webhook endpoints; delete one first").response
            }
            await room.webhooksChanged(.added(endpoint))
            var writer = JSONWriter()
            writer.beginObject()
            Self.fields(of: endpoint, into: &writer)
            writer.field("secret", endpoint.secret)
            writer.endObject()
            var response = BoardsController.json(.created, writer.bytes)
            response.headers[.cacheControl] = "no-store"
            return response
        }
    }

    @Sendable func list(request: Request, context: TimerBoardRequestContext) async throws -> Response {
        try await boards.withBoard(request, context, needs: .owner) { room, _ in
            let reports = try await store.webhooks(boardID: room.boardID)
            var writer = JSONWriter()
            writer.beginObject()
            writer.key("webhooks")
            writer.beginArray()
            for report in reports {
                writer.beginObject()
                Self.fields(of: report.endpoint, into: &writer)
                writer.key("attempts")
                writer.beginArray()
                for attempt in report.attempts { Self.write(attempt, into: &writer) }
                writer.endArray()
                writer.endObject()
            }
            writer.endArray()
            writer.endObject()
            var response = BoardsController.json(.ok, writer.bytes)
            response.headers[.cacheControl] = "no-store"
            return response
        }
    }

    @Sendable func delete(request: Request, context: TimerBoardRequestContext) async throws -> Response {
        let webhookID = try context.parameters.require("webhook")
        return try await boards.withBoard(request, context, needs: .owner) { room, _ in
            guard try await store.deleteWebhook(id: webhookID, boardID: room.boardID) else {
                return HTTPAnswer(.notFound, .notFound, "this board has no webhook \(webhookID)").response
            }
            await room.webhooksChanged(.removed(id: webhookID))
            return Response(status: .noContent)
        }
    }

    // MARK: JSON

    /// An endpoint as its owner sees it, without its secret.
    private static func fields(of endpoint: WebhookEndpoint, into writer: inout JSONWriter) {
        writer.field("id", endpoint.id)
        writer.field("url", endpoint.url)
        writer.key("events")
        writer.beginArray()
        for event in endpoint.events { writer.string(event) }
        writer.endArray()
        writer.field("createdAt", endpoint.createdAt)
        writer.field("enabled", endpoint.enabled)
        writer.key("disabledReason")
        if let reason = endpoint.disabledReason { writer.string(reason) } else { writer.null() }
        writer.key("failingSince")
        if let since = endpoint.failingSince { writer.int(since) } else { writer.null() }
    }

    private static func write(_ attempt: WebhookAttempt, into writer: inout JSONWriter) {
        writer.beginObject()
        writer.field("time", attempt.time)
        writer.field("event", attempt.event)
        writer.field("webhookId", attempt.messageID)
        writer.key("status")
        if let status = attempt.status { writer.int(status) } else { writer.null() }
        writer.key("error")
        if let error = attempt.error { writer.string(error) } else { writer.null() }
        writer.field("durationMs", attempt.durationMs)
        writer.endObject()
    }

    /// `{"url":"https://…","events":["timer.finished",…]}`, checked: a typed 4xx otherwise.
    private static func readRegistration(_ request: Request) async -> Result<(WebhookURL, [String]), HTTPAnswer> {
        guard (request.headers[.contentType] ?? "").lowercased().hasPrefix("application/json") else {
            return .failure(HTTPAnswer(.unsupportedMediaType, .badJSON, "send the body as Content-Type: application/json"))
        }
        let body: ByteBuffer
        do {
            body = try await request.body.collect(upTo: maxBodyBytes)
        } catch {
            return .failure(HTTPAnswer(.contentTooLarge, .tooLarge, "the body must be at most \(maxBodyBytes) bytes"))
        }
        guard case .object(let fields)? = JSONValue.parse(Data(body.readableBytesView)) else {
            return .failure(
                HTTPAnswer(.badRequest, .badJSON, #"the body must be a JSON object, such as {"url":"https://…","events":["timer.finished"]}"#)
            )
        }
        guard case .string(let text)? = fields["url"] else {
            return .failure(HTTPAnswer(.badRequest, .invalidField, "url must be a string"))
        }
        let url: WebhookURL
        do {
            url = try WebhookURL(text)
        } catch {
            return .failure(HTTPAnswer(.badRequest, .invalidField, error.description))
        }
        guard case .array(let values)? = fields["events"], !values.isEmpty else {
            return .failure(HTTPAnswer(.badRequest, .invalidField, "events must be a non-empty array of event names"))
        }
        var events: [String] = []
        for value in values {
            guard case .string(let name) = value, WebhookEventType(rawValue: name) != nil else {
                let known = WebhookEventType.allCases.map(\.rawValue).joined(separator: ", ")
                return .failure(HTTPAnswer(.badRequest, .invalidField, "events: each must be one of \(known)"))
            }
            if !events.contains(name) { events.append(name) }
        }
        return .success((url, events))
    }
}
