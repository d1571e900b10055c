import Foundation
import NIOCore

/// A server message as an event of an event stream (`text/event-stream`): the message's type
/// names the event, its revision (`changes`, `snapshot`) is the event's id, so a client that
/// reconnects sends it back as `Last-Event-ID`, and its JSON is the data.
enum ServerSentEvent {
    /// The event for an encoded server message, or nil for what is not one: its `id` and `event`
    /// lines and `data: `, the message itself, and the event's end. The message is not copied:
    /// every stream of a board sends the same buffer, so a thousand streams that do not read a
    /// large snapshot hold one copy of it, not a thousand. The server's JSON has no line breaks
    /// (`JSONWriter` escapes them in strings), so the data is one line.
    static func event(for message: ByteBuffer) -> [ByteBuffer]? {
        let bytes = message.readableBytesView
        guard let type = type(of: bytes) else { return nil }
        var head = ByteBuffer()
        if type == "changes" || type == "snapshot", let revision = revision(in: bytes) {
            head.writeString("id: \(revision)\n")
        }
        head.writeString("event: \(type)\ndata: ")
        return [head, message, endOfEvent]
    }

    private static let endOfEvent = ByteBuffer(string: "\n\n")

    /// A comment line: keeps proxies and clients from closing a quiet stream.
    static let keepAlive = ByteBuffer(string: ": keep-alive\n\n")

    /// The last event of a stream the server ends, with the code and reason a WebSocket would
    /// have been closed with (4403: the link was replaced, 4410: the board was deleted, ...).
    static func closed(code: Int, reason: String) -> ByteBuffer {
        let escaped = reason.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
        return ByteBuffer(string: "event: closed\ndata: {\"type\":\"closed\",\"code\":\(code),\"reason\":\"\(escaped)\"}\n\n")
    }

    /// The `type` of an encoded server message, which the server always writes first.
    static func type(of message: some Collection<UInt8>) -> String? {
        let prefix = Array(#"{"type":""#.utf8)
        guard message.starts(with: prefix) else { return nil }
        let name = message.dropFirst(prefix.count).prefix { $0 != UInt8(ascii: "\"") }
        guard !name.isEmpty, name.allSatisfy({ (UInt8(ascii: "a")...UInt8(ascii: "z")).contains($0 | 0x20) }) else { return nil }
        return String(decoding: name, as: UTF8.self)
    }

    /// The value of the first `"rev":` key. Inside a JSON string a quote is escaped, so the first
    /// such bytes are the key, which the server writes before the board's content.
    static func revision(in message: some Collection<UInt8>) -> Int64? {
        let key = Array(#""rev":"#.utf8)
        let bytes = Array(message.prefix(4_096))
        guard let start = bytes.indices.first(where: { bytes[$0...].starts(with: key) }) else { return nil }
        let digits = bytes[(start + key.count)...].prefix { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
        return Int64(String(decoding: digits, as: UTF8.self))
    }
}
