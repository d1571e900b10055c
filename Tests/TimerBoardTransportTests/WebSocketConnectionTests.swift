import Foundation
import NIOCore
import NIOEmbedded
import NIOWebSocket
import Synchronization
import Testing
import WebSocketDeflate

@testable import TimerBoardTransport

/// The connection on raw bytes, with no room behind it: client frames go in as the bytes a
/// socket would carry, and the bytes the server would send are read back and parsed. RFC 6455 section numbers in the names.
@Suite struct WebSocketConnectionTests {
    // MARK: Messages

    @Test func aFragmentedMessageWithAPingBetweenItsFramesArrivesWholeAndThePingIsAnswered() throws {
        let peer = try Peer()
        try peer.send(ClientFrame(opcode: .text, fin: false, payload: #"{"type":"#))
        try peer.send(ClientFrame(opcode: .ping, payload: "are you there"))
        try peer.send(ClientFrame(opcode: .continuation, fin: false, payload: #""ping","#))
        try peer.send(ClientFrame(opcode: .continuation, payload: #""t":3}"#))
        #expect(peer.receiver.messages == [.text(Data(#"{"type":"ping","t":3}"#.utf8))])
        #expect(try peer.sentFrames() == [ServerFrame(opcode: .pong, payload: Array("are you there".utf8))])
        #expect(peer.isOpen)
    }

    @Test func pingsFromAPeerThatDoesNotReadAreNotAnsweredWhileItsSocketIsFull() throws {
        let peer = try Peer()
        peer.channel.isWritable = false
        for _ in 0..<100 { try peer.send(ClientFrame(opcode: .ping, payload: "flood")) }
        #expect(try peer.sentFrames().isEmpty)
        peer.channel.isWritable = true
        try peer.send(ClientFrame(opcode: .ping, payload: "again"))
        #expect(try peer.sentFrames() == [ServerFrame(opcode: .pong, payload: Array("again".utf8))])
        #expect(peer.isOpen)
    }

    @Test func aBinaryMessageIsReportedAsBinary() throws {
        let peer = try Peer()
        try peer.send(ClientFrame(opcode: .binary, payload: "{}"))
        #expect(peer.receiver.messages == [.binary])
    }

    @Test func aMessageOverTheLimitIsReportedOversizedAndTheConnectionStays() throws {
        let peer = try Peer(maxMessageBytes: 10)
        try peer.send(ClientFrame(opcode: .text, fin: false, payload: "123456"))
        try peer.send(ClientFrame(opcode: .continuation, payload: "789012"))
        try peer.send(ClientFrame(opcode: .text, payload: "small"))
        #expect(peer.receiver.messages == [.oversized(byteCount: 12), .text(Data("small".utf8))])
        #expect(peer.isOpen)
    }

    // MARK: Frames that fail the connection

    @Test(arguments: [
        ("an unmasked frame (5.1)", [ClientFrame(opcode: .text, payload: "{}", masked: false)], WebSocketErrorCode.protocolError),
        ("a continuation with no message (5.4)", [ClientFrame(opcode: .continuation, payload: "{}")], .protocolError),
        (
            "a new message inside a fragmented one (5.4)",
            [ClientFrame(opcode: .text, fin: false, payload: "{"), ClientFrame(opcode: .text, payload: "}")], .protocolError
        ),
        ("RSV1 without permessage-deflate (5.2)", [ClientFrame(opcode: .text, payload: "{}", rsv1: true)], .protocolError),
        ("RSV2 (5.2)", [ClientFrame(opcode: .text, payload: "{}", rsv2: true)], .protocolError),
        ("a reserved opcode (5.2)", [ClientFrame(opcode: WebSocketOpcode(encodedWebSocketOpcode: 0x3)!, payload: "{}")], .protocolError),
        ("a fragmented ping (5.5)", [ClientFrame(opcode: .ping, fin: false, payload: "")], .protocolError),
        ("a ping of 126 bytes (5.5)", [ClientFrame(opcode: .ping, payload: String(repeating: "p", count: 126))], .protocolError),
        ("a frame over the size limit", [ClientFrame(opcode: .text, payload: String(repeating: "x", count: 2_000))], .messageTooLarge),
    ])
    func framesTheRFCForbidsFailTheConnection(_ what: String, frames: [ClientFrame], code: WebSocketErrorCode) throws {
        let peer = try Peer(maxFrameSize: 1_000)
        for frame in frames { try peer.send(frame) }
        let sent = try peer.sentFrames()
        #expect(sent.last?.opcode == .connectionClose, "\(what)")
        #expect(sent.last?.closeCode == code, "\(what)")
        #expect(!peer.isOpen, "\(what)")
        #expect(peer.receiver.messages.isEmpty, "\(what)")
        #expect(peer.receiver.closedCount == 1, "\(what)")
    }

    // MARK: The closing handshake

    @Test(
        arguments: [
            ("no payload", [], WebSocketErrorCode.normalClosure),
            ("1000 with a reason", [0x03, 0xE8] + Array("bye".utf8), .normalClosure),
            ("4000, private use", [0x0F, 0xA0], .normalClosure),
            ("one byte", [0x03], .protocolError),
            ("1005, which no peer may send", [0x03, 0xED], .protocolError),
            ("a reason that is not UTF-8", [0x03, 0xE8, 0xFF, 0xFE], .protocolError),
        ] as [(String, [UInt8], WebSocketErrorCode)]
    )
    func aPeersCloseIsAnsweredAndTheServerClosesTheSocket(_ what: String, payload: [UInt8], answer: WebSocketErrorCode) throws {
        let peer = try Peer()
        try peer.send(ClientFrame(opcode: .connectionClose, bytes: payload))
        let sent = try peer.sentFrames()
        #expect(sent.map(\.opcode) == [.connectionClose], "\(what)")
        #expect(sent.first?.closeCode == answer, "\(what)")
        #expect(!peer.isOpen, "\(what)")
        #expect(peer.receiver.closedCount == 1)
    }

    @Test func aServerCloseSendsWhatIsQueuedFirstAndEndsWhenThePeerAnswers() throws {
        let peer = try Peer()
        peer.outbound.send(OutboundFrame(payload: Array("last words".utf8)))
        peer.outbound.disconnect(.init(codeNumber: 4403), reason: "link replaced")
        peer.channel.embeddedEventLoop.run()
        let sent = try peer.sentFrames()
        #expect(sent.map(\.opcode) == [.text, .connectionClose])
        #expect(sent.last?.closeCode == .init(codeNumber: 4403))
        #expect(peer.isOpen, "waits for the peer's close")
        // Nothing more is sent once the close is out, and data from the peer is dropped.
        peer.outbound.send(OutboundFrame(payload: Array("too late".utf8)))
        try peer.send(ClientFrame(opcode: .text, payload: "{}"))
        peer.channel.embeddedEventLoop.run()
        #expect(try peer.sentFrames().isEmpty)
        #expect(peer.receiver.messages.isEmpty)
        try peer.send(ClientFrame(opcode: .connectionClose, bytes: [0x03, 0xE8]))
        #expect(!peer.isOpen)
    }

    @Test func aPeerThatNeverAnswersTheServersCloseIsCutOffAfterTheTimeout() throws {
        let peer = try Peer()
        peer.outbound.disconnect(.goingAway, reason: "no answer to ping")
        peer.channel.embeddedEventLoop.run()
        #expect(try peer.sentFrames().map(\.closeCode) == [.goingAway])
        peer.channel.embeddedEventLoop.advanceTime(by: WebSocketConnection.closeTimeout - .milliseconds(1))
        #expect(peer.isOpen)
        peer.channel.embeddedEventLoop.advanceTime(by: .milliseconds(1))
        #expect(!peer.isOpen)
        #expect(peer.receiver.closedCount == 1)
    }

    @Test func aFailedConnectionWhosePeerReadsNothingIsCutOffAfterTheTimeout() throws {
        let peer = try Peer()
        // A socket the peer does not read: the close frame cannot go out.
        try peer.channel.pipeline.syncOperations.addHandler(WriteBlackHole(), position: .first)
        try peer.send(ClientFrame(opcode: .text, payload: "{}", masked: false))
        #expect(peer.isOpen)
        peer.channel.embeddedEventLoop.advanceTime(by: WebSocketConnection.closeTimeout)
        #expect(!peer.isOpen)
        #expect(peer.receiver.closedCount == 1)
    }

    @Test func aSocketClosedWithoutACloseFrameEndsTheConnection() throws {
        let peer = try Peer()
        peer.channel.pipeline.fireUserInboundEventTriggered(ChannelEvent.inputClosed)
        #expect(!peer.isOpen)
        #expect(peer.receiver.closedCount == 1)
    }

    @Test func aServerShutdownSendsANormalClose() throws {
        let peer = try Peer()
        peer.channel.pipeline.fireUserInboundEventTriggered(ChannelShouldQuiesceEvent())
        #expect(try peer.sentFrames().map(\.closeCode) == [.normalClosure])
    }

    // MARK: Backpressure

    @Test func aFullReceiverStopsTheReadsUntilItResumes() throws {
        let peer = try Peer()
        peer.receiver.accepting = false
        try peer.send(ClientFrame(opcode: .text, payload: "{}"))
        let before = peer.reads.count
        peer.channel.read()
        #expect(peer.reads.count == before, "a read while full is held back")
        peer.outbound.resumeReading()
        peer.channel.embeddedEventLoop.run()
        #expect(peer.reads.count == before + 1, "and issued on resume")
        peer.channel.read()
        #expect(peer.reads.count == before + 2)
    }

    // MARK: permessage-deflate (RFC 7692)

    @Test func aCompressedMessageIsInflated() throws {
        let peer = try Peer(acceptsDeflate: true)
        let message = #"{"type":"ping","t":1}"#
        let compressed = MessageDeflate.compress(Array(message.utf8))
        try peer.send(ClientFrame(opcode: .text, fin: false, bytes: Array(compressed.prefix(5)), rsv1: true))
        try peer.send(ClientFrame(opcode: .continuation, bytes: Array(compressed.dropFirst(5))))
        try peer.send(ClientFrame(opcode: .text, payload: "plain"))
        #expect(peer.receiver.messages == [.text(Data(message.utf8)), .text(Data("plain".utf8))])
    }

    @Test func aCompressedMessageInflatingPastTheLimitIsOversizedAndTheConnectionStays() throws {
        let peer = try Peer(maxMessageBytes: 1_000, acceptsDeflate: true)
        let bomb = MessageDeflate.compress([UInt8](repeating: 0x20, count: 100_000))
        try peer.send(ClientFrame(opcode: .text, bytes: bomb, rsv1: true))
        #expect(peer.receiver.messages == [.oversized(byteCount: 1_001)])
        #expect(peer.isOpen)
    }

    @Test func corruptCompressedDataFailsTheConnectionWith1011() throws {
        let peer = try Peer(acceptsDeflate: true)
        try peer.send(ClientFrame(opcode: .text, bytes: [0xFF, 0xFF, 0xFF, 0xFF], rsv1: true))
        #expect(try peer.sentFrames().map(\.closeCode) == [.unexpectedServerError])
        #expect(!peer.isOpen)
    }
}

// MARK: - Support

/// A frame as a client sends it: masked unless told otherwise.
struct ClientFrame: Sendable, CustomTestStringConvertible {
    var opcode: WebSocketOpcode
    var fin = true
    var bytes: [UInt8]
    var masked = true
    var rsv1 = false
    var rsv2 = false

    init(opcode: WebSocketOpcode, fin: Bool = true, payload: String, masked: Bool = true, rsv1: Bool = false, rsv2: Bool = false) {
        self.init(opcode: opcode, fin: fin, bytes: Array(payload.utf8), masked: masked, rsv1: rsv1, rsv2: rsv2)
    }

    init(opcode: WebSocketOpcode, fin: Bool = true, bytes: [UInt8], masked: Bool = true, rsv1: Bool = false, rsv2: Bool = false) {
        self.opcode = opcode
        self.fin = fin
        self.bytes = bytes
        self.masked = masked
        self.rsv1 = rsv1
        self.rsv2 = rsv2
    }

    var testDescription: String { "\(opcode) \(bytes.count) bytes" }

    /// RFC 6455 5.2, written out by hand rather than by the encoder under test's neighbour.
    var encoded: [UInt8] {
        var first = UInt8(fin ? 0x80 : 0) | UInt8(webSocketOpcode: opcode)
        if rsv1 { first |= 0x40 }
        if rsv2 { first |= 0x20 }
        let maskBit: UInt8 = masked ? 0x80 : 0
        var out = [first]
        switch bytes.count {
        case ..<126: out.append(maskBit | UInt8(bytes.count))
        case ..<65_536: out += [maskBit | 126, UInt8(bytes.count >> 8), UInt8(bytes.count & 0xFF)]
        default: out += [maskBit | 127] + (0..<8).reversed().map { UInt8((bytes.count >> ($0 * 8)) & 0xFF) }
        }
        guard masked else { return out + bytes }
        let key: [UInt8] = [0x12, 0x34, 0x56, 0x78]
        return out + key + bytes.enumerated().map { $1 ^ key[$0 % 4] }
    }
}

/// A frame the server sent, parsed from its bytes.
struct ServerFrame: Equatable {
    var opcode: WebSocketOpcode
    var payload: [UInt8]

    var closeCode: WebSocketErrorCode? {
        guard opcode == .connectionClose, payload.count >= 2 else { return nil }
        return WebSocketErrorCode(codeNumber: Int(payload[0]) << 8 | Int(payload[1]))
    }
}

/// Records what the connection hands over.
final class RecordingReceiver: WebSocketMessageReceiver {
    private struct Record {
        var messages: [InboundMessage] = []
        var closedCount = 0
        var accepting = true
    }

    private let record = Mutex(Record())

    var messages: [InboundMessage] { record.withLock(\.messages) }
    var closedCount: Int { record.withLock(\.closedCount) }
    var accepting: Bool {
        get { record.withLock(\.accepting) }
        set { record.withLock { $0.accepting = newValue } }
    }

    func received(_ message: InboundMessage) -> Bool {
        record.withLock {
            $0.messages.append(message)
            return $0.accepting
        }
    }

    func connectionClosed() {
        record.withLock { $0.closedCount += 1 }
    }
}

/// Holds every write forever, as a socket whose peer reads nothing.
final class WriteBlackHole: ChannelOutboundHandler {
    typealias OutboundIn = Any
    private var held: [EventLoopPromise<Void>?] = []

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        held.append(promise)
    }

    func flush(context: ChannelHandlerContext) {}

    func handlerRemoved(context: ChannelHandlerContext) {
        for promise in held { promise?.fail(ChannelError.ioOnClosedChannel) }
        held = []
    }
}

/// Counts the reads that reach the socket end of the pipeline.
final class ReadCounter: ChannelOutboundHandler {
    typealias OutboundIn = Any
    private(set) var count = 0
    /// Flushes that reached the socket: one system call each in a real channel.
    private(set) var flushes = 0

    func read(context: ChannelHandlerContext) {
        count += 1
        context.read()
    }

    func flush(context: ChannelHandlerContext) {
        flushes += 1
        context.flush()
    }
}

/// A connection on an embedded channel, set up as after a real upgrade (`WebSocketConnection.install`),
/// behind a handler that counts the reads and flushes reaching the socket. Peers made with one
/// `loop` share it, as connections share a server's event loop.
struct Peer {
    let channel: EmbeddedChannel
    let receiver = RecordingReceiver()
    let outbound: Outbound
    let reads = ReadCounter()

    init(
        id: Int = 1,
        loop: EmbeddedEventLoop = EmbeddedEventLoop(),
        maxFrameSize: Int = 1 << 20,
        maxMessageBytes: Int = 1 << 20,
        acceptsDeflate: Bool = false
    ) throws {
        channel = EmbeddedChannel(loop: loop)
        outbound = Outbound(id: id, capacity: 16, acceptsDeflate: acceptsDeflate, eventLoop: channel.eventLoop)
        let pipeline = channel.pipeline.syncOperations
        try pipeline.addHandler(reads)
        try WebSocketConnection.install(
            on: channel,
            outbound: outbound,
            receiver: receiver,
            maxFrameBytes: maxFrameSize,
            maxMessageBytes: maxMessageBytes
        )
        try channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 1)).wait()
    }

    var isOpen: Bool { channel.isActive }

    func send(_ frame: ClientFrame) throws {
        try sendBytes(frame.encoded)
    }

    /// Bytes as one read from the socket.
    func sendBytes(_ bytes: [UInt8]) throws {
        guard channel.isActive else { return }
        try channel.writeInbound(channel.allocator.buffer(bytes: bytes))
        channel.embeddedEventLoop.run()
    }

    /// Every frame the server wrote since the last call.
    func sentFrames() throws -> [ServerFrame] {
        var bytes: [UInt8] = []
        while let buffer = try channel.readOutbound(as: ByteBuffer.self) {
            bytes += buffer.readableBytesView
        }
        var frames: [ServerFrame] = []
        var index = 0
        while index < bytes.count {
            let opcode = WebSocketOpcode(encodedWebSocketOpcode: bytes[index] & 0x0F)!
            var length = Int(bytes[index + 1] & 0x7F)
            var start = index + 2
            if length == 126 {
                length = Int(bytes[index + 2]) << 8 | Int(bytes[index + 3])
                start += 2
            } else if length == 127 {
                length = bytes[(index + 2)..<(index + 10)].reduce(0) { $0 << 8 | Int($1) }
                start += 8
            }
            frames.append(ServerFrame(opcode: opcode, payload: Array(bytes[start..<(start + length)])))
            index = start + length
        }
        return frames
    }
}
