import BoardCore
import BoardProtocol
import Testing

@testable import TimerBoardServer

@Suite struct OutcomeLogTests {
    private static let bulky = ServerMessage.Reject(
        opID: "x",
        code: .notFound,
        message: "no such timer",
        opIndex: 0,
        current: .section(Section(id: "s", title: String(repeating: "x", count: 200), createdDate: 0, order: "a0"))
    )

    @Test func eachClientKeepsItsLastOutcomes() {
        var log = OutcomeLog(limitPerClient: 3, limitInTotal: 100)
        for index in 1...5 { log.record(.accepted(revision: Int64(index)), clientID: "a", opID: "\(index)") }
        log.record(.accepted(revision: 9), clientID: "b", opID: "1")
        #expect(log.outcome(clientID: "a", opID: "2") == nil)
        #expect((3...5).allSatisfy { log.outcome(clientID: "a", opID: "\($0)") != nil })
        #expect(log.outcome(clientID: "b", opID: "1") != nil)
        #expect(log.count == 4)
    }

    @Test func theBoardKeepsAtMostItsTotalWhateverTheNumberOfClientIDs() {
        var log = OutcomeLog(limitPerClient: 1_000, limitInTotal: 500)
        for index in 0..<3_000 { log.record(.rejected(Self.bulky), clientID: "attacker-\(index)", opID: "1") }
        #expect(log.count == 500)
        #expect(log.outcome(clientID: "attacker-2499", opID: "1") == nil)
        #expect(log.outcome(clientID: "attacker-2500", opID: "1") != nil)
        // A client that edits after the flood is remembered like any other.
        log.record(.accepted(revision: 1), clientID: "victim", opID: "7")
        #expect(log.outcome(clientID: "victim", opID: "7") != nil && log.count == 500)
    }

    @Test func aRejectIsKeptWithoutItsEntity() throws {
        var log = OutcomeLog(limitPerClient: 10, limitInTotal: 10)
        log.record(.rejected(Self.bulky), clientID: "a", opID: "x")
        guard case .rejected(let kept)? = log.outcome(clientID: "a", opID: "x") else {
            Issue.record("no reject kept")
            return
        }
        #expect(kept.current == nil && kept.code == .notFound && kept.opIndex == 0)
    }

    @Test func recordingTheSameOpAgainReplacesItAndCountsOnce() {
        var log = OutcomeLog(limitPerClient: 10, limitInTotal: 2)
        log.record(.rejected(Self.bulky), clientID: "a", opID: "1")
        log.record(.accepted(revision: 3), clientID: "a", opID: "1")
        log.record(.accepted(revision: 4), clientID: "a", opID: "2")
        #expect(log.count == 2)
        guard case .accepted(3)? = log.outcome(clientID: "a", opID: "1") else {
            Issue.record("the newer outcome of op 1 was forgotten")
            return
        }
    }

    /// Clients that stay under their own limit never reach the board's total, so the list kept
    /// for the total must still drop what they forgot: it grew by one entry per edit.
    @Test func whatClientsForgetDoesNotPileUpForTheTotal() {
        var log = OutcomeLog(limitPerClient: 10, limitInTotal: 1_000)
        for index in 0..<100_000 { log.record(.accepted(revision: Int64(index)), clientID: "c\(index % 3)", opID: "\(index)") }
        #expect(log.count == 30)
        #expect(log.trackedRecords <= 2 * log.count + 1_024)
        #expect(log.outcome(clientID: "c0", opID: "99999") != nil && log.outcome(clientID: "c0", opID: "99969") == nil)
    }
}
