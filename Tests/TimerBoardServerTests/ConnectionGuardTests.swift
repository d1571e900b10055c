import Logging
import NIOCore
import NIOEmbedded
import NIOHTTP1
import Testing

@testable import TimerBoardServer

/// The guard in a pipeline like the server's (response encoder, request decoder, guard), on an
/// embedded channel whose clock the test moves: no sockets, no waiting.
@Suite struct ConnectionGuardTests {
    static func settings(_ change: (inout ServerConfiguration) -> Void = { _ in }) -> ConnectionGuard.Settings {
        var configuration = ServerConfiguration()
        configuration.maxHeaderBytes = 1_024
        change(&configuration)
        return ConnectionGuard.Settings(configuration: configuration, logger: Logger(label: "test"))
    }

    static func channel(_ settings: ConnectionGuard.Settings, from address: String = "10.0.0.1") throws -> EmbeddedChannel {
        let channel = EmbeddedChannel()
        var limits = NIOHTTPDecoderLimitConfiguration()
        limits.maxHeaderFieldSize = 1_024
        limits.maxHeaderListSize = 1_024
        let encoder = HTTPResponseEncoder()
        try channel.pipeline.syncOperations.addHandler(encoder)
        try channel.pipeline.syncOperations.addHandler(
            ByteToMessageHandler(HTTPRequestDecoder(leftOverBytesStrategy: .forwardBytes, limitConfiguration: limits))
        )
        try channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 8080)).wait()
        // After connecting, which sets the remote address to the one connected to; the guard
        // last, as the server adds it to an accepted connection whose peer is known.
        channel.remoteAddress = try SocketAddress(ipAddress: address, port: 40_000)
        try channel.pipeline.syncOperations.addHandler(ConnectionGuard(settings: settings))
        return channel
    }

    static let upgrade = """
        GET /ws HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\
        Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n
        """

    /// Everything the channel wrote, as text.
    static func written(_ channel: EmbeddedChannel) throws -> String {
        var text = ""
        while let buffer = try channel.readOutbound(as: ByteBuffer.self) { text += String(buffer: buffer) }
        return text
    }

    @Test func anUpgradeOverTheAddressCapIsAnswered503AndTheSlotReturnsWhenTheFirstCloses() throws {
        let settings = Self.settings { $0.maxConnectionsPerAddress = 1 }
        let first = try Self.channel(settings)
        try first.writeInbound(ByteBuffer(string: Self.upgrade))
        guard case .head = try first.readInbound(as: HTTPServerRequestPart.self) else {
            Issue.record("the upgrade did not pass")
            return
        }
        #expect(settings.limiter.total == 1)

        let second = try Self.channel(settings)
        try second.writeInbound(ByteBuffer(string: Self.upgrade))
        #expect(try second.readInbound(as: HTTPServerRequestPart.self) == nil)
        let answer = try Self.written(second)
        #expect(answer.hasPrefix("HTTP/1.1 503 Service Unavailable\r\n"))
        #expect(answer.contains("Retry-After: 5\r\n"))
        #expect(answer.hasSuffix(#"{"type":"error","code":"too_many_connections","message":"too many connections from this address; try again later"}"#))
        #expect(!second.isActive)

        // Another address is not affected.
        let elsewhere = try Self.channel(settings, from: "10.0.0.2")
        try elsewhere.writeInbound(ByteBuffer(string: Self.upgrade))
        #expect(try elsewhere.readInbound(as: HTTPServerRequestPart.self) != nil)
        #expect(settings.limiter.total == 2)

        _ = try first.finish()
        #expect(settings.limiter.total == 1)
        let third = try Self.channel(settings)
        try third.writeInbound(ByteBuffer(string: Self.upgrade))
        #expect(try third.readInbound(as: HTTPServerRequestPart.self) != nil)
        _ = try third.finish()
        _ = try elsewhere.finish()
        #expect(settings.limiter.total == 0)
    }

    /// Answers the request in progress, so the connection is idle and kept alive.
    static func answer(_ channel: EmbeddedChannel) throws {
        while try channel.readInbound(as: HTTPServerRequestPart.self) != nil {}
        let head = HTTPResponseHead(version: .http1_1, status: .ok, headers: ["Content-Length": "0"])
        try channel.writeOutbound(HTTPServerResponsePart.head(head))
        try channel.writeOutbound(HTTPServerResponsePart.end(nil))
        _ = try written(channel)
    }

    @Test func aPlainHTTPConnectionTakesASlotThatItsAddressTakesBackWhenItIsIdle() throws {
        let settings = Self.settings { $0.maxConnectionsPerAddress = 1 }
        let kept = try Self.channel(settings)
        try kept.writeInbound(ByteBuffer(string: "GET /health HTTP/1.1\r\nHost: x\r\n\r\n"))
        #expect(settings.limiter.total == 1)
        try Self.answer(kept)
        #expect(kept.isActive)
        // The address is at its cap: its idle kept-alive connection is closed for the newcomer.
        let newcomer = try Self.channel(settings)
        #expect(!kept.isActive)
        try newcomer.writeInbound(ByteBuffer(string: "GET /health HTTP/1.1\r\nHost: x\r\n\r\n"))
        #expect(try newcomer.readInbound(as: HTTPServerRequestPart.self) != nil)
        #expect(settings.limiter.total == 1)
        // With none idle (a request in progress), the next one is answered 503.
        let refused = try Self.channel(settings)
        try refused.writeInbound(ByteBuffer(string: "GET /health HTTP/1.1\r\nHost: x\r\n\r\n"))
        #expect(try refused.readInbound(as: HTTPServerRequestPart.self) == nil)
        #expect(try Self.written(refused).hasPrefix("HTTP/1.1 503 Service Unavailable\r\n"))
        #expect(newcomer.isActive)
    }

    /// A connection just accepted has had no chance to ask anything: it keeps its slot (the
    /// header timeout bounds it), and a newcomer over the cap is refused with an answer. It used
    /// to be closed for the newcomer, so a client opening several sockets at once saw one of
    /// them cut before its upgrade, with no status to tell why.
    @Test func aConnectionThatHasNotAskedYetKeepsItsSlotAndTheNewcomerIsAnswered503() throws {
        let settings = Self.settings { $0.maxConnectionsPerAddress = 1 }
        let first = try Self.channel(settings)
        let newcomer = try Self.channel(settings)
        #expect(first.isActive)
        try newcomer.writeInbound(ByteBuffer(string: "GET /ws HTTP/1.1\r\nHost: x\r\n\r\n"))
        #expect(try Self.written(newcomer).hasPrefix("HTTP/1.1 503 Service Unavailable\r\n"))
        #expect(first.isActive)
        try first.writeInbound(ByteBuffer(string: "GET /health HTTP/1.1\r\nHost: x\r\n\r\n"))
        #expect(try first.readInbound(as: HTTPServerRequestPart.self) != nil)
    }

    @Test func aConnectionWithoutAWholeHeaderIsClosedAtTheHeaderTimeout() throws {
        let channel = try Self.channel(Self.settings { $0.headerTimeout = .seconds(10) })
        try channel.writeInbound(ByteBuffer(string: "GET /health HTTP/1.1\r\nHost: x\r\n"))
        channel.embeddedEventLoop.advanceTime(by: .seconds(9))
        #expect(channel.isActive)
        channel.embeddedEventLoop.advanceTime(by: .seconds(1))
        #expect(!channel.isActive)
        #expect(try Self.written(channel).isEmpty)
    }

    @Test func aWholeHeaderInTimeStopsTheHeaderTimeout() throws {
        let channel = try Self.channel(Self.settings { $0.headerTimeout = .seconds(10) })
        try channel.writeInbound(ByteBuffer(string: "GET /health HTTP/1.1\r\nHost: x\r\n\r\n"))
        channel.embeddedEventLoop.advanceTime(by: .seconds(60))
        #expect(channel.isActive)
        _ = try channel.finish()
    }

    @Test func anOversizedHeaderIsAnswered431AndClosed() throws {
        let channel = try Self.channel(Self.settings())
        let big = "GET /health HTTP/1.1\r\nHost: x\r\nX-Big: " + String(repeating: "a", count: 2_048) + "\r\n\r\n"
        try channel.writeInbound(ByteBuffer(string: big))
        let answer = try Self.written(channel)
        #expect(answer.hasPrefix("HTTP/1.1 431 Request Header Fields Too Large\r\n"))
        #expect(answer.contains(#""code":"too_large""#))
        #expect(!channel.isActive)
    }

    @Test func atShutdownASilentConnectionClosesAtOnceAndAnHTTPOneWhenTheGraceEnds() throws {
        let settings = Self.settings { $0.shutdownGrace = .seconds(10) }
        let silent = try Self.channel(settings)
        let http = try Self.channel(settings)
        try http.writeInbound(ByteBuffer(string: "GET /health HTTP/1.1\r\nHost: x\r\n\r\n"))
        for channel in [silent, http] { channel.pipeline.fireUserInboundEventTriggered(ChannelShouldQuiesceEvent()) }
        #expect(!silent.isActive)
        #expect(http.isActive)
        http.embeddedEventLoop.advanceTime(by: .seconds(10))
        #expect(!http.isActive)
    }

    /// An admitted upgrade leaves nothing to guard but its slot, which the connection's session
    /// takes over: the guard then leaves the pipeline, so an idle WebSocket carries neither the
    /// guard nor a callback on its close, and the session gives the slot back.
    @Test func anAdmittedWebSocketHandsItsSlotToItsSessionAndTheGuardLeaves() throws {
        let settings = Self.settings()
        let webSocket = try Self.channel(settings)
        try webSocket.writeInbound(ByteBuffer(string: Self.upgrade))
        #expect(try webSocket.readInbound(as: HTTPServerRequestPart.self) != nil)
        let slot = try #require(ConnectionGuard.handOverSlot(of: webSocket))
        #expect(throws: (any Error).self) { try webSocket.pipeline.syncOperations.handler(type: ConnectionGuard.self) }
        #expect(ConnectionGuard.handOverSlot(of: webSocket) == nil)
        _ = try webSocket.finish()
        #expect(settings.limiter.total == 1)  // the session's to give back, once
        slot.giveBack()
        #expect(settings.limiter.total == 0)
    }

    /// An upgrade no session took (refused by its origin, or closed before the 101) keeps its
    /// guard, which gives the slot back when the connection closes.
    @Test func anUpgradeNoSessionTookGivesBackItsSlotWhenItCloses() throws {
        let settings = Self.settings()
        let upgrade = try Self.channel(settings)
        try upgrade.writeInbound(ByteBuffer(string: Self.upgrade))
        #expect(try upgrade.readInbound(as: HTTPServerRequestPart.self) != nil)
        #expect(settings.limiter.total == 1)
        _ = try upgrade.finish()
        #expect(settings.limiter.total == 0)
        #expect(ConnectionGuard.handOverSlot(of: try Self.channel(settings)) == nil)  // no upgrade yet: nothing to hand over
    }

    /// Behind a trusted proxy a WebSocket counts against the client the proxy names, and the
    /// slot its session takes over carries that count until it is given back.
    @Test func behindATrustedProxyTheHandedOverSlotHoldsTheClientsCount() throws {
        let settings = Self.settings {
            $0.trustedProxies = TrustedProxies([try! IPNetwork(parsing: "10.0.0.1")])
            $0.maxConnectionsPerAddress = 1
        }
        let proxied = """
            GET /ws HTTP/1.1\r\nHost: x\r\nX-Forwarded-For: 203.0.113.7\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\
            Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n
            """
        func upgrade() throws -> EmbeddedChannel {
            let channel = try Self.channel(settings, from: "10.0.0.1")
            try channel.writeInbound(ByteBuffer(string: proxied))
            return channel
        }
        let first = try upgrade()
        #expect(try first.readInbound(as: HTTPServerRequestPart.self) != nil)
        let slot = try #require(ConnectionGuard.handOverSlot(of: first))
        #expect(slot.address == nil && slot.client == "203.0.113.7")
        _ = try first.finish()

        let second = try upgrade()
        #expect(try second.readInbound(as: HTTPServerRequestPart.self) == nil)
        #expect(try Self.written(second).hasPrefix("HTTP/1.1 503 Service Unavailable\r\n"))

        slot.giveBack()
        let third = try upgrade()
        #expect(try third.readInbound(as: HTTPServerRequestPart.self) != nil)
    }
}
