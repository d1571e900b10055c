import Foundation
import NIOCore

/// A message a bench client sends.
public enum BenchMessage: Sendable {
    case text(String)
    case binary([UInt8])
}

/// What the fan-out scenario talks to: TimerBoard, or a peer server doing the equivalent work
/// (bench/peers/README.md). It says where clients connect, what they send, when a client holds
/// the board, and which edit a delivered message is.
public struct FanoutTarget: Sendable {
    public let name: String
    /// The WebSocket URL of the editor (and of every subscriber, unless `subscriberURLs` says otherwise).
    let url: String
    /// Where subscribers connect, in turn (subscriber i to entry i % count): the nodes of a
    /// cluster. Empty: all at `url`.
    var subscriberURLs: [String] = []
    /// What the editor sends before the first edit.
    let editorSetup: [BenchMessage]
    /// What subscriber `index` sends on connecting.
    let subscriberHello: @Sendable (_ index: Int) -> [BenchMessage]
    /// The edit with sequence number `seq` (1, 2, …), which renames one section to "b<seq>".
    let edit: @Sendable (_ seq: Int) -> BenchMessage
    /// True for the message that tells a client it holds the board; nil: being connected is enough.
    let isJoined: (@Sendable (ByteBuffer) -> Bool)?
    /// The sequence number of the edit a message delivers, or nil for any other message.
    let deliveredSeq: @Sendable (ByteBuffer) -> Int?
    /// True for a message that tells the editor its edit was refused (TimerBoard's rate limits);
    /// the peers refuse nothing.
    var isRejection: @Sendable (ByteBuffer) -> Bool = { _ in false }

    /// A new board on a TimerBoard server at `server` (http://host:port); with
    /// `subscriberServers` (other nodes of its cluster), subscribers spread over those instead.
    public static func timerBoard(server: String, subscriberServers: [String] = []) async throws -> FanoutTarget {
        let http = BenchHTTP(base: server)
        let board = try await http.createBoard(title: "fanout bench")
        let join = { @Sendable (clientID: String) -> [BenchMessage] in
            [
                .text(#"{"type":"hello","protocol":1,"clientId":"\#(clientID)"}"#),
                .text(board.joinMessage),
            ]
        }
        return FanoutTarget(
            name: subscriberServers.isEmpty ? "timerboard" : "timerboard, subscribers on \(subscriberServers.count) nodes",
            url: http.webSocketURL,
            subscriberURLs: subscriberServers.map { BenchHTTP(base: $0).webSocketURL },
            // The section the edits rename; an edit of a missing id would be rejected, not fanned out.
            editorSetup: join("bench-editor") + [.text(#"{"type":"edit","opId":"setup","ops":[{"op":"addSection","id":"s","title":"b0"}]}"#)],
            subscriberHello: { join("bench-sub-\($0)") },
            edit: { .text(#"{"type":"edit","opId":"\#($0)","ops":[{"op":"updateSection","id":"s","title":"b\#($0)"}]}"#) },
            isJoined: { $0.hasBytePrefix(#"{"type":"snapshot""#) },
            deliveredSeq: changesTitleSeq,
            isRejection: { $0.hasBytePrefix(#"{"type":"reject""#) }
        )
    }

    /// A room of bench/peers/ws-relay.js at `url` (ws://host:port): the editor sends TimerBoard's
    /// own `changes` message, so subscribers receive the same bytes as TimerBoard's.
    public static func webSocketRelay(url: String) -> FanoutTarget {
        FanoutTarget(
            name: "ws-relay",
            url: url + "/fanout-\(ProcessInfo.processInfo.processIdentifier)-\(uptimeNanoseconds())",
            editorSetup: [],
            subscriberHello: { _ in [] },
            edit: { seq in .text(#"{"type":"changes","rev":\#(seq + 1),"changes":[{"update":"section","id":"s","title":"b\#(seq)"}]}"#) },
            isJoined: nil,
            deliveredSeq: changesTitleSeq
        )
    }

    /// A fresh room of the Yjs reference server at `url` (ws://host:port), with the editor's
    /// messages from `bench/peers/y-updates.js --format binary` (record 0 sets up, record k
    /// renames to "b<k>"). A room is new per run: the server drops updates it already has.
    public static func yWebSocket(url: String, updatesFile: String) throws -> FanoutTarget {
        let records = try yUpdateRecords(URL(fileURLWithPath: updatesFile))
        guard records.count > 1 else { throw BenchHTTP.Failure(description: "\(updatesFile) holds no edits") }
        return FanoutTarget(
            name: "y-websocket",
            url: url + "/fanout-\(ProcessInfo.processInfo.processIdentifier)-\(uptimeNanoseconds())",
            editorSetup: [.binary(records[0])],
            subscriberHello: { _ in [] },
            edit: { seq in .binary(records[min(seq, records.count - 1)]) },
            // The server's sync step 1 comes once the connection is in the room.
            isJoined: { _ in true },
            deliveredSeq: yUpdateSeq
        )
    }
}

// MARK: Recognising deliveries

/// `{"type":"changes",…"title":"b<seq>"…}` → seq.
@Sendable private func changesTitleSeq(_ message: ByteBuffer) -> Int? {
    guard message.hasBytePrefix(#"{"type":"changes""#) else { return nil }
    return message.integer(after: titleNeedle)
}
private let titleNeedle = Array(#""title":"b"#.utf8)

/// A Yjs update message (`00 02 …`) whose string content is "b<seq>": the bytes `77 L 62` and
/// then L-1 ASCII digits.
@Sendable private func yUpdateSeq(_ message: ByteBuffer) -> Int? {
    guard message.getBytes(at: message.readerIndex, length: 2) == [0, 2] else { return nil }
    return message.withUnsafeReadableBytes { bytes -> Int? in
        var index = 0
        while index + 2 < bytes.count {
            if bytes[index] == 0x77, bytes[index + 2] == 0x62 {
                let digits = Int(bytes[index + 1]) - 1
                if digits > 0, index + 3 + digits <= bytes.count {
                    var value = 0
                    var valid = true
                    for byte in bytes[(index + 3)..<(index + 3 + digits)] {
                        guard (0x30...0x39).contains(byte) else {
                            valid = false
                            break
                        }
                        value = value * 10 + Int(byte - 0x30)
                    }
                    if valid { return value }
                }
            }
            index += 1
        }
        return nil
    }
}

/// Records of 4-byte big-endian length + message, as y-updates.js writes them.
private func yUpdateRecords(_ file: URL) throws -> [[UInt8]] {
    let data = [UInt8](try Data(contentsOf: file))
    var records: [[UInt8]] = []
    var offset = 0
    while offset + 4 <= data.count {
        let length = data[offset..<(offset + 4)].reduce(0) { $0 << 8 | Int($1) }
        offset += 4
        guard offset + length <= data.count else { break }
        records.append(Array(data[offset..<(offset + length)]))
        offset += length
    }
    return records
}

extension ByteBuffer {
    /// True when the readable bytes start with `prefix`'s UTF-8. (Called for every message a
    /// thousand subscribers receive: no copies.)
    func hasBytePrefix(_ prefix: String) -> Bool {
        readableBytesView.starts(with: prefix.utf8)
    }

    /// The decimal digits right after the first occurrence of `needle`, as an integer.
    func integer(after needle: [UInt8]) -> Int? {
        withUnsafeReadableBytes { bytes -> Int? in
            guard let found = Self.firstRange(of: needle, in: bytes) else { return nil }
            var index = found + needle.count
            var value = 0
            let digitsStart = index
            while index < bytes.count, (0x30...0x39).contains(bytes[index]) {
                value = value * 10 + Int(bytes[index] - 0x30)
                index += 1
            }
            return index > digitsStart ? value : nil
        }
    }

    /// Where `needle` starts in `bytes`: memchr finds each candidate first byte, memcmp checks it.
    private static func firstRange(of needle: [UInt8], in bytes: UnsafeRawBufferPointer) -> Int? {
        guard let base = bytes.baseAddress, let first = needle.first else { return nil }
        var offset = 0
        while offset + needle.count <= bytes.count {
            guard let hit = memchr(base + offset, Int32(first), bytes.count - needle.count + 1 - offset) else { return nil }
            let position = base.distance(to: UnsafeRawPointer(hit))
            if needle.withUnsafeBytes({ memcmp(base + position, $0.baseAddress!, needle.count) }) == 0 { return position }
            offset = position + 1
        }
        return nil
    }
}
