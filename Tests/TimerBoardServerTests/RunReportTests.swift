import BoardCore
import BoardStore
import Testing

@testable import TimerBoardServer

/// The report after an event, from a log: one row per run, who started and ended it, how long
/// it ran and its overtime.
@Suite struct RunReportTests {
    static let section = Section(id: "s", title: "Stage", createdDate: 0, order: "a0")
    static let keynote = BoardTimer(id: "k", sectionID: "s", title: "Keynote", minutes: 10, seconds: 0, createdDate: 0, order: "a0")

    static func changeset(_ revision: Int64, at time: Int64, by author: String?, _ changes: [Change]) -> StoredChangeset {
        StoredChangeset(boardID: "b", revision: revision, changes: changes, clientID: nil, opID: nil, time: time, author: author)
    }

    static func run(_ status: TimerRun.Status, startedAt: Int64? = nil, elapsed: Int64 = 0, finishedAt: Int64? = nil) -> Change {
        .updateTimer("k", TimerPatch(run: TimerRun(status: status, startedAt: startedAt, elapsed: elapsed, finishedAt: finishedAt)))
    }

    @Test func aRunThatFinishedCountsItsOvertimeUntilItIsReset() {
        let log = [
            Self.changeset(1, at: 0, by: "Ada", [.insertSection(Self.section), .insertTimer(Self.keynote)]),
            Self.changeset(2, at: 1_000, by: "Ada", [Self.run(.running, startedAt: 1_000)]),
            Self.changeset(3, at: 601_000, by: nil, [Self.run(.finished, elapsed: 600_000, finishedAt: 601_000)]),
            Self.changeset(4, at: 631_000, by: "Bob", [Self.run(.idle)]),
        ]
        #expect(
            RunReport(log: log, now: 700_000).runs == [
                .init(
                    timerID: "k", timer: "Keynote", section: "Stage", planned: 600_000, startedAt: 1_000, endedAt: 601_000, outcome: .finished,
                    ran: 600_000, overtime: 30_000, startedBy: "Ada", endedBy: "TimerBoard"
                )
            ]
        )
    }

    @Test func pausesStayInsideARunAndAResetEndsItEarly() {
        let log = [
            Self.changeset(1, at: 0, by: "Ada", [.insertSection(Self.section), .insertTimer(Self.keynote)]),
            Self.changeset(2, at: 0, by: "Ada", [Self.run(.running, startedAt: 0)]),
            Self.changeset(3, at: 60_000, by: "Ada", [Self.run(.paused, elapsed: 60_000)]),
            Self.changeset(4, at: 90_000, by: "Bob", [Self.run(.running, startedAt: 90_000, elapsed: 60_000)]),
            Self.changeset(5, at: 120_000, by: "Bob", [Self.run(.idle)]),
            Self.changeset(6, at: 200_000, by: "Cy", [Self.run(.running, startedAt: 200_000)]),
        ]
        let runs = RunReport(log: log, now: 230_000).runs
        #expect(runs.map(\.outcome) == [.reset, .running])
        #expect(runs.map(\.ran) == [90_000, 30_000])
        #expect(runs.map(\.startedBy) == ["Ada", "Cy"] && runs[0].endedBy == "Bob")
    }

    @Test func aCellThatASpreadsheetWouldRunIsDefused() {
        #expect(RunReport.cell("=HYPERLINK(\"x\")") == "\"'=HYPERLINK(\"\"x\"\")\"")
        #expect(RunReport.cell("Tea, milk") == "\"Tea, milk\"")
        #expect(RunReport.cell("Tea") == "Tea")
    }
}
