import BoardProtocol
import NIOCore
import NIOHTTP1

/// Answers a request's `Expect: 100-continue` (RFC 9110 10.1.1) at once: `100 Continue` when its
/// body may be read, or `413` and a close when its `Content-Length` is over the largest body any
/// route takes, so the client does not send a body only to have it refused. A client waits for
/// one or the other before it sends its body (curl for a second, others for longer).
///
/// It sits right after the `ConnectionGuard`, which has admitted the request by then. A request
/// asked while an earlier answer is still being written gets no `100` (it would land inside that
/// answer): its client sends the body when its own wait ends.
final class ExpectContinueHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart
    typealias OutboundIn = HTTPServerResponsePart
    typealias OutboundOut = HTTPServerResponsePart

    private let largestBody: Int
    private let refused: @Sendable () -> Void
    /// Requests whose answer has not ended yet.
    private var answersOwed = 0
    /// A `413` was sent: what else arrives is dropped, and the connection closes once it is written.
    private var refusing = false

    /// `refused` counts a refusal (`timerboard_http_refusals_total{reason="body_too_large"}`).
    init(largestBody: Int, refused: @escaping @Sendable () -> Void) {
        self.largestBody = largestBody
        self.refused = refused
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !refusing else { return }
        guard case .head(let head) = unwrapInboundIn(data) else { return context.fireChannelRead(data) }
        guard !ConnectionGuard.isWebSocketUpgrade(head) else {
            // What follows may be a WebSocket's frames, which this handler must not read.
            context.fireChannelRead(data)
            return context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
        }
        answersOwed += 1
        // An HTTP/1.0 client is never sent a 1xx answer.
        guard Self.expectsContinue(head), head.version != .http1_0 else { return context.fireChannelRead(data) }
        if let length = head.headers.first(name: "Content-Length").flatMap(Int.init), length > largestBody {
            refused()
            return refuse(context, message: "the body must be at most \(largestBody) bytes")
        }
        if answersOwed == 1 {
            context.writeAndFlush(wrapOutboundOut(.head(HTTPResponseHead(version: head.version, status: .continue))), promise: nil)
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if case .end = unwrapOutboundIn(data) { answersOwed = max(answersOwed - 1, 0) }
        context.write(data, promise: promise)
    }

    private func refuse(_ context: ChannelHandlerContext, message: String) {
        refusing = true
        let body = ServerMessage.error(code: .tooLarge, message: message).encoded()
        let headers = HTTPHeaders([
            ("Content-Type", "application/json; charset=utf-8"),
            ("Content-Length", "\(body.count)"),
            ("Connection", "close"),
            ("X-Content-Type-Options", "nosniff"),
        ])
        context.write(wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: .payloadTooLarge, headers: headers))), promise: nil)
        context.write(wrapOutboundOut(.body(.byteBuffer(context.channel.allocator.buffer(bytes: body)))), promise: nil)
        context.writeAndFlush(wrapOutboundOut(.end(nil))).assumeIsolated().whenComplete { _ in
            context.close(promise: nil)
        }
    }

    /// `Expect: 100-continue`, in any case (the only expectation HTTP defines).
    static func expectsContinue(_ head: HTTPRequestHead) -> Bool {
        head.headers[canonicalForm: "expect"].contains { $0.lowercased() == "100-continue" }
    }
}
