import BoardCore

// A change is a flat object: {"update":"section","id":"s1","title":"New"} (docs/protocol.md, "Changes").

extension JSONWriter {
    /// A change as the wire has it (`changes` of a changeset, a history entry).
    public mutating func change(_ change: Change) {
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
            if let sequence = patch.sequence { field("sequence", sequence) }
            if let loop = patch.loop { field("loop", loop) }
            nullable("finishAt", patch.finishAt)
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
            if let warnAt = patch.warnAt { field("warnAt", warnAt) }
            if let kind = patch.kind { field("kind", kind.rawValue) }
            nullable("startAt", patch.startAt)
            nullable("targetAt", patch.targetAt)
            if let order = patch.order { field("order", order.rawValue) }
            if let createdDate = patch.createdDate { field("createdDate", createdDate) }
            if let run = patch.run {
                key("run")
                self.run(run)
            }
        case .deleteTimer(let id):
            field("delete", "timer")
            field("id", id.rawValue)
        case .updateDisplay(let patch):
            field("update", "board")
            displayPatchFields(patch)
        }
        endObject()
    }
}

extension JSONWriter {
    /// A field that is left out when unchanged (nil), null when cleared, a number when set.
    mutating func nullable(_ name: String, _ value: Int64??) {
        guard let value else { return }
        key(name)
        if let value { int(value) } else { null() }
    }
}

extension Change {
    init(wire value: JSONValue, path: String) throws(ProtocolError) {
        let reader = try FieldReader(value, path: path)
        if let kind = try reader.optionalString("insert") {
            switch kind {
            case "section": self = .insertSection(try Section(wire: reader))
            case "timer": self = .insertTimer(try BoardTimer(wire: reader))
            default: throw ProtocolError(.badMessage, "\(reader.name("insert")) must be section or timer")
            }
        } else if let kind = try reader.optionalString("update") {
            if kind == "board" {
                self = .updateDisplay(try DisplayPatch(wire: reader))
                return
            }
            let id = try reader.id("id")
            switch kind {
            case "section":
                let patch = SectionPatch(
                    title: try reader.optionalString("title"),
                    isExpanded: try reader.optionalBool("isExpanded"),
                    order: try reader.optionalOrderKey("order"),
                    createdDate: try reader.optionalInt("createdDate"),
                    sequence: try reader.optionalBool("sequence"),
                    loop: try reader.optionalBool("loop"),
                    finishAt: try reader.nullableInt("finishAt")
                )
                self = .updateSection(id, patch)
            case "timer":
                let patch = TimerPatch(
                    sectionID: try reader.optionalID("sectionID"),
                    title: try reader.optionalString("title"),
                    minutes: try reader.optionalSmallInt("minutes"),
                    seconds: try reader.optionalSmallInt("seconds"),
                    order: try reader.optionalOrderKey("order"),
                    createdDate: try reader.optionalInt("createdDate"),
                    run: try TimerRun.optional(wire: reader),
                    warnAt: try reader.optionalInt("warnAt"),
                    kind: try reader.optionalKind("kind"),
                    startAt: try reader.nullableInt("startAt"),
                    targetAt: try reader.nullableInt("targetAt")
                )
                self = .updateTimer(id, patch)
            default: throw ProtocolError(.badMessage, "\(reader.name("update")) must be section, timer or board")
            }
        } else if let kind = try reader.optionalString("delete") {
            let id = try reader.id("id")
            switch kind {
            case "section": self = .deleteSection(id)
            case "timer": self = .deleteTimer(id)
            default: throw ProtocolError(.badMessage, "\(reader.name("delete")) must be section or timer")
            }
        } else {
            throw ProtocolError(.badMessage, "\(path) must have one of insert, update, delete")
        }
    }
}
