import Foundation
import NIOCore
import NIOWebSocket
import Testing

@testable import TimerBoardTransport

/// The server cuts client bytes into frames itself: frames must come out the same however the
/// socket splits the bytes, and a frame too long for the limit must fail as soon as its header
/// says so.
@Suite struct ClientFrameReaderTests {
    /// A fragmented message with a ping between its frames, a 300-byte message (16-bit length)
    /// and a 70,000-byte one (64-bit length).
    static let frames = [
        ClientFrame(opcode: .text, fin: false, payload: #"{"type":"#),
        ClientFrame(opcode: .ping, payload: "are you there"),
        ClientFrame(opcode: .continuation, payload: #""ping"}"#),
        ClientFrame(opcode: .text, payload: String(repeating: "m", count: 300)),
        ClientFrame(opcode: .text, payload: String(repeating: "l", count: 70_000)),
    ]
    static let messages: [InboundMessage] = [
        .text(Data(#"{"type":"ping"}"#.utf8)),
        .text(Data(String(repeating: "m", count: 300).utf8)),
        .text(Data(String(repeating: "l", count: 70_000).utf8)),
    ]

    @Test(arguments: [1, 2, 3, 7, 100, 1_000_000])
    func framesArriveWholeHoweverTheSocketSplitsTheirBytes(readSize: Int) throws {
        let peer = try Peer()
        let bytes = Self.frames.flatMap(\.encoded)
        var start = 0
        while start < bytes.count {
            let end = min(start + readSize, bytes.count)
            try peer.sendBytes(Array(bytes[start..<end]))
            start = end
        }
        #expect(peer.receiver.messages == Self.messages)
        #expect(try peer.sentFrames() == [ServerFrame(opcode: .pong, payload: Array("are you there".utf8))])
        #expect(peer.isOpen)
    }

    @Test func aFrameOverTheLimitFailsTheConnectionFromItsHeaderAlone() throws {
        let peer = try Peer(maxFrameSize: 1_000)
        // A text frame that declares 2^40 bytes, masked, and sends none of them.
        try peer.sendBytes([0x81, 0x80 | 127, 0, 0, 1, 0, 0, 0, 0, 0, 1, 2, 3, 4])
        #expect(try peer.sentFrames().map(\.closeCode) == [.messageTooLarge])
        #expect(peer.receiver.messages.isEmpty)
    }

    @Test func aFrameOfExactlyTheLimitIsTaken() throws {
        let peer = try Peer(maxFrameSize: 1_000)
        try peer.send(ClientFrame(opcode: .text, payload: String(repeating: "x", count: 1_000)))
        #expect(peer.receiver.messages == [.text(Data(String(repeating: "x", count: 1_000).utf8))])
        #expect(peer.isOpen)
    }

    @Test func theReaderKeepsOnlyTheBytesOfAnUnfinishedFrame() throws {
        var reader = ClientFrameReader(maxFrameSize: 1 << 20)
        let whole = ClientFrame(opcode: .text, payload: "{}").encoded
        let next = ClientFrame(opcode: .text, payload: "[1,2]").encoded
        reader.append(ByteBuffer(bytes: whole + next.prefix(5)))
        guard case .frame(let first) = reader.next() else { Issue.record("no first frame"); return }
        #expect(Array(first.unmaskedData.readableBytesView) == Array("{}".utf8))
        guard case .needsMoreBytes = reader.next() else { Issue.record("a frame from five bytes"); return }
        #expect(reader.pendingByteCount == 5)
        reader.append(ByteBuffer(bytes: next.dropFirst(5)))
        guard case .frame(let second) = reader.next() else { Issue.record("no second frame"); return }
        #expect(Array(second.unmaskedData.readableBytesView) == Array("[1,2]".utf8))
        #expect(reader.pendingByteCount == 0, "an idle connection holds no bytes")
    }

    /// RFC 6455 4.2.2's own example.
    @Test func theHandshakeAnswersTheRFCsExampleKey() {
        #expect(WebSocketServerUpgrader<Bool>.accept(key: "dGhlIHNhbXBsZSBub25jZQ==") == "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=")
    }
}
