import BoardCore

// MARK: Sections and timers as JSON objects

extension JSONWriter {
    /// Writes a section's fields into the object being written (no braces).
    mutating func sectionFields(_ section: Section) {
        field("id", section.id.rawValue)
        field("title", section.title)
        field("isExpanded", section.isExpanded)
        field("createdDate", section.createdDate)
        field("order", section.order.rawValue)
    }

    /// Writes a timer's fields into the object being written (no braces).
    mutating func timerFields(_ timer: BoardTimer) {
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

    /// `{"status":"running","startedAt":1763740800000,"elapsed":0}`; `startedAt` only while running.
    mutating func run(_ run: TimerRun) {
        beginObject()
        field("status", run.status.rawValue)
        if let startedAt = run.startedAt { field("startedAt", startedAt) }
        field("elapsed", run.elapsed)
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

    /// `"sections":[…],"timers":[…]` in display order, inside an open object: a snapshot's
    /// content, and an export's board.
    mutating func boardContentFields(_ board: Board) {
        key("sections")
        beginArray()
        for section in board.orderedSections { self.section(section) }
        endArray()
        key("timers")
        beginArray()
        for timer in board.orderedTimers { self.timer(timer) }
        endArray()
    }
}

extension Section {
    init(wire reader: FieldReader) throws(ProtocolError) {
        self.init(
            id: try reader.id("id"),
            title: try reader.string("title"),
            isExpanded: try reader.bool("isExpanded"),
            createdDate: try reader.int("createdDate"),
            order: try reader.orderKey("order")
        )
    }
}

extension TimerRun {
    /// Reads the optional `run` field of a timer or a timer update.
    static func optional(wire reader: FieldReader) throws(ProtocolError) -> TimerRun? {
        guard let value = reader.value("run") else { return nil }
        let run = try FieldReader(value, path: reader.name("run"))
        let statusName = try run.string("status")
        guard let status = Status(rawValue: statusName) else {
            throw ProtocolError(.invalidField, "\(run.name("status")) must be idle, running, paused or finished")
        }
        let startedAt = try run.optionalInt("startedAt")
        guard (status == .running) == (startedAt != nil) else {
            throw ProtocolError(.invalidField, "\(run.name("startedAt")) is set exactly while running")
        }
        return TimerRun(status: status, startedAt: startedAt, elapsed: try run.int("elapsed"))
    }
}

extension BoardTimer {
    init(wire reader: FieldReader) throws(ProtocolError) {
        self.init(
            id: try reader.id("id"),
            sectionID: try reader.id("sectionID"),
            title: try reader.string("title"),
            minutes: try reader.smallInt("minutes"),
            seconds: try reader.smallInt("seconds"),
            createdDate: try reader.int("createdDate"),
            order: try reader.orderKey("order"),
            run: try TimerRun.optional(wire: reader) ?? .idle
        )
    }
}
