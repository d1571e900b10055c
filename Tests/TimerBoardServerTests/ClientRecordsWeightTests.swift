import Testing

@testable import TimerBoardServer

/// A board's records bounded by weight as well as number: undo records of huge edits were
/// bounded by count only, and 2,000 of them could hold gigabytes.
@Suite struct ClientRecordsWeightTests {
    @Test func theOldestGoOnceTheWeightIsOverItsLimitAndTheNewestAlwaysStays() {
        var records = ClientRecords<Int>(limitPerClient: 100, limitInTotal: 100, weightLimit: 1_000, weight: { $0 })
        for index in 1...5 { records.record(300, clientID: "c\(index % 2)", opID: "\(index)") }
        // 5 x 300 is over 1,000: the two oldest went, whoever made them.
        #expect(records.count == 3 && records.totalWeight == 900)
        #expect(records.value(clientID: "c1", opID: "1") == nil && records.value(clientID: "c0", opID: "2") == nil)
        #expect(records.value(clientID: "c1", opID: "3") == 300)
        records.record(5_000, clientID: "c9", opID: "huge")
        #expect(records.count == 1 && records.value(clientID: "c9", opID: "huge") == 5_000)
        // Recording the same op id again replaces its weight, not adds to it.
        records.record(10, clientID: "c9", opID: "huge")
        #expect(records.count == 1 && records.totalWeight == 10)
    }
}
