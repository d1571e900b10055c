import BoardProtocol
import Foundation

extension RunReport {
    static let columns = ["timer", "section", "planned_seconds", "started", "ended", "outcome", "ran_seconds", "overtime_seconds", "started_by", "ended_by"]

    /// The runs as CSV (RFC 4180), times in UTC (ISO 8601), lengths in seconds.
    var csv: String {
        var lines = [Self.columns.joined(separator: ",")]
        for run in runs {
            lines.append(
                [
                    Self.cell(run.timer), Self.cell(run.section), Self.seconds(run.planned), Self.time(run.startedAt), Self.time(run.endedAt),
                    run.outcome.rawValue, Self.seconds(run.ran), run.overtime.map(Self.seconds) ?? "", Self.cell(run.startedBy ?? ""),
                    Self.cell(run.endedBy ?? ""),
                ]
                .joined(separator: ",")
            )
        }
        return lines.joined(separator: "\r\n") + "\r\n"
    }

    /// The runs as JSON: `{"runs":[{…}]}`, times in epoch milliseconds as everywhere in the API.
    var json: [UInt8] {
        var writer = JSONWriter()
        writer.beginObject()
        writer.key("runs")
        writer.beginArray()
        for run in runs {
            writer.beginObject()
            writer.field("timerId", run.timerID)
            writer.field("timer", run.timer)
            writer.field("section", run.section)
            writer.field("planned", run.planned)
            optional(&writer, "startedAt", run.startedAt)
            optional(&writer, "endedAt", run.endedAt)
            writer.field("outcome", run.outcome.rawValue)
            writer.field("ran", run.ran)
            optional(&writer, "overtime", run.overtime)
            if let by = run.startedBy { writer.field("startedBy", by) }
            if let by = run.endedBy { writer.field("endedBy", by) }
            writer.endObject()
        }
        writer.endArray()
        writer.endObject()
        return writer.bytes
    }

    private func optional(_ writer: inout JSONWriter, _ name: String, _ value: Int64?) {
        if let value { writer.field(name, value) }
    }

    /// A text cell, quoted when it must be; one that a spreadsheet would run as a formula
    /// (`=`, `+`, `-`, `@`) is given a leading apostrophe (titles are anyone's input).
    static func cell(_ text: String) -> String {
        var text = text
        if let first = text.first, "=+-@\t\r".contains(first) { text = "'" + text }
        guard text.contains(where: { ",\"\r\n".contains($0) }) else { return text }
        return "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    static func seconds(_ milliseconds: Int64) -> String {
        String(format: "%.1f", Double(milliseconds) / 1_000)
    }

    static func time(_ milliseconds: Int64?) -> String {
        guard let milliseconds else { return "" }
        return Date(timeIntervalSince1970: Double(milliseconds) / 1_000).formatted(.iso8601)
    }
}
