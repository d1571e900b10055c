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

extension BoardTimer {
    init(wire reader: FieldReader) throws(ProtocolError) {
        self.init(
            id: try reader.id("id"),
            sectionID: try reader.id("sectionID"),
            title: try reader.string("title"),
            minutes: try reader.smallInt("minutes"),
            seconds: try reader.smallInt("seconds"),
            createdDate: try reader.int("createdDate"),
            order: try reader.orderKey("order")
        )
    }
}
