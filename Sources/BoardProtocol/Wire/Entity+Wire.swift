import BoardCore

// MARK: Sections and timers as JSON objects

extension JSONWriter {
    /// Writes a section's fields into the object being written (no braces).
    mutating func sectionFields(_ section: Section) {
        field("id", section.id.rawValue)
        field("title", section.title)
        field("isExpanded", section.isExpanded)
        // Written only when set, so a board that uses none of them is sent as it always was.
        if section.sequence { field("sequence", true) }
        if section.loop { field("loop", true) }
        if let finishAt = section.finishAt { field("finishAt", finishAt) }
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
        if timer.warnAt != 0 { field("warnAt", timer.warnAt) }
        if timer.kind != .countdown { field("kind", timer.kind.rawValue) }
        if let startAt = timer.startAt { field("startAt", startAt) }
        if let targetAt = timer.targetAt { field("targetAt", targetAt) }
        field("createdDate", timer.createdDate)
        field("order", timer.order.rawValue)
        key("run")
        run(timer.run)
    }

    /// `{"status":"running","startedAt":1763740800000,"elapsed":0}`; `startedAt` only while
    /// running, `finishedAt` only when finished (and known).
    mutating func run(_ run: TimerRun) {
        beginObject()
        field("status", run.status.rawValue)
        if let startedAt = run.startedAt { field("startedAt", startedAt) }
        field("elapsed", run.elapsed)
        if let finishedAt = run.finishedAt { field("finishedAt", finishedAt) }
        endObject()
    }

    mutating func section(_ section: Section) {
        beginObject()
        sectionFields(section)
        endObject()
    }

    /// A timer as the protocol sends it (also the `timer` of a webhook's payload).
    public mutating func timer(_ timer: BoardTimer) {
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
        displayField(board.display)
    }
}

extension Section {
    init(wire reader: FieldReader) throws(ProtocolError) {
        self.init(
            id: try reader.id("id"),
            title: try reader.string("title"),
            isExpanded: try reader.bool("isExpanded"),
            createdDate: try reader.int("createdDate"),
            order: try reader.orderKey("order"),
            sequence: try reader.optionalBool("sequence") ?? false,
            loop: try reader.optionalBool("loop") ?? false,
            finishAt: try reader.optionalInt("finishAt")
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
        let finishedAt = try run.optionalInt("finishedAt")
        guard finishedAt == nil || status == .finished else {
            throw ProtocolError(.invalidField, "\(run.name("finishedAt")) is set only when finished")
        }
        return TimerRun(status: status, startedAt: startedAt, elapsed: try run.int("elapsed"), finishedAt: finishedAt)
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
            run: try TimerRun.optional(wire: reader) ?? .idle,
            warnAt: try reader.optionalInt("warnAt") ?? 0,
            kind: try reader.optionalKind("kind") ?? .countdown,
            startAt: try reader.optionalInt("startAt"),
            targetAt: try reader.optionalInt("targetAt")
        )
    }
}
