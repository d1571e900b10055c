import Testing

@testable import TimerBoardServer

@Suite struct ConnectionCountsTests {
    typealias Counts = ConnectionCounts<String>

    @Test func anAddressAtItsCapWithNoneIdleIsRefusedWhileOthersAreAdmitted() {
        var counts = Counts(maxTotal: 10, maxPerAddress: 2)
        #expect(counts.open(from: "10.0.0.1") == .admitted(id: 1))
        #expect(counts.open(from: "10.0.0.1") == .admitted(id: 2))
        #expect(counts.open(from: "10.0.0.1") == .addressFull)
        #expect(counts.open(from: "10.0.0.2") == .admitted(id: 3))
        #expect(counts.total == 3)
    }

    @Test func theServerAtItsCapWithNoneIdleRefusesEveryAddress() {
        var counts = Counts(maxTotal: 2, maxPerAddress: 5)
        #expect(counts.open(from: "10.0.0.1").id != nil)
        #expect(counts.open(from: "10.0.0.2").id != nil)
        #expect(counts.open(from: "10.0.0.3") == .serverFull)
        #expect(counts.open(from: "10.0.0.1") == .serverFull)
    }

    @Test func aFullAddressGivesItsLongestIdleConnectionsSlotToANewcomer() {
        var counts = Counts(maxTotal: 10, maxPerAddress: 3)
        for _ in 0..<3 { _ = counts.open(from: "10.0.0.1") }
        counts.setIdle(id: 2, from: "10.0.0.1", handle: "second")
        counts.setIdle(id: 1, from: "10.0.0.1", handle: "first")
        counts.setIdle(id: 3, from: "10.0.0.1", handle: "third")
        counts.setBusy(id: 2, from: "10.0.0.1")
        // 2 went idle first, but is busy again: 1 has been idle longest.
        #expect(counts.open(from: "10.0.0.1") == .evicting(id: 4, victim: "first"))
        #expect(counts.open(from: "10.0.0.1") == .evicting(id: 5, victim: "third"))
        #expect(counts.open(from: "10.0.0.1") == .addressFull)
        #expect(counts.total == 3)
        #expect(counts.perAddress == ["10.0.0.1": 3])
        // The evicted connections' own closes count nothing more.
        counts.close(id: 1, from: "10.0.0.1")
        counts.close(id: 3, from: "10.0.0.1")
        #expect(counts.total == 3)
    }

    @Test func aFullServerClosesTheLongestIdleConnectionOfAnyAddress() {
        var counts = Counts(maxTotal: 2, maxPerAddress: 5)
        _ = counts.open(from: "10.0.0.1")
        _ = counts.open(from: "10.0.0.2")
        counts.setIdle(id: 2, from: "10.0.0.2", handle: "b")
        counts.setIdle(id: 1, from: "10.0.0.1", handle: "a")
        #expect(counts.open(from: "10.0.0.3") == .evicting(id: 3, victim: "b"))
        #expect(counts.perAddress == ["10.0.0.1": 1, "10.0.0.3": 1])
        #expect(counts.idleCount == 1)
    }

    @Test func aClosedConnectionFreesItsSlotAndAnAddressWithNoneIsForgotten() {
        var counts = Counts(maxTotal: 2, maxPerAddress: 1)
        #expect(counts.open(from: "10.0.0.1") == .admitted(id: 1))
        #expect(counts.open(from: "10.0.0.2") == .admitted(id: 2))
        counts.setIdle(id: 1, from: "10.0.0.1", handle: "idle")
        counts.close(id: 1, from: "10.0.0.1")
        #expect(counts.perAddress == ["10.0.0.2": 1])
        #expect(counts.idleCount == 0)
        #expect(counts.open(from: "10.0.0.1") == .admitted(id: 3))
        counts.close(id: 3, from: "10.0.0.1")
        counts.close(id: 2, from: "10.0.0.2")
        #expect(counts.total == 0)
        #expect(counts.perAddress.isEmpty)
    }

    @Test func aConnectionFromATrustedProxyCountsInAllAndAgainstTheClientItNames() {
        var counts = Counts(maxTotal: 10, maxPerAddress: 1)
        #expect(counts.open(from: nil) == .admitted(id: 1))
        #expect(counts.open(from: nil) == .admitted(id: 2))
        let first = counts.count(from: "10.0.0.1")
        let second = counts.count(from: "10.0.0.1")
        #expect(first && !second)
        #expect(counts.total == 2)
        counts.uncount(from: "10.0.0.1")
        counts.close(id: 1, from: nil)
        #expect(counts.total == 1)
        #expect(counts.perAddress.isEmpty)
    }

    @Test func aRefusalCountsNothing() {
        var counts = Counts(maxTotal: 1, maxPerAddress: 1)
        #expect(counts.open(from: "10.0.0.1") == .admitted(id: 1))
        #expect(counts.open(from: "10.0.0.1") == .addressFull)
        #expect(counts.open(from: "10.0.0.2") == .serverFull)
        #expect(counts.total == 1)
        #expect(counts.perAddress == ["10.0.0.1": 1])
    }
}
