import BoardCore
import Testing

/// A timer's warning point: set on add or update, bounded by the timer's length.
@Suite struct WarnAtTests {
    private func board() -> Board {
        try! Board(sections: [Section(id: "s", title: "Prep", createdDate: 0, order: "a0")], timers: [])
    }

    @Test func warnAtIsSetOnAddAndChangedOnUpdateAsOneField() throws {
        var board = board()
        _ = try board.apply(
            [.addTimer(id: "t", sectionID: "s", title: "Tea", minutes: 4, seconds: 0, position: .first, warnAt: 60_000)],
            now: 0
        )
        #expect(board.timers["t"]?.warnAt == 60_000)
        let changes = try board.apply([.updateTimer(id: "t", title: nil, minutes: nil, seconds: nil, warnAt: 0)], now: 1)
        #expect(changes == [.updateTimer("t", TimerPatch(warnAt: 0))])
    }

    @Test(arguments: [
        (Int64(-1), "must be between 0 and 59940000 milliseconds"),
        (59_940_001, "must be between 0 and 59940000 milliseconds"),
        (240_001, "must not be more than the timer's length (240000 milliseconds)"),
    ])
    func aWarningOutOfRangeIsAnInvalidFieldAndChangesNothing(_ warnAt: Int64, _ reason: String) throws {
        var board = board()
        _ = try board.apply([.addTimer(id: "t", sectionID: "s", title: "Tea", minutes: 4, seconds: 0, position: .first)], now: 0)
        let before = board
        for op: BoardOperation in [
            .addTimer(id: "u", sectionID: "s", title: "Tea", minutes: 4, seconds: 0, position: .first, warnAt: warnAt),
            .updateTimer(id: "t", title: nil, minutes: nil, seconds: nil, warnAt: warnAt),
        ] {
            #expect {
                try board.apply([op], now: 1)
            } throws: { error in
                (error as? EditError)?.error == .invalidField("warnAt", reason, entityID: op.entityID)
            }
        }
        #expect(board == before)
    }

    /// A later, shorter length leaves the warning past it; sending that warning again (a client
    /// sending the row as it is) sets nothing new and is acked as such, not refused.
    @Test func theWarningATimerAlreadyHasIsNotCheckedAgainstAShorterLength() throws {
        var board = board()
        _ = try board.apply(
            [.addTimer(id: "t", sectionID: "s", title: "Tea", minutes: 1, seconds: 0, position: .first, warnAt: 30_000)],
            now: 0
        )
        _ = try board.apply([.updateTimer(id: "t", title: nil, minutes: 0, seconds: 10, warnAt: nil)], now: 1)
        let changes = try board.apply([.updateTimer(id: "t", title: nil, minutes: nil, seconds: nil, warnAt: 30_000)], now: 2)
        #expect(changes.isEmpty)
        #expect(throws: EditError.self) {
            try board.apply([.updateTimer(id: "t", title: nil, minutes: nil, seconds: nil, warnAt: 20_000)], now: 3)
        }
    }

    @Test func aWarningIsCheckedAgainstTheLengthTheSameUpdateSets() throws {
        var board = board()
        _ = try board.apply([.addTimer(id: "t", sectionID: "s", title: "Tea", minutes: 4, seconds: 0, position: .first)], now: 0)
        _ = try board.apply([.updateTimer(id: "t", title: nil, minutes: 10, seconds: nil, warnAt: 300_000)], now: 1)
        #expect(board.timers["t"]?.warnAt == 300_000)
    }
}
