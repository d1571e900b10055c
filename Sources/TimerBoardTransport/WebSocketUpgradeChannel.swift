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

    /// The answer to a request that asked for an upgrade `accept` refused.
    package struct Refusal: Sendable {
        package var status: HTTPResponse.Status
        /// A JSON body (the server's error shape), or none.
        package var body: [UInt8]

        package init(status: HTTPResponse.Status, body: [UInt8]) {
            self.status = status
            self.body = body
        }
    }

    package enum UpgradeResult: Sendable {
        /// The connection runs on its handlers now.
        case webSocket
        case notUpgraded(NIOAsyncChannel<HTTPRequestPart, HTTPResponsePart>)
        /// The request asked for an upgrade that `accept` refused: answered with `refusal`.
        case refused(NIOAsyncChannel<HTTPRequestPart, HTTPResponsePart>)
    }

    package struct Value: ServerChildChannelValue {
        let upgradeResult: EventLoopFuture<UpgradeResult>
        package let channel: any Channel
    }

    package let responder: HTTPChannelHandler.Responder
    let http1: HTTP1Channel.Configuration
    /// Decides, on the event loop, whether a request that asks for a WebSocket gets one.
    let accept: @Sendable (HTTPRequest, any Channel) -> Acceptance?
    let refusal: Refusal

    package init(
        responder: @escaping HTTPChannelHandler.Responder,
        http1: HTTP1Channel.Configuration,
        refusal: Refusal = Refusal(status: .badRequest, body: []),
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
            let upgradeAttempted = NIOLoopBoundBox(false, eventLoop: channel.eventLoop)
            let upgrader = WebSocketServerUpgrader<UpgradeResult>(
                shouldUpgrade: { channel, head in
                    upgradeAttempted.value = true
                    guard let request = try? HTTPRequest(head, secure: false, splitCookie: false),
                        let accepted = accept(request, channel)
                    else { return channel.eventLoop.makeSucceededFuture(nil) }
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
                        return upgradeAttempted.value ? .refused(http) : .notUpgraded(http)
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
            case .refused(let http):
                await answerRefusedUpgrade(http, logger: logger)
            }
        } catch let error as ChannelError where error == .inputClosed {
            logger.trace("the connection closed before its first request")
        } catch {
            logger.debug("the connection failed before its first request", metadata: ["tb.error": "\(error)"])
        }
    }

    private func answerRefusedUpgrade(_ http: NIOAsyncChannel<HTTPRequestPart, HTTPResponsePart>, logger: Logger) async {
        do {
            try await http.executeThenClose { [refusal] _, outbound in
                var fields: HTTPFields = [.connection: "close", .contentLength: "\(refusal.body.count)"]
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
