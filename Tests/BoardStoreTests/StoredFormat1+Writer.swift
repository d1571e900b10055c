import BoardCore

@testable import BoardStore

/// Format 1's writer, as the server had it before format 2: kept to show that format 2 writes
/// what format 1 could hold byte for byte as format 1 did (StoredFormatTests).
extension StoredFormat1 {
    static func encode(_ changes: [Change]) -> [UInt8] {
        var writer = StoredJSONWriter()
        writer.beginArray()
        for change in changes { writer.change(change) }
        writer.endArray()
        return writer.bytes
    }

    static func encode(_ board: Board) -> [UInt8] {
        var writer = StoredJSONWriter(reservingCapacity: 128 * board.entityCount + 32)
        writer.beginObject()
        writer.key("sections")
        writer.beginArray()
        for section in board.orderedSections { writer.section(section) }
        writer.endArray()
        writer.key("timers")
        writer.beginArray()
        for timer in board.orderedTimers { writer.timer(timer) }
        writer.endArray()
        writer.endObject()
        return writer.bytes
    }
}

// MARK: Entities as format 1 objects

extension StoredJSONWriter {
    mutating func change(_ change: Change) {
        beginObject()
        switch change {
        case .insertSection(let section):
            field("insert", "section")
            sectionFields(section)
        case .updateSection(let id, let patch):
            field("update", "section")
            field("id", id.rawValue)
            if let title = patch.title { field("title", title) }
            if let isExpanded = patch.isExpanded { field("isExpanded", isExpanded) }
            if let order = patch.order { field("order", order.rawValue) }
            if let createdDate = patch.createdDate { field("createdDate", createdDate) }
        case .deleteSection(let id):
            field("delete", "section")
            field("id", id.rawValue)
        case .insertTimer(let timer):
            field("insert", "timer")
            timerFields(timer)
        case .updateTimer(let id, let patch):
            field("update", "timer")
            field("id", id.rawValue)
            if let sectionID = patch.sectionID { field("sectionID", sectionID.rawValue) }
            if let title = patch.title { field("title", title) }
            if let minutes = patch.minutes { field("minutes", minutes) }
            if let seconds = patch.seconds { field("seconds", seconds) }
            if let order = patch.order { field("order", order.rawValue) }
            if let createdDate = patch.createdDate { field("createdDate", createdDate) }
            if let run = patch.run {
                key("run")
                self.run(run)
            }
        case .deleteTimer(let id):
            field("delete", "timer")
            field("id", id.rawValue)
        case .updateDisplay:
            preconditionFailure("format 1 has no board changes")
        }
        endObject()
    }

    mutating func section(_ section: Section) {
        beginObject()
        sectionFields(section)
        endObject()
    }

    mutating func timer(_ timer: BoardTimer) {
        beginObject()
        timerFields(timer)
        endObject()
    }

    fileprivate mutating func sectionFields(_ section: Section) {
        field("id", section.id.rawValue)
        field("title", section.title)
        field("isExpanded", section.isExpanded)
        field("createdDate", section.createdDate)
        field("order", section.order.rawValue)
    }

    fileprivate mutating func timerFields(_ timer: BoardTimer) {
        field("id", timer.id.rawValue)
        field("sectionID", timer.sectionID.rawValue)
        field("title", timer.title)
        field("minutes", timer.minutes)
        field("seconds", timer.seconds)
        field("createdDate", timer.createdDate)
        field("order", timer.order.rawValue)
        key("run")
        run(timer.run)
    }

    fileprivate mutating func run(_ run: TimerRun) {
        beginObject()
        field("status", run.status.rawValue)
        if let startedAt = run.startedAt { field("startedAt", startedAt) }
        field("elapsed", run.elapsed)
        endObject()
    }
}
