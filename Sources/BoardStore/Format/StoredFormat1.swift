import BoardCore
import Foundation

/// Stored format 1: the JSON of protocol version 1's changes and snapshots, frozen for the disk.
///
/// A change is a flat object, `{"update":"section","id":"s1","title":"New"}`; a board is
/// `{"sections":[…],"timers":[…]}`; a timer's run is `{"status":…,"startedAt":…,"elapsed":…}`
/// with `startedAt` only while running. Tests/Fixtures/store/format1-*.json are the golden
/// files: once shipped, this file changes only in ways that keep reading them.
///
/// Reading trusts what the store wrote: rules that only input obeys are not checked (an order
/// key is taken as it is and repaired on load), so a board that was stored always loads. Only
/// what cannot make a board at all (a missing field, a bad id, a timer without its section)
/// is an error.
enum StoredFormat1 {
    // MARK: Writing

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

    // MARK: Reading

    /// What a row holds that does not make changes or a board; the message names the field.
    struct Unreadable: Error, CustomStringConvertible {
        let description: String
    }

    static func decodeChanges(_ data: Data) throws -> [Change] {
        try JSONDecoder().decode([StoredChange].self, from: data).enumerated().map { index, change in
            try change.change(path: "[\(index)]")
        }
    }

    static func decodeBoard(_ data: Data) throws -> Board {
        let stored = try JSONDecoder().decode(StoredBoard.self, from: data)
        let sections = try stored.sections.enumerated().map { index, section in try section.section(path: "sections[\(index)]") }
        let timers = try stored.timers.enumerated().map { index, timer in try timer.timer(path: "timers[\(index)]") }
        do {
            return try Board(sections: sections, timers: timers)
        } catch {
            throw Unreadable(description: error.message)
        }
    }

    private struct StoredBoard: Decodable {
        let sections: [StoredSection]
        let timers: [StoredTimer]
    }

    private struct StoredSection: Decodable {
        let id: String
        let title: String
        let isExpanded: Bool
        let createdDate: Int64
        let order: String

        func section(path: String) throws -> Section {
            Section(
                id: try entityID(id, "\(path).id"),
                title: title,
                isExpanded: isExpanded,
                createdDate: createdDate,
                order: OrderKey(stored: order)
            )
        }
    }

    private struct StoredTimer: Decodable {
        let id: String
        let sectionID: String
        let title: String
        let minutes: Int
        let seconds: Int
        let createdDate: Int64
        let order: String
        let run: StoredRun?

        func timer(path: String) throws -> BoardTimer {
            BoardTimer(
                id: try entityID(id, "\(path).id"),
                sectionID: try entityID(sectionID, "\(path).sectionID"),
                title: title,
                minutes: minutes,
                seconds: seconds,
                createdDate: createdDate,
                order: OrderKey(stored: order),
                run: try run?.run(path: "\(path).run") ?? .idle
            )
        }
    }

    private struct StoredRun: Decodable {
        let status: String
        let startedAt: Int64?
        let elapsed: Int64

        func run(path: String) throws -> TimerRun {
            guard let status = TimerRun.Status(rawValue: status) else {
                throw Unreadable(description: "\(path).status is \(status), not idle, running, paused or finished")
            }
            guard (status == .running) == (startedAt != nil) else {
                throw Unreadable(description: "\(path).startedAt must be set exactly while running")
            }
            return TimerRun(status: status, startedAt: startedAt, elapsed: elapsed)
        }
    }

    /// One change: which of `insert`, `update`, `delete` is present says what it is, and the
    /// other fields are those of the entity or of the patch.
    private struct StoredChange: Decodable {
        let insert: String?
        let update: String?
        let delete: String?
        let id: String?
        let sectionID: String?
        let title: String?
        let isExpanded: Bool?
        let minutes: Int?
        let seconds: Int?
        let createdDate: Int64?
        let order: String?
        let run: StoredRun?

        func change(path: String) throws -> Change {
            switch (insert, update, delete) {
            case ("section"?, nil, nil):
                return .insertSection(
                    Section(
                        id: try entityID(required(id, "id", path), "\(path).id"),
                        title: try required(title, "title", path),
                        isExpanded: try required(isExpanded, "isExpanded", path),
                        createdDate: try required(createdDate, "createdDate", path),
                        order: OrderKey(stored: try required(order, "order", path))
                    )
                )
            case ("timer"?, nil, nil):
                return .insertTimer(
                    BoardTimer(
                        id: try entityID(required(id, "id", path), "\(path).id"),
                        sectionID: try entityID(required(sectionID, "sectionID", path), "\(path).sectionID"),
                        title: try required(title, "title", path),
                        minutes: try required(minutes, "minutes", path),
                        seconds: try required(seconds, "seconds", path),
                        createdDate: try required(createdDate, "createdDate", path),
                        order: OrderKey(stored: try required(order, "order", path)),
                        run: try run?.run(path: "\(path).run") ?? .idle
                    )
                )
            case (nil, "section"?, nil):
                let patch = SectionPatch(title: title, isExpanded: isExpanded, order: order.map(OrderKey.init(stored:)), createdDate: createdDate)
                return .updateSection(try entityID(required(id, "id", path), "\(path).id"), patch)
            case (nil, "timer"?, nil):
                let patch = TimerPatch(
                    sectionID: try sectionID.map { try entityID($0, "\(path).sectionID") },
                    title: title,
                    minutes: minutes,
                    seconds: seconds,
                    order: order.map(OrderKey.init(stored:)),
                    createdDate: createdDate,
                    run: try run?.run(path: "\(path).run")
                )
                return .updateTimer(try entityID(required(id, "id", path), "\(path).id"), patch)
            case (nil, nil, "section"?):
                return .deleteSection(try entityID(required(id, "id", path), "\(path).id"))
            case (nil, nil, "timer"?):
                return .deleteTimer(try entityID(required(id, "id", path), "\(path).id"))
            default:
                throw Unreadable(description: "\(path) must have one of insert, update, delete, of a section or a timer")
            }
        }
    }

    private static func required<Value>(_ value: Value?, _ name: String, _ path: String) throws -> Value {
        guard let value else { throw Unreadable(description: "\(path).\(name) is missing") }
        return value
    }

    private static func entityID(_ text: String, _ path: String) throws -> EntityID {
        guard let id = EntityID(text) else { throw Unreadable(description: "\(path) is not a valid id: \(text)") }
        return id
    }
}

// MARK: Entities as format 1 objects

extension StoredJSONWriter {
    fileprivate mutating func change(_ change: Change) {
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
        }
        endObject()
    }

    fileprivate mutating func section(_ section: Section) {
        beginObject()
        sectionFields(section)
        endObject()
    }

    fileprivate mutating func timer(_ timer: BoardTimer) {
        beginObject()
        timerFields(timer)
        endObject()
    }

    private mutating func sectionFields(_ section: Section) {
        field("id", section.id.rawValue)
        field("title", section.title)
        field("isExpanded", section.isExpanded)
        field("createdDate", section.createdDate)
        field("order", section.order.rawValue)
    }

    private mutating func timerFields(_ timer: BoardTimer) {
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

    private mutating func run(_ run: TimerRun) {
        beginObject()
        field("status", run.status.rawValue)
        if let startedAt = run.startedAt { field("startedAt", startedAt) }
        field("elapsed", run.elapsed)
        endObject()
    }
}
