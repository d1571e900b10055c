import Foundation
import NIOCore
import NIOPosix
import NIOWebSocket
import Synchronization

/// A WebSocket client made of one NIO channel and two small handlers: no task, stream or lock
/// per connection and no JSON decoding, so a thousand of them on one core cost less than the server
/// they measure (a hummingbird client per subscriber did not: the load generator was the limit).
final class BenchSocket: Sendable {
    private let channel: EventLoopFuture<any Channel>
    /// Succeeds once the server accepted the WebSocket upgrade.
    private let opened: EventLoopPromise<Void>
    /// Payload bytes of the data frames received, as they were on the wire (compressed or not).
    var receivedWireBytes: Int { wireBytes.count.load(ordering: .relaxed) }
    private let wireBytes = WireByteCounter()
    /// The close code the server ended this connection with (1006: no close frame), or nil while
    /// it is open or when the bench closed it: a scenario reports these instead of losing
    /// messages silently.
    var serverCloseCode: Int? { ending.serverCloseCode }
    private let ending = ConnectionEnding()

    /// Connects to `url` (ws://host:port/path). `onMessage` runs on the event loop for each text
    /// or binary message, with its bytes and the local arrival time in nanoseconds of uptime.
    /// With `offersDeflate` the handshake offers permessage-deflate and compressed messages are
    /// inflated before `onMessage`, so the client pays what a browser pays.
    init(
        url: String,
        offersDeflate: Bool = false,
        eventLoop: (any EventLoop)? = nil,
        onMessage: @escaping @Sendable (_ message: ByteBuffer, _ arrivedAt: UInt64) -> Void
    ) {
        let parts = Self.parse(url)
        let loop = eventLoop ?? BenchEventLoops.shared.any()
        let opened = loop.makePromise(of: Void.self)
        self.opened = opened
        let wireBytes = self.wireBytes
        let ending = self.ending
        channel = ClientBootstrap(group: loop)
            .channelOption(.socketOption(.tcp_nodelay), value: 1)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(
                        UpgradeHandler(
                            host: parts.host,
                            path: parts.path,
                            offersDeflate: offersDeflate,
                            wireBytes: wireBytes,
                            ending: ending,
                            opened: opened,
                            onMessage: onMessage
                        )
                    )
                }
            }
            .connect(host: parts.host, port: parts.port)
        channel.whenFailure { opened.fail($0) }
        ConnectWatch.started.add(1, ordering: .relaxed)
        loop.scheduleTask(in: ConnectWatch.answerPatience) {
            opened.fail(NoUpgradeAnswer(seconds: ConnectWatch.answerPatience.nanoseconds / 1_000_000_000))
        }
        opened.futureResult.whenComplete { result in
            switch result {
            case .success: ConnectWatch.opened.add(1, ordering: .relaxed)
            case .failure(let error): if !ending.isClosedByBench { ConnectWatch.failed(error, url: url) }
            }
        }
    }

    /// Waits until the WebSocket is open.
    func waitUntilOpen() async throws {
        try await opened.futureResult.get()
    }

    func send(_ message: BenchMessage) {
        switch message {
        case .text(let text): send(text)
        case .binary(let bytes): sendBinary(bytes)
        }
    }

    /// Text-message convenience for the TimerBoard scenarios.
    convenience init(url: String, onText: @escaping @Sendable (_ text: String, _ arrivedAt: UInt64) -> Void) {
        self.init(url: url) { message, arrivedAt in onText(String(buffer: message), arrivedAt) }
    }

    /// Sends a text message (after the handshake; earlier ones wait in the upgrade handler).
    func send(_ text: String) {
        send(ByteBuffer(string: text), opcode: .text)
    }

    /// Sends a binary message.
    func sendBinary(_ bytes: [UInt8]) {
        send(ByteBuffer(bytes: bytes), opcode: .binary)
    }

    private func send(_ data: ByteBuffer, opcode: WebSocketOpcode) {
        channel.whenSuccess { channel in
            let frame = WebSocketFrame(fin: true, opcode: opcode, maskKey: .random(), data: data)
            channel.writeAndFlush(frame, promise: nil)
        }
    }

    /// Stops reading the socket: what the server sends piles up in the kernel's buffers, and
    /// then in the server, as with a client that hangs or sits behind a slow link.
    func stopReading() {
        channel.whenSuccess { channel in
            channel.setOption(ChannelOptions.autoRead, value: false).whenComplete { _ in }
        }
    }

    func close() async {
        ending.closedByBench()
        guard let channel = try? await channel.get() else { return }
        try? await channel.close()
    }

    private static func parse(_ url: String) -> (host: String, port: Int, path: String) {
        let components = URLComponents(string: url)
        return (components?.host ?? "127.0.0.1", components?.port ?? 80, components?.path ?? "/")
    }
}

/// The server answered the WebSocket upgrade with something other than `101`.
struct UpgradeRefused: Error, CustomStringConvertible {
    /// The status line and what came of the body.
    let response: String

    var description: String {
        let hint =
            response.contains(" 503 ")
            ? "\n(its connection limits stop big benches: start it with the serve options scripts/bench uses)" : ""
        return "the server refused a WebSocket: \(response)" + hint
    }
}

/// Sends the HTTP upgrade request, waits for `101`, then swaps itself for the WebSocket frame
/// codec and `MessageHandler`. Frames written before that wait here.
private final class UpgradeHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias OutboundIn = WebSocketFrame
    typealias OutboundOut = ByteBuffer

    private let host: String
    private let path: String
    private let offersDeflate: Bool
    private let wireBytes: WireByteCounter
    private let ending: ConnectionEnding
    private let onMessage: @Sendable (ByteBuffer, UInt64) -> Void
    private let opened: EventLoopPromise<Void>
    private var response = ByteBuffer()
    private var waiting: [(WebSocketFrame, EventLoopPromise<Void>?)] = []
    private var upgraded = false

    init(
        host: String,
        path: String,
        offersDeflate: Bool,
        wireBytes: WireByteCounter,
        ending: ConnectionEnding,
        opened: EventLoopPromise<Void>,
        onMessage: @escaping @Sendable (ByteBuffer, UInt64) -> Void
    ) {
        self.host = host
        self.path = path
        self.offersDeflate = offersDeflate
        self.wireBytes = wireBytes
        self.ending = ending
        self.opened = opened
        self.onMessage = onMessage
    }

    func channelInactive(context: ChannelHandlerContext) {
        opened.fail(ChannelError.inputClosed)
        context.fireChannelInactive()
    }

    func channelActive(context: ChannelHandlerContext) {
        // The headers Chromium sends (all but Origin, as a script's socket): the server reads
        // a browser's 500-byte request, not a 150-byte one, and its read buffer grows to fit,
        // which an idle connection keeps (docs/performance.md). The key is fixed: the server
        // only echoes its hash, and nothing here checks it.
        let request =
            "GET \(path) HTTP/1.1\r\nHost: \(host)\r\nConnection: Upgrade\r\nPragma: no-cache\r\n"
            + "Cache-Control: no-cache\r\nUser-Agent: \(Self.userAgent)\r\nUpgrade: websocket\r\n"
            + "Sec-WebSocket-Version: 13\r\nAccept-Encoding: gzip, deflate, br, zstd\r\nAccept-Language: en-US,en;q=0.9\r\n"
            + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
            + (offersDeflate ? "Sec-WebSocket-Extensions: permessage-deflate; client_max_window_bits\r\n" : "") + "\r\n"
        context.writeAndFlush(wrapOutboundOut(ByteBuffer(string: request)), promise: nil)
        context.fireChannelActive()
    }

    static let userAgent = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36"

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        // After the upgrade, what passes is the encoder's bytes (a pong to a ping that came
        // with the handshake's answer, written before this handler has left the pipeline).
        guard !upgraded else { return context.write(data, promise: promise) }
        waiting.append((unwrapOutboundIn(data), promise))
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        var bytes = unwrapInboundIn(data)
        response.writeBuffer(&bytes)
        let view = response.readableBytesView
        guard let end = view.firstRange(of: Array("\r\n\r\n".utf8)) else { return }
        let head = String(decoding: view[view.startIndex..<end.lowerBound], as: UTF8.self)
        guard head.hasPrefix("HTTP/1.1 101") else {
            let statusLine = head.components(separatedBy: "\r\n")[0]
            let body = String(decoding: view[end.upperBound...].prefix(300), as: UTF8.self)
            opened.fail(UpgradeRefused(response: "\(statusLine) \(body)"))
            context.close(promise: nil)
            return
        }
        response.moveReaderIndex(to: end.upperBound)
        upgraded = true
        let leftover = response
        let pipeline = context.pipeline.syncOperations
        do {
            try pipeline.addHandlers(
                [
                    WebSocketFrameEncoder(),
                    ServerFrameReader(wireBytes: wireBytes, ending: ending, onMessage: onMessage),
                ],
                position: .after(self)
            )
        } catch {
            context.close(promise: nil)
            return
        }
        // Frames that came with the handshake's answer go to the decoder before we leave.
        if leftover.readableBytes > 0 { context.fireChannelRead(NIOAny(leftover)) }
        let waiting = self.waiting
        self.waiting = []
        pipeline.removeHandler(self, promise: nil)
        for (frame, promise) in waiting { context.channel.write(frame, promise: promise) }
        context.channel.flush()
        opened.succeed()
    }
}

/// Bytes counted by a connection's handler on the event loop and read by the scenario.
final class WireByteCounter: Sendable {
    let count = Atomic<Int>(0)
}

/// How a connection ended: set once, by the server's close frame, by the socket going away, or
/// by the bench's own close, whichever comes first.
final class ConnectionEnding: Sendable {
    private static let open = 0
    private static let byBench = -1
    private let code = Atomic<Int>(ConnectionEnding.open)

    var serverCloseCode: Int? {
        let code = code.load(ordering: .relaxed)
        return code > 0 ? code : nil
    }

    func closedByServer(code: Int) {
        _ = self.code.compareExchange(expected: Self.open, desired: code, ordering: .relaxed)
    }

    var isClosedByBench: Bool { code.load(ordering: .relaxed) == Self.byBench }

    func closedByBench() {
        _ = code.compareExchange(expected: Self.open, desired: Self.byBench, ordering: .relaxed)
    }
}

/// Opens `count` connections to `url` in waves of 500 and returns once each has received a
/// message for which `isReady` is true. Thousands of connects at once overflow the listen
/// backlog. Throws `ConnectionsNotReady` when a wave is not ready within `patience` or the server
/// closes some of its connections first, instead of waiting for ever.
func connectInWaves(
    _ count: Int,
    url: String,
    patience: Duration = .seconds(60),
    isReady: @escaping @Sendable (ByteBuffer) -> Bool,
    greet: (_ socket: BenchSocket, _ index: Int) -> Void
) async throws -> [BenchSocket] {
    let ready = WireByteCounter()
    var sockets: [BenchSocket] = []
    for wave in stride(from: 0, to: count, by: 500) {
        let waveCount = min(500, count - wave)
        for index in wave..<(wave + waveCount) {
            let socket = BenchSocket(
                url: url,
                onMessage: { message, _ in
                    if isReady(message) { ready.count.add(1, ordering: .relaxed) }
                }
            )
            greet(socket, index)
            sockets.append(socket)
        }
        let deadline = ContinuousClock.now + patience
        while ready.count.load(ordering: .relaxed) < wave + waveCount {
            let closed = sockets.compactMap(\.serverCloseCode)
            guard closed.isEmpty, ContinuousClock.now < deadline else {
                let readyCount = ready.count.load(ordering: .relaxed)
                for socket in sockets { await socket.close() }
                let codes = Dictionary(grouping: closed, by: { $0 }).map { "\($1.count) closed by the server with \($0)" }.sorted()
                throw ConnectionsNotReady(
                    description: "\(readyCount) of \(count) connections were ready"
                        + (codes.isEmpty ? " after \(patience)" : "; " + codes.joined(separator: ", "))
                        + " (the server's limits: --max-connections, --max-connections-per-address, its file limit)"
                )
            }
            try await Task.sleep(for: .milliseconds(20))
        }
    }
    return sockets
}

/// Says hello and joins, for a scenario's clients.
func helloAndJoin(_ socket: BenchSocket, clientID: String, board: BenchBoard) {
    socket.send(#"{"type":"hello","protocol":1,"clientId":"\#(clientID)"}"#)
    socket.send(board.joinMessage)
}

/// The integer after `"key":` in a JSON text, found by scanning: enough for the fixed shapes the
/// server writes, and far cheaper than parsing every message of a thousand subscribers.
func scanInteger(after key: String, in text: String) -> Int64? {
    guard let range = text.range(of: "\"\(key)\":") else { return nil }
    var value: Int64 = 0
    var found = false
    for character in text[range.upperBound...] {
        guard let digit = character.wholeNumberValue else { break }
        value = value * 10 + Int64(digit)
        found = true
    }
    return found ? value : nil
}

/// Nanoseconds of uptime now.
func uptimeNanoseconds() -> UInt64 { DispatchTime.now().uptimeNanoseconds }
