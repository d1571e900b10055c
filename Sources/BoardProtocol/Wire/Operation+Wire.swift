import BoardCore

// An operation is {"op":"updateSection","id":"s1","title":"New"} (docs/protocol.md, "Operations").

/// The operations' wire names.
enum OperationName {
    static let addSection = "addSection"
    static let updateSection = "updateSection"
    static let moveSection = "moveSection"
    static let deleteSection = "deleteSection"
    static let addTimer = "addTimer"
    static let updateTimer = "updateTimer"
    static let moveTimer = "moveTimer"
    static let deleteTimer = "deleteTimer"
    static let startTimer = "startTimer"
    static let pauseTimer = "pauseTimer"
    static let resetTimer = "resetTimer"
    static let startSection = "startSection"
    static let pauseSection = "pauseSection"
    static let adjustTimer = "adjustTimer"
    static let skipSection = "skipSection"
    static let restartSection = "restartSection"
    static let showMessage = "showMessage"
    static let clearMessage = "clearMessage"
    static let setBlackout = "setBlackout"
    static let setTimeZone = "setTimeZone"
    /// The operations that name a section or timer by `id`.
    static let withID: Set<String> = [
        addSection, updateSection, moveSection, deleteSection, addTimer, updateTimer, moveTimer, deleteTimer, startTimer,
        pauseTimer, resetTimer, startSection, pauseSection, adjustTimer, skipSection, restartSection,
    ]
}

extension BoardOperation {
    /// An operation as a client sent it; a field the operation does not take is `bad_message`.
    init(wire value: JSONValue, path: String) throws(ProtocolError) {
        let reader = try FieldReader(value, path: path, refusingUnknownKeys: true)
        self = try Self.read(reader)
        try reader.refuseKeysNotRead()
    }

    private static func read(_ reader: FieldReader) throws(ProtocolError) -> BoardOperation {
        let name = try reader.string("op")
        // The board's display has no id.
        switch name {
        case OperationName.showMessage:
            return .showMessage(text: try reader.string("text"), flash: try reader.optionalBool("flash") ?? false)
        case OperationName.clearMessage:
            return .clearMessage
        case OperationName.setBlackout:
            return .setBlackout(try reader.bool("on"))
        case OperationName.setTimeZone:
            return .setTimeZone(try reader.string("timeZone"))
        default:
            // An unknown op is `unknown_op` whatever else it lacks (docs/protocol.md, "Errors").
            guard OperationName.withID.contains(name) else {
                throw ProtocolError(.unknownOp, "\(reader.name("op")) \"\(name)\" is not an operation")
            }
        }
        let id = try reader.id("id")
        switch name {
        case OperationName.addSection:
            return .addSection(
                id: id,
                title: try reader.string("title"),
                isExpanded: try reader.optionalBool("isExpanded") ?? true,
                position: try Position(wire: reader),
                sequence: try reader.optionalBool("sequence") ?? false,
                loop: try reader.optionalBool("loop") ?? false
            )
        case OperationName.updateSection:
            return .updateSection(
                id: id,
                title: try reader.optionalString("title"),
                isExpanded: try reader.optionalBool("isExpanded"),
                sequence: try reader.optionalBool("sequence"),
                loop: try reader.optionalBool("loop"),
                finishAt: try reader.nullableInt("finishAt")
            )
        case OperationName.moveSection:
            return .moveSection(id: id, position: try Position(wire: reader))
        case OperationName.deleteSection:
            return .deleteSection(id: id)
        case OperationName.addTimer:
            return .addTimer(
                id: id,
                sectionID: try reader.id("sectionID"),
                title: try reader.string("title"),
                minutes: try reader.smallInt("minutes"),
                seconds: try reader.smallInt("seconds"),
                position: try Position(wire: reader),
                warnAt: try reader.optionalInt("warnAt") ?? 0,
                kind: try reader.optionalKind("kind") ?? .countdown,
                startAt: try reader.optionalInt("startAt"),
                targetAt: try reader.optionalInt("targetAt")
            )
        case OperationName.updateTimer:
            return .updateTimer(
                id: id,
                title: try reader.optionalString("title"),
                minutes: try reader.optionalSmallInt("minutes"),
                seconds: try reader.optionalSmallInt("seconds"),
                warnAt: try reader.optionalInt("warnAt"),
                kind: try reader.optionalKind("kind"),
                startAt: try reader.nullableInt("startAt"),
                targetAt: try reader.nullableInt("targetAt")
            )
        case OperationName.moveTimer:
            return .moveTimer(id: id, sectionID: try reader.optionalID("sectionID"), position: try Position(wire: reader))
        case OperationName.deleteTimer:
            return .deleteTimer(id: id)
        case OperationName.startTimer:
            return .startTimer(id: id)
        case OperationName.pauseTimer:
            return .pauseTimer(id: id)
        case OperationName.resetTimer:
            return .resetTimer(id: id)
        case OperationName.startSection:
            return .startSection(id: id)
        case OperationName.pauseSection:
            return .pauseSection(id: id)
        case OperationName.adjustTimer:
            return .adjustTimer(id: id, by: try reader.int("by"))
        case OperationName.skipSection:
            return .skipSection(id: id)
        case OperationName.restartSection:
            return .restartSection(id: id)
        default:
            throw ProtocolError(.unknownOp, "\(reader.name("op")) \"\(name)\" is not an operation")
        }
    }
}

extension JSONWriter {
    mutating func operation(_ operation: BoardOperation) {
        beginObject()
        switch operation {
        case .addSection(let id, let title, let isExpanded, let position, let sequence, let loop):
            field("op", OperationName.addSection)
            field("id", id.rawValue)
            field("title", title)
            field("isExpanded", isExpanded)
            if sequence { field("sequence", true) }
            if loop { field("loop", true) }
            self.position(position)
        case .updateSection(let id, let title, let isExpanded, let sequence, let loop, let finishAt):
            field("op", OperationName.updateSection)
            field("id", id.rawValue)
            if let title { field("title", title) }
            if let isExpanded { field("isExpanded", isExpanded) }
            if let sequence { field("sequence", sequence) }
            if let loop { field("loop", loop) }
            nullable("finishAt", finishAt)
        case .moveSection(let id, let position):
            field("op", OperationName.moveSection)
            field("id", id.rawValue)
            self.position(position)
        case .deleteSection(let id):
            field("op", OperationName.deleteSection)
            field("id", id.rawValue)
        case .addTimer(let id, let sectionID, let title, let minutes, let seconds, let position, let warnAt, let kind, let startAt, let targetAt):
            field("op", OperationName.addTimer)
            field("id", id.rawValue)
            field("sectionID", sectionID.rawValue)
            field("title", title)
            field("minutes", minutes)
            field("seconds", seconds)
            if warnAt != 0 { field("warnAt", warnAt) }
            if kind != .countdown { field("kind", kind.rawValue) }
            if let startAt { field("startAt", startAt) }
            if let targetAt { field("targetAt", targetAt) }
            self.position(position)
        case .updateTimer(let id, let title, let minutes, let seconds, let warnAt, let kind, let startAt, let targetAt):
            field("op", OperationName.updateTimer)
            field("id", id.rawValue)
            if let title { field("title", title) }
            if let minutes { field("minutes", minutes) }
            if let seconds { field("seconds", seconds) }
            if let warnAt { field("warnAt", warnAt) }
            if let kind { field("kind", kind.rawValue) }
            nullable("startAt", startAt)
            nullable("targetAt", targetAt)
        case .moveTimer(let id, let sectionID, let position):
            field("op", OperationName.moveTimer)
            field("id", id.rawValue)
            if let sectionID { field("sectionID", sectionID.rawValue) }
            self.position(position)
        case .deleteTimer(let id):
            field("op", OperationName.deleteTimer)
            field("id", id.rawValue)
        case .startTimer(let id):
            field("op", OperationName.startTimer)
            field("id", id.rawValue)
        case .pauseTimer(let id):
            field("op", OperationName.pauseTimer)
            field("id", id.rawValue)
        case .resetTimer(let id):
            field("op", OperationName.resetTimer)
            field("id", id.rawValue)
        case .startSection(let id):
            field("op", OperationName.startSection)
            field("id", id.rawValue)
        case .pauseSection(let id):
            field("op", OperationName.pauseSection)
            field("id", id.rawValue)
        case .adjustTimer(let id, let by):
            field("op", OperationName.adjustTimer)
            field("id", id.rawValue)
            field("by", by)
        case .skipSection(let id):
            field("op", OperationName.skipSection)
            field("id", id.rawValue)
        case .restartSection(let id):
            field("op", OperationName.restartSection)
            field("id", id.rawValue)
        case .showMessage(let text, let flash):
            field("op", OperationName.showMessage)
            field("text", text)
            if flash { field("flash", true) }
        case .clearMessage:
            field("op", OperationName.clearMessage)
        case .setBlackout(let on):
            field("op", OperationName.setBlackout)
            field("on", on)
        case .setTimeZone(let identifier):
            field("op", OperationName.setTimeZone)
            field("timeZone", identifier)
        }
        endObject()
    }

    /// `"position":"first"`, `"last"`, `{"before":ID}` or `{"after":ID}`.
    mutating func position(_ position: Position) {
        key("position")
        switch position {
        case .first: string("first")
        case .last: string("last")
        case .before(let id):
            beginObject()
            field("before", id.rawValue)
            endObject()
        case .after(let id):
            beginObject()
            field("after", id.rawValue)
            endObject()
        }
    }
}

extension Position {
    /// Reads the optional `position` field of an operation; absent means first (newest on top).
    init(wire reader: FieldReader) throws(ProtocolError) {
        guard let value = reader.value("position") else {
            self = .first
            return
        }
        let name = reader.name("position")
        let invalid = ProtocolError(.invalidField, "\(name) must be \"first\", \"last\", {\"before\":ID} or {\"after\":ID}")
        switch value {
        case .string("first"): self = .first
        case .string("last"): self = .last
        case .object(let fields) where fields.count == 1:
            let anchor = try FieldReader(value, path: name)
            if let before = try anchor.optionalID("before") {
                self = .before(before)
            } else if let after = try anchor.optionalID("after") {
                self = .after(after)
            } else {
                throw invalid
            }
        default: throw invalid
        }
    }
}
