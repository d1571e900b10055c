import BoardCore
import Foundation

/// Stored format 1: the JSON of protocol version 1's changes and snapshots, frozen for the disk.
///
/// A change is a flat object, `{"update":"section","id":"s1","title":"New"}`; a board is
/// `{"sections":[…],"timers":[…]}`; a timer's run is `{"status":…,"startedAt":…,"elapsed":…}`
/// with `startedAt` only while running. Tests/Fixtures/store/format1-*.json are the golden
/// files: once shipped, this file changes only in ways that keep reading them. The server
/// writes format 2 now; format 1's writer lives in the tests, which hold it to the golden files.
///
/// Reading trusts what the store wrote: rules that only input obeys are not checked (an order
/// key is taken as it is and repaired on load), so a board that was stored always loads. Only
/// what cannot make a board at all (a missing field, a bad id, a timer without its section)
/// is an error.
enum StoredFormat1 {
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
