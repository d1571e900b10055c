import HTTPTypes
import HummingbirdCore
import Logging
import NIOCore
import NIOHTTP1
import NIOHTTPTypes
import NIOHTTPTypesHTTP1
import NIOWebSocket

/// Hummingbird's HTTP/1 server channel, with our WebSocket connections after an upgrade.
///
/// Plain HTTP requests go to hummingbird's responder as with its own channels. A request that
/// `accept` takes is upgraded by NIO's upgrader, and `accept`'s `connect` installs the
/// connection's handlers (`WebSocketConnection`); the task hummingbird runs for each accepted
/// socket then ends, so a WebSocket connection holds no task while it waits
/// (hummingbird-websocket keeps one for the connection's life, with a task group inside).
package struct WebSocketUpgradeChannel: ServerChildChannel, HTTPChannelHandler {
    /// A request the server upgrades: headers for the 101 answer, and what takes the channel.
    package struct Acceptance: Sendable {
        package var headers: HTTPFields
        /// Called on the channel's event loop once the 101 is written; installs the handlers.
        package var connect: @Sendable (any Channel) throws -> Void

        package init(headers: HTTPFields = [:], connect: @escaping @Sendable (any Channel) throws -> Void) {
            self.headers = headers
            self.connect = connect
        }
    }

    /// The answer to a request that asked for an upgrade and is refused.
    package struct Refusal: Sendable {
        package var status: HTTPResponse.Status
        /// Besides `Connection`, `Content-Length` and `Content-Type`.
        package var headers: HTTPFields
        /// A JSON body (the server's error shape), or none.
        package var body: [UInt8]

        package init(status: HTTPResponse.Status, headers: HTTPFields = [:], body: [UInt8]) {
            self.status = status
            self.headers = headers
            self.body = body
        }
    }

    /// Why an upgrade is refused, for the server to word the answer.
    package enum RefusalReason: Sendable {
        /// `accept` refused it (another site's page, another path).
        case notAccepted
        /// A `Sec-WebSocket-Version` other than 13: `426` with the version we speak (RFC 6455 4.4).
        case unsupportedVersion
        /// No `Sec-WebSocket-Key`, several, or one that is not 16 bytes in base64 (4.2.1): `400`.
        case badKey
    }

    package enum UpgradeResult: Sendable {
        /// The connection runs on its handlers now.
        case webSocket
        case notUpgraded(NIOAsyncChannel<HTTPRequestPart, HTTPResponsePart>)
        /// The request asked for an upgrade that is refused: answered with `refusal(reason)`.
        /// NIO's upgrade handler keeps no request head for it, so it is answered unread.
        case refused(NIOAsyncChannel<HTTPRequestPart, HTTPResponsePart>, RefusalReason)
    }

    package struct Value: ServerChildChannelValue {
        let upgradeResult: EventLoopFuture<UpgradeResult>
        package let channel: any Channel
    }

    package let responder: HTTPChannelHandler.Responder
    let http1: HTTP1Channel.Configuration
    /// Decides, on the event loop, whether a request that asks for a WebSocket gets one.
    let accept: @Sendable (HTTPRequest, any Channel) -> Acceptance?
    let refusal: @Sendable (RefusalReason) -> Refusal

    package init(
        responder: @escaping HTTPChannelHandler.Responder,
        http1: HTTP1Channel.Configuration,
        refusal: @escaping @Sendable (RefusalReason) -> Refusal = { _ in Refusal(status: .badRequest, body: []) },
        accept: @escaping @Sendable (HTTPRequest, any Channel) -> Acceptance?
    ) {
        self.refusal = refusal
        self.responder = Self.refusingLateUpgrades(responder)
        self.http1 = http1
        self.accept = accept
    }

    /// Reads start with 256-byte buffers (NIO's default: 2 KB), enough for a join or an edit,
    /// and grow when they fill: each connection keeps its last read buffer for the next read, so
    /// an idle WebSocket holds one of these for ever (docs/performance.md). A WebSocket starts
    /// again from 256 bytes (`WebSocketConnection.install`), so a browser's 500-byte upgrade
    /// request does not leave it a 512-byte buffer.
    static let readBuffers = SmallReadBuffers()

    package func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        channel.eventLoop.makeCompletedFuture {
            try channel.syncOptions?.setOption(ChannelOptions.recvAllocator, value: Self.readBuffers)
            // One read per wake-up: NIO pools up to this many read buffers per channel, and a
            // request that takes two reads (a browser's upgrade) would leave every WebSocket
            // a second buffer's place in the pool (128 bytes). Requests and messages are small.
            try channel.syncOptions?.setOption(ChannelOptions.maxMessagesPerRead, value: 1)
            let acceptance = NIOLoopBoundBox<Acceptance?>(nil, eventLoop: channel.eventLoop)
            let refused = NIOLoopBoundBox<RefusalReason?>(nil, eventLoop: channel.eventLoop)
            let upgrader = WebSocketServerUpgrader<UpgradeResult>(
                refuseHandshake: { reason in refused.value = reason },
                shouldUpgrade: { channel, head in
                    guard let request = try? HTTPRequest(head, secure: false, splitCookie: false),
                        let accepted = accept(request, channel)
                    else {
                        refused.value = .notAccepted
                        return channel.eventLoop.makeSucceededFuture(nil)
                    }
                    acceptance.value = accepted
                    return channel.eventLoop.makeSucceededFuture(HTTPHeaders(accepted.headers))
                },
                upgradePipelineHandler: { channel, _ in
                    channel.eventLoop.makeCompletedFuture {
                        guard let accepted = acceptance.value else { throw ChannelError.inappropriateOperationForState }
                        acceptance.value = nil
                        try accepted.connect(channel)
                        return .webSocket
                    }
                }
            )
            let upgrade = NIOTypedHTTPServerUpgradeConfiguration(
                upgraders: [upgrader],
                notUpgradingCompletionHandler: { channel in
                    channel.eventLoop.makeCompletedFuture {
                        let pipeline = channel.pipeline.syncOperations
                        try pipeline.addHandler(HTTP1ToHTTPServerCodec(secure: false))
                        try pipeline.addHandlers(http1.additionalChannelHandlers())
                        try pipeline.addHandler(HTTPConnectionStateHandler(idleTimeout: http1.idleTimeout.map { Duration($0) }, logger: logger))
                        let http = try NIOAsyncChannel<HTTPRequestPart, HTTPResponsePart>(
                            wrappingChannelSynchronously: channel,
                            configuration: .init(isOutboundHalfClosureEnabled: true)
                        )
                        guard let reason = refused.value else { return .notUpgraded(http) }
                        return .refused(http, reason)
                    }
                }
            )
            var configuration = NIOUpgradableHTTPServerPipelineConfiguration<UpgradeResult>(upgradeConfiguration: upgrade)
            configuration.enablePipelining = false  // NIOAsyncChannel reads one request at a time
            configuration.enableErrorHandling = false  // hummingbird answers parse errors
            configuration.enableResponseHeaderValidation = false  // swift-http-types validates
            configuration.decoderConfiguration.maxHeaderFieldSize = http1.httpDecoder.maxHeaderFieldSize
            configuration.decoderConfiguration.maxHeaderListSize = http1.httpDecoder.maxHeaderListSize
            configuration.decoderConfiguration.maxHeaderFieldCount = http1.httpDecoder.maxHeaderFieldCount
            let result = try channel.pipeline.syncOperations.configureUpgradableHTTPServerPipeline(configuration: configuration)
            return Value(upgradeResult: result, channel: channel)
        }
    }

    package func handle(value: Value, logger: Logger) async {
        do {
            switch try await value.upgradeResult.get() {
            case .webSocket:
                return  // no task from here on: the connection's handlers do the rest
            case .notUpgraded(let http):
                await handleHTTP(asyncChannel: http, logger: logger)
            case .refused(let http, let reason):
                await answerRefusedUpgrade(http, refusal(reason), logger: logger)
            }
        } catch let error as ChannelError where error == .inputClosed {
            logger.trace("the connection closed before its first request")
        } catch {
            logger.debug("the connection failed before its first request", metadata: ["tb.error": "\(error)"])
        }
    }

    private func answerRefusedUpgrade(_ http: NIOAsyncChannel<HTTPRequestPart, HTTPResponsePart>, _ refusal: Refusal, logger: Logger) async {
        do {
            try await http.executeThenClose { _, outbound in
                var fields = refusal.headers
                fields[.connection] = [refusal.headers[.connection], "close"].compactMap { $0 }.joined(separator: ", ")
                fields[.contentLength] = "\(refusal.body.count)"
                if !refusal.body.isEmpty { fields[.contentType] = "application/json; charset=utf-8" }
                let response = HTTPResponse(status: refusal.status, headerFields: fields)
                var parts: [HTTPResponsePart] = [.head(response)]
                if !refusal.body.isEmpty { parts.append(.body(ByteBuffer(bytes: refusal.body))) }
                parts.append(.end(nil))
                try await outbound.write(contentsOf: parts)
            }
        } catch {
            logger.trace("could not answer a refused upgrade", metadata: ["tb.error": "\(error)"])
        }
    }

    /// A first request that asks to upgrade to anything but a WebSocket (`h2c`, which Java's
    /// HTTP client sends by default), without its `Upgrade`, to be served as HTTP/1.1 (RFC 9110
    /// 7.8 lets a server ignore an upgrade); nil for any other request. NIO's upgrade handler
    /// drops the head of a request whose upgrade no upgrader takes, so it would reach hummingbird
    /// as a body without a head and the connection would close unanswered. The decoder reads
    /// nothing after such a request (it waits for the new protocol), so its answer must close.
    package static func servedAsHTTP(_ head: HTTPRequestHead) -> HTTPRequestHead? {
        let protocols = head.headers[canonicalForm: "upgrade"]
        guard !protocols.isEmpty, !protocols.contains(where: { $0.lowercased() == "websocket" }) else { return nil }
        var plain = head
        plain.headers.remove(name: "Upgrade")
        return plain
    }

    /// NIO upgrades only a connection's first request. A later request on a kept-alive
    /// connection that asks for a WebSocket is sent to the same address on a new connection
    /// (307 and close), as hummingbird-websocket does.
    private static func refusingLateUpgrades(_ responder: @escaping HTTPChannelHandler.Responder) -> HTTPChannelHandler.Responder {
        struct ClosingAfterRedirect: Error {}
        return { request, writer, channel in
            guard request.headers[.upgrade]?.lowercased() == "websocket" else {
                return try await responder(request, writer, channel)
            }
            var location = request.uri.path
            if let query = request.uri.query { location += "?\(query)" }
            try await writer.writeResponse(HTTPResponse(status: .temporaryRedirect, headerFields: [.connection: "close", .location: location]))
            throw ClosingAfterRedirect()
        }
    }
}
