import BoardCore
import Foundation

/// Stored format 2: format 1 plus the fields of running timers people rely on (issue 18):
/// a timer's `warnAt`, a run's `finishedAt`, a section's `sequence` and `loop`.
///
/// Each new field is written only when it is not at its default (an update writes it whenever
/// it changed, also back to the default), so a board that uses none of them is written byte
/// for byte as format 1 wrote it. It is a format of its own, not format 1 with more keys,
/// because format 1's reader ignores keys it does not know: a server from before this one
/// would load such a row and silently drop the warnings, the sequences and the overtime. A
/// row in format 2 makes it refuse the row instead (`unsupportedFormat`), as for any newer format.
/// Tests/Fixtures/store/format2-*.json are the golden files.
enum StoredFormat2 {
    // MARK: Writing

    static func encode(_ changes: [Change]) -> [UInt8] {
        var writer = StoredJSONWriter()
        writer.beginArray()
        for change in changes { writer.change2(change) }
        writer.endArray()
        return writer.bytes
    }

    static func encode(_ board: Board) -> [UInt8] {
        var writer = StoredJSONWriter(reservingCapacity: 128 * board.entityCount + 32)
        writer.beginObject()
        writer.key("sections")
        writer.beginArray()
        for section in board.orderedSections { writer.section2(section) }
        writer.endArray()
        writer.key("timers")
        writer.beginArray()
        for timer in board.orderedTimers { writer.timer2(timer) }
        writer.endArray()
        if board.display != BoardDisplay() {
            writer.key("display")
            writer.display3(board.display)
        }
        writer.endObject()
        return writer.bytes
    }

    // MARK: Reading: format 1's reader, then the new fields laid over what it read

    static func decodeChanges(_ data: Data) throws -> [Change] {
        // Format 3's board changes are read apart; the rest goes through format 1's reader.
        let (entities, board) = try StoredFormat3.splittingBoardChanges(data)
        var changes = try StoredFormat1.decodeChanges(entities)
        let extras = try JSONDecoder().decode([Extras].self, from: entities)
        let extras3 = try JSONDecoder().decode([StoredFormat3.Extras].self, from: entities)
        for index in changes.indices {
            changes[index] = extras3[index].applied(to: extras[index].applied(to: changes[index]))
        }
        return StoredFormat3.merging(board, into: changes)
    }

    static func decodeBoard(_ data: Data) throws -> Board {
        var board = try StoredFormat1.decodeBoard(data)
        try StoredFormat3.overlay(data, on: &board)
        let extras = try JSONDecoder().decode(BoardExtras.self, from: data)
        for section in extras.sections {
            guard let id = EntityID(section.id) else { continue }
            board.sections[id] = section.applied(to: board.sections[id])
        }
        for timer in extras.timers {
            guard let id = EntityID(timer.id) else { continue }
            board.timers[id] = timer.applied(to: board.timers[id])
        }
        return board
    }

    private struct BoardExtras: Decodable {
        let sections: [Extras]
        let timers: [Extras]
    }

    /// The fields format 2 adds, of an entity or a change.
    private struct Extras: Decodable {
        struct Run: Decodable {
            let finishedAt: Int64?
        }

        let id: String
        let warnAt: Int64?
        let sequence: Bool?
        let loop: Bool?
        let run: Run?

        func applied(to section: Section?) -> Section? {
            guard var section else { return nil }
            section.sequence = sequence ?? false
            section.loop = loop ?? false
            return section
        }

        func applied(to timer: BoardTimer?) -> BoardTimer? {
            guard var timer else { return nil }
            timer.warnAt = warnAt ?? 0
            timer.run = applied(to: timer.run)
            return timer
        }

        /// `finishedAt` belongs to a finished run only; on another it is dropped, not refused
        /// (what the store kept always loads).
        private func applied(to run: TimerRun) -> TimerRun {
            var run = run
            run.finishedAt = run.status == .finished ? self.run?.finishedAt : nil
            return run
        }

        func applied(to change: Change) -> Change {
            switch change {
            case .insertSection(let section): return .insertSection(applied(to: section)!)
            case .insertTimer(let timer): return .insertTimer(applied(to: timer)!)
            case .updateSection(let id, var patch):
                patch.sequence = sequence
                patch.loop = loop
                return .updateSection(id, patch)
            case .updateTimer(let id, var patch):
                patch.warnAt = warnAt
                patch.run = patch.run.map(applied(to:))
                return .updateTimer(id, patch)
            case .deleteSection, .deleteTimer, .updateDisplay:
                return change
            }
        }
    }
}

// MARK: Entities as format 2 objects

extension StoredJSONWriter {
    fileprivate mutating func change2(_ change: Change) {
        beginObject()
        switch change {
        case .insertSection(let section):
            field("insert", "section")
            sectionFields2(section)
        case .updateSection(let id, let patch):
            field("update", "section")
            field("id", id.rawValue)
            if let title = patch.title { field("title", title) }
            if let isExpanded = patch.isExpanded { field("isExpanded", isExpanded) }
            if let sequence = patch.sequence { field("sequence", sequence) }
            if let loop = patch.loop { field("loop", loop) }
            if let finishAt = patch.finishAt { field("finishAt", orNull: finishAt) }
            if let order = patch.order { field("order", order.rawValue) }
            if let createdDate = patch.createdDate { field("createdDate", createdDate) }
        case .deleteSection(let id):
            field("delete", "section")
            field("id", id.rawValue)
        case .insertTimer(let timer):
            field("insert", "timer")
            timerFields2(timer)
        case .updateTimer(let id, let patch):
            field("update", "timer")
            field("id", id.rawValue)
            if let sectionID = patch.sectionID { field("sectionID", sectionID.rawValue) }
            if let title = patch.title { field("title", title) }
            if let minutes = patch.minutes { field("minutes", minutes) }
            if let seconds = patch.seconds { field("seconds", seconds) }
            if let warnAt = patch.warnAt { field("warnAt", warnAt) }
            if let kind = patch.kind { field("kind", kind.rawValue) }
            if let startAt = patch.startAt { field("startAt", orNull: startAt) }
            if let targetAt = patch.targetAt { field("targetAt", orNull: targetAt) }
            if let order = patch.order { field("order", order.rawValue) }
            if let createdDate = patch.createdDate { field("createdDate", createdDate) }
            if let run = patch.run {
                key("run")
                run2(run)
            }
        case .deleteTimer(let id):
            field("delete", "timer")
            field("id", id.rawValue)
        case .updateDisplay(let patch):
            field("update", "board")
            displayPatch3(patch)
        }
        endObject()
    }

    fileprivate mutating func section2(_ section: Section) {
        beginObject()
        sectionFields2(section)
        endObject()
    }

    fileprivate mutating func timer2(_ timer: BoardTimer) {
        beginObject()
        timerFields2(timer)
        endObject()
    }

    private mutating func sectionFields2(_ section: Section) {
        field("id", section.id.rawValue)
        field("title", section.title)
        field("isExpanded", section.isExpanded)
        if section.sequence { field("sequence", true) }
        if section.loop { field("loop", true) }
        if let finishAt = section.finishAt { field("finishAt", finishAt) }
        field("createdDate", section.createdDate)
        field("order", section.order.rawValue)
    }

    private mutating func timerFields2(_ timer: BoardTimer) {
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
        run2(timer.run)
    }

    private mutating func run2(_ run: TimerRun) {
        beginObject()
        field("status", run.status.rawValue)
        if let startedAt = run.startedAt { field("startedAt", startedAt) }
        field("elapsed", run.elapsed)
        if let finishedAt = run.finishedAt { field("finishedAt", finishedAt) }
        endObject()
    }
}
