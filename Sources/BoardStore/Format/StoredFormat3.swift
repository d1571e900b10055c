import BoardCore
import Foundation

/// Stored format 3: format 2 plus what a board's screens show (its message, blackout and time
/// zone, `display` in a snapshot and `{"update":"board"}` changes) and time of day (a timer's
/// `kind`, `startAt` and `targetAt`, a section's `finishAt`; in an update, null clears one).
///
/// As format 2 did over format 1, every new field is written only when it is set, so a board
/// that uses none of them has format 2's bytes; format 2's writer writes the new fields too,
/// and its reader reads format 3 by laying this file's extras over what it read. It is a number
/// of its own so that a server from before refuses these rows by name instead of loading them
/// without their message, schedules or kinds. Tests/Fixtures/store/format3-*.json are the
/// golden files.
enum StoredFormat3 {
    // MARK: Board changes, which format 1's reader does not know

    /// The changes but the board's, as JSON for format 1's reader, and the board's changes with
    /// their places among all. A changeset holds a board change rarely (a message, a blackout),
    /// so only then is the array taken apart.
    static func splittingBoardChanges(_ data: Data) throws -> (entities: Data, board: [(index: Int, change: Change)]) {
        guard data.range(of: Data(#""update":"board""#.utf8)) != nil,
            let items = try JSONSerialization.jsonObject(with: data) as? [Any]
        else { return (data, []) }
        var entities: [Any] = []
        var board: [(Int, Change)] = []
        for (index, item) in items.enumerated() {
            if let object = item as? [String: Any], object["update"] as? String == "board" {
                board.append((index, .updateDisplay(try displayPatch(JSONSerialization.data(withJSONObject: object)))))
            } else {
                entities.append(item)
            }
        }
        return (try JSONSerialization.data(withJSONObject: entities), board)
    }

    /// The entity changes with the board's put back in their places.
    static func merging(_ board: [(index: Int, change: Change)], into changes: [Change]) -> [Change] {
        var merged = changes
        for (index, change) in board { merged.insert(change, at: min(index, merged.count)) }
        return merged
    }

    private static func displayPatch(_ data: Data) throws -> DisplayPatch {
        let stored = try JSONDecoder().decode(StoredDisplay.self, from: data)
        return DisplayPatch(message: stored.message.map { $0.map { .show($0.message) } ?? .clear }, blackout: stored.blackout, timeZone: stored.timeZone)
    }

    // MARK: A snapshot

    /// Lays the new fields of a snapshot over the board format 2 read.
    static func overlay(_ data: Data, on board: inout Board) throws {
        let extras = try JSONDecoder().decode(BoardExtras.self, from: data)
        for section in extras.sections {
            guard let id = EntityID(section.id ?? ""), var current = board.sections[id] else { continue }
            current.finishAt = section.finishAt ?? nil
            board.sections[id] = current
        }
        for timer in extras.timers {
            guard let id = EntityID(timer.id ?? ""), let current = board.timers[id] else { continue }
            board.timers[id] = timer.applied(to: current)
        }
        if let display = extras.display {
            board.display = BoardDisplay(
                message: display.message.map { $0?.message } ?? nil,
                blackout: display.blackout ?? false,
                timeZone: display.timeZone ?? BoardDisplay.defaultTimeZone
            )
        }
    }

    private struct BoardExtras: Decodable {
        let sections: [Extras]
        let timers: [Extras]
        let display: StoredDisplay?
    }

    /// A stored display or a board change: absent fields are nil; a null `message` is `.some(nil)`.
    private struct StoredDisplay: Decodable {
        struct Message: Decodable {
            let text: String
            let flash: Bool
            let shownAt: Int64
            var message: ScreenMessage { ScreenMessage(text: text, flash: flash, shownAt: shownAt) }
        }

        let message: Message??
        let blackout: Bool?
        let timeZone: String?

        private enum CodingKeys: String, CodingKey { case message, blackout, timeZone }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            message = try container.contains(.message) ? .some(try container.decodeIfPresent(Message.self, forKey: .message)) : nil
            blackout = try container.decodeIfPresent(Bool.self, forKey: .blackout)
            timeZone = try container.decodeIfPresent(String.self, forKey: .timeZone)
        }
    }

    // MARK: The new fields of an entity or a change

    /// `kind`, `startAt`, `targetAt`, `finishAt`: nil when absent, `.some(nil)` when null.
    struct Extras: Decodable {
        let id: String?
        let kind: String?
        let startAt: Int64??
        let targetAt: Int64??
        let finishAt: Int64??

        private enum CodingKeys: String, CodingKey { case id, kind, startAt, targetAt, finishAt }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            id = try container.decodeIfPresent(String.self, forKey: .id)
            kind = try container.decodeIfPresent(String.self, forKey: .kind)
            func nullable(_ key: CodingKeys) throws -> Int64?? {
                container.contains(key) ? .some(try container.decodeIfPresent(Int64.self, forKey: key)) : nil
            }
            startAt = try nullable(.startAt)
            targetAt = try nullable(.targetAt)
            finishAt = try nullable(.finishAt)
        }

        /// What the store kept always loads: an unknown kind is a countdown.
        private var timerKind: TimerKind? { kind.map { TimerKind(rawValue: $0) ?? .countdown } }

        func applied(to timer: BoardTimer) -> BoardTimer {
            var timer = timer
            timer.kind = timerKind ?? .countdown
            timer.startAt = startAt ?? nil
            timer.targetAt = targetAt ?? nil
            return timer
        }

        func applied(to change: Change) -> Change {
            switch change {
            case .insertSection(var section):
                section.finishAt = finishAt ?? nil
                return .insertSection(section)
            case .insertTimer(let timer):
                return .insertTimer(applied(to: timer))
            case .updateSection(let id, var patch):
                patch.finishAt = finishAt
                return .updateSection(id, patch)
            case .updateTimer(let id, var patch):
                patch.kind = timerKind
                patch.startAt = startAt
                patch.targetAt = targetAt
                return .updateTimer(id, patch)
            case .deleteSection, .deleteTimer, .updateDisplay:
                return change
            }
        }
    }
}

// MARK: The display as format 3 writes it

extension StoredJSONWriter {
    mutating func display3(_ display: BoardDisplay) {
        beginObject()
        if let message = display.message {
            key("message")
            message3(message)
        } else {
            nullField("message")
        }
        field("blackout", display.blackout)
        field("timeZone", display.timeZone)
        endObject()
    }

    mutating func displayPatch3(_ patch: DisplayPatch) {
        switch patch.message {
        case .show(let message)?:
            key("message")
            message3(message)
        case .clear?:
            nullField("message")
        case nil:
            break
        }
        if let blackout = patch.blackout { field("blackout", blackout) }
        if let timeZone = patch.timeZone { field("timeZone", timeZone) }
    }

    private mutating func message3(_ message: ScreenMessage) {
        beginObject()
        field("text", message.text)
        field("flash", message.flash)
        field("shownAt", message.shownAt)
        endObject()
    }
}
