// Time of day: a timer's scheduled start, counting to a time, and a section whose timers
// finish together (docs/protocol.md, "Time of day").

extension Edit {
    /// The latest instant accepted: the end of year 9999, server epoch ms.
    static let latestInstant: Int64 = 253_402_300_799_999

    func checkInstant(_ instant: Int64, _ field: String, id: EntityID) throws(BoardError) {
        guard (0...Self.latestInstant).contains(instant) else {
            throw .invalidField(field, "must be a time in epoch milliseconds, between 0 and \(Self.latestInstant)", entityID: id)
        }
    }

    /// What a timer's kind needs: a time of day to count to for `toTime`, and only for it; a clock
    /// is never scheduled.
    func checkSchedule(_ timer: BoardTimer) throws(BoardError) {
        if let startAt = timer.startAt { try checkInstant(startAt, "startAt", id: timer.id) }
        if let targetAt = timer.targetAt { try checkInstant(targetAt, "targetAt", id: timer.id) }
        switch timer.kind {
        case .toTime:
            guard timer.targetAt != nil else { throw .invalidField("targetAt", "is needed by a timer that counts to a time of day", entityID: timer.id) }
        case .countdown, .countUp, .clock:
            guard timer.targetAt == nil else { throw .invalidField("targetAt", "belongs to a timer that counts to a time of day", entityID: timer.id) }
        }
        if timer.kind == .clock, timer.startAt != nil {
            throw .invalidField("startAt", "cannot be set on a clock: a clock does not run, so it has no start", entityID: timer.id)
        }
    }

    /// Schedules every idle countdown timer of the section to start at its `finishAt` minus the
    /// timer's length, so all reach zero together; with no `finishAt`, clears their starts.
    mutating func scheduleFinishTogether(in sectionID: EntityID) {
        for timer in board.orderedTimers(in: sectionID) {
            scheduleFinishTogether(of: timer)
            startIfScheduledInThePast(timer.id)
        }
    }

    /// Schedules one idle countdown timer of a section that finishes together.
    mutating func scheduleFinishTogether(of timer: BoardTimer) {
        guard timer.kind == .countdown, timer.run.status == .idle, let section = board.sections[timer.sectionID] else { return }
        var scheduled = timer
        scheduled.startAt = section.finishAt.map { $0 - timer.duration }
        if scheduled != timer { setTimer(timer.id, scheduled) }
    }

    /// A start scheduled at or before the edit (its instant passed, or the length moved it there)
    /// is made at once: the timer starts now, late by the difference, which screens show.
    mutating func startIfScheduledInThePast(_ id: EntityID) {
        guard let timer = board.timers[id], let start = timer.startAt, start <= now else { return }
        startScheduled(timer, at: now)
    }

    /// The scheduled start is due: an idle timer starts at `instant`; any other forgets the schedule.
    mutating func startScheduled(_ timer: BoardTimer, at instant: Int64) {
        var unscheduled = timer
        unscheduled.startAt = nil
        setTimer(timer.id, unscheduled)
        if timer.run.status == .idle, timer.kind != .clock { start(unscheduled, at: instant) }
    }
}
