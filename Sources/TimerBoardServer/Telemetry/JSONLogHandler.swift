import BoardProtocol
import Foundation
import Logging
import Synchronization

/// How the server writes its log: `text` for people (swift-log's own lines), `json` for
/// machines (one object per line, `JSONLogHandler`).
public enum LogFormat: String, CaseIterable, Sendable {
    case text
    case json
}

/// A swift-log handler that writes one JSON object per line to standard error:
///
///     {"time":"2026-05-01T09:30:00.123Z","level":"notice","label":"timerboard",
///      "message":"closing the connection","source":"TimerBoardServer",
///      "metadata":{"tb.connection.id":"12","tb.board.id":"kT3vQ9mZ2pXa","tb.reason":"…"}}
///
/// Keys are stable (docs/architecture.md, "Logs"); metadata values are strings, arrays or
/// objects as swift-log holds them. Each line goes out in one write, so lines of concurrent
/// tasks never interleave.
public struct JSONLogHandler: LogHandler {
    public var metadata: Logger.Metadata = [:]
    public var logLevel: Logger.Level = .info
    public var metadataProvider: Logger.MetadataProvider?
    private let label: String

    public init(label: String, metadataProvider: Logger.MetadataProvider? = nil) {
        self.label = label
        self.metadataProvider = metadataProvider
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        var all = metadata
        if let provided = metadataProvider?.get() { all.merge(provided) { _, new in new } }
        if let extra = event.metadata { all.merge(extra) { _, new in new } }
        if let error = event.error, all["tb.error"] == nil { all["tb.error"] = "\(error)" }
        let line = Self.line(
            time: Date(),
            level: event.level,
            label: label,
            message: event.message.description,
            source: event.source,
            metadata: all
        )
        Self.output.withLock { _ in FileHandle.standardError.write(Data(line.utf8)) }
    }

    private static let timeFormat = Date.ISO8601FormatStyle(includingFractionalSeconds: true)

    /// Serialises writes of every handler of the process.
    private static let output = Mutex(())

    /// One log line, newline included.
    static func line(time: Date, level: Logger.Level, label: String, message: String, source: String, metadata: Logger.Metadata) -> String {
        var writer = JSONWriter()
        writer.beginObject()
        writer.field("time", time.formatted(Self.timeFormat))
        writer.field("level", level.rawValue)
        writer.field("label", label)
        writer.field("message", message)
        writer.field("source", source)
        writer.key("metadata")
        write(.dictionary(metadata), to: &writer)
        writer.endObject()
        return writer.text + "\n"
    }

    private static func write(_ value: Logger.Metadata.Value, to writer: inout JSONWriter) {
        switch value {
        case .string(let text): writer.string(text)
        case .stringConvertible(let convertible): writer.string(convertible.description)
        case .array(let values):
            writer.beginArray()
            for value in values { write(value, to: &writer) }
            writer.endArray()
        case .dictionary(let entries):
            writer.beginObject()
            for (key, value) in entries.sorted(by: { $0.key < $1.key }) {
                writer.key(key)
                write(value, to: &writer)
            }
            writer.endObject()
        }
    }
}
