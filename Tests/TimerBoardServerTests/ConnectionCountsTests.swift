import Testing

@testable import TimerBoardServer

@Suite struct ConnectionCountsTests {
    @Test func anAddressAtItsCapIsRefusedWhileOthersAreAdmitted() {
        var counts = ConnectionCounts(maxTotal: 10, maxPerAddress: 2)
        #expect(counts.open(from: "10.0.0.1") == .admitted)
        #expect(counts.open(from: "10.0.0.1") == .admitted)
        #expect(counts.open(from: "10.0.0.1") == .addressFull)
        #expect(counts.open(from: "10.0.0.2") == .admitted)
        #expect(counts.total == 3)
    }

    @Test func theServerAtItsCapRefusesEveryAddress() {
        var counts = ConnectionCounts(maxTotal: 2, maxPerAddress: 5)
        #expect(counts.open(from: "10.0.0.1") == .admitted)
        #expect(counts.open(from: "10.0.0.2") == .admitted)
        #expect(counts.open(from: "10.0.0.3") == .serverFull)
        #expect(counts.open(from: "10.0.0.1") == .serverFull)
    }

    @Test func aClosedConnectionFreesItsSlotAndAnAddressWithNoneIsForgotten() {
        var counts = ConnectionCounts(maxTotal: 2, maxPerAddress: 1)
        #expect(counts.open(from: "10.0.0.1") == .admitted)
        #expect(counts.open(from: "10.0.0.2") == .admitted)
        counts.close(from: "10.0.0.1")
        #expect(counts.perAddress == ["10.0.0.2": 1])
        #expect(counts.open(from: "10.0.0.1") == .admitted)
        counts.close(from: "10.0.0.1")
        counts.close(from: "10.0.0.2")
        #expect(counts.total == 0)
        #expect(counts.perAddress.isEmpty)
    }

    @Test func aRefusalCountsNothing() {
        var counts = ConnectionCounts(maxTotal: 1, maxPerAddress: 1)
        #expect(counts.open(from: "10.0.0.1") == .admitted)
        #expect(counts.open(from: "10.0.0.1") == .serverFull)
        #expect(counts.open(from: "10.0.0.2") == .serverFull)
        #expect(counts.total == 1)
        #expect(counts.perAddress == ["10.0.0.1": 1])
    }
}
