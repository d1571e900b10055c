import AsyncHTTPClient
import BoardStore
import NIOCore
import NIOPosix
import NIOHTTP1

/// Sends one delivery: checks where its URL leads (again: a name may resolve elsewhere now),
/// signs it as Standard Webhooks says and POSTs it, following no redirect, within the timeouts,
/// reading at most 64 KiB of the answer. A plain `http` send connects to the very address that
/// was checked; an `https` one connects by name (its certificate is for the name), so a name
/// that changes its address between the check and the connection is not caught (docs/security.md).
struct WebhookSender: Sendable {
    let allowPrivate: Bool
    /// The whole attempt, connection included.
    let timeout: Duration
    static let maxResponseBytes = 64 * 1_024
    static let userAgent = "TimerBoard/\(TimerBoardVersion.number)"

    /// What the endpoint answered: its status, or why there was none.
    struct Answer: Equatable {
        let status: Int?
        let error: String?

        var succeeded: Bool { status.map { (200..<300).contains($0) } ?? false }
    }

    /// The HTTP client deliveries share: no redirects, no proxy, the system's trust roots. A
    /// connection that fails is not tried again within the attempt (the client's default
    /// until the connect timeout): a refused one fails at once, and the delivery's own
    /// schedule tries again, without holding one of `--webhook-concurrency`'s places meanwhile.
    static func makeClient(connectTimeout: Duration) -> HTTPClient {
        var configuration = HTTPClient.Configuration(
            redirectConfiguration: .disallow,
            timeout: .init(connect: .nanoseconds(connectTimeout.nanoseconds)),
            decompression: .disabled
        )
        configuration.connectionPool.retryConnectionEstablishment = false
        return HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
    }

    func send(_ delivery: WebhookDelivery, with client: HTTPClient, now: Int64) async -> Answer {
        let url: WebhookURL
        do {
            url = try WebhookURL(delivery.url)
        } catch {
            return Answer(status: nil, error: "refused: \(error)")
        }
        let addresses: [IPAddress]
        switch await WebhookTarget.check(url, allowPrivate: allowPrivate) {
        case .failure(let problem): return Answer(status: nil, error: "refused: \(problem)")
        case .success(let checked): addresses = checked
        }
        var request: HTTPClientRequest
        if !url.isHTTPS, let address = addresses.first, let pinned = url.pinned(to: address) {
            request = HTTPClientRequest(url: pinned)
            request.headers.add(name: "host", value: url.hostHeader)
        } else {
            request = HTTPClientRequest(url: url.text)
        }
        let body = Array(delivery.payload.utf8)
        let timestamp = now / 1_000
        guard let signature = WebhookSignature.sign(secret: delivery.secret, messageID: delivery.id, timestamp: timestamp, body: body) else {
            return Answer(status: nil, error: "the endpoint's secret is not whsec_ and base64")
        }
        request.method = .POST
        request.headers.add(name: "content-type", value: "application/json")
        request.headers.add(name: "user-agent", value: Self.userAgent)
        request.headers.add(name: "webhook-id", value: delivery.id)
        request.headers.add(name: "webhook-timestamp", value: "\(timestamp)")
        request.headers.add(name: "webhook-signature", value: signature)
        request.body = .bytes(ByteBuffer(bytes: body))
        let response: HTTPClientResponse
        do {
            response = try await client.execute(request, timeout: .nanoseconds(timeout.nanoseconds))
        } catch {
            return Answer(status: nil, error: Self.describe(error))
        }
        // The status decides; the body is read (up to the cap) only so the connection can be
        // reused, and a body that breaks off changes nothing.
        var read = 0
        do {
            for try await chunk in response.body {
                read += chunk.readableBytes
                if read >= Self.maxResponseBytes { break }
            }
        } catch {}
        return Answer(status: Int(response.status.code), error: nil)
    }

    /// An error in a line the owner can read.
    static func describe(_ error: any Error) -> String {
        let text: String
        if let error = error as? HTTPClientError {
            switch error {
            case .connectTimeout: text = "connecting timed out"
            case .deadlineExceeded, .readTimeout: text = "no answer in time"
            case .remoteConnectionClosed: text = "the endpoint closed the connection"
            default: text = "\(error)"
            }
        } else if let error = error as? NIOConnectionError, let first = error.connectionErrors.first {
            return describe(first.error)
        } else if let error = error as? IOError, error.errnoCode == ECONNREFUSED {
            text = "the endpoint refused the connection"
        } else {
            text = "\(error)"
        }
        return String(text.prefix(300))
    }
}

extension Duration {
    fileprivate var nanoseconds: Int64 {
        components.seconds * 1_000_000_000 + components.attoseconds / 1_000_000_000
    }
}
