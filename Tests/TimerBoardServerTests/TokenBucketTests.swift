import NIOCore
import Testing

@testable import TimerBoardServer

@Suite struct TokenBucketTests {
    @Test func aBurstPassesThenTheRateAppliesAndTheWaitIsExact() {
        var bucket = TokenBucket(rate: 10, burst: 3, now: 0)
        #expect((0..<3).map { _ in bucket.take(now: 0) } == [nil, nil, nil])
        #expect(bucket.take(now: 0) == 100)  // one token comes every 100 ms
        #expect(bucket.take(now: 40) == 60)
        #expect(bucket.take(now: 100) == nil)
        #expect(bucket.take(now: 100) == 100)
        // Idle time refills up to the burst, never beyond.
        #expect((0..<4).map { _ in bucket.take(now: 10_000) } == [nil, nil, nil, 100])
    }

    @Test func workChargedAfterwardsIsDebtThatLaterRequestsWaitOut() {
        var bucket = TokenBucket(rate: 10, burst: 20, now: 0)
        #expect(bucket.take(now: 0) == nil)
        bucket.charge(50, now: 0)  // 19 - 50: in debt, bounded at one burst (-20)
        #expect(bucket.take(now: 0) == 2_100)  // from -20 to 1 at 10 a second
        #expect(bucket.take(now: 2_100) == nil)
    }

    @Test func rateZeroMeansNoLimit() {
        var bucket = TokenBucket(rate: 0, burst: 1, now: 0)
        bucket.charge(1_000, now: 0)
        #expect((0..<1_000).allSatisfy { _ in bucket.take(now: 0) == nil })
    }

    @Test func addressesAreLimitedEachOnTheirOwn() {
        let limiter = AddressRateLimiter(perMinute: 60, burst: 2)
        #expect(limiter.take("a", now: 0) == nil && limiter.take("a", now: 0) == nil)
        #expect(limiter.take("a", now: 0) == 1_000)
        #expect(limiter.take("b", now: 0) == nil)
        #expect(limiter.take("a", now: 1_000) == nil)
    }
}

@Suite struct EditBudgetTests {
    @Test func aRefusedEditIsNotOvertakenByTheOnesBehindIt() {
        var budget = EditBudget(editsPerSecond: 10, burst: 1, now: 0)
        #expect(budget.admit(opID: "a", now: 0) == nil)
        #expect(budget.admit(opID: "b", now: 0) == 100)  // refused: b now holds the ones after it
        // c was already on the wire; a token is back, but c must not land before b.
        #expect(budget.admit(opID: "c", now: 150) != nil)
        #expect(budget.admit(opID: "b", now: 150) == nil)  // b sent again goes through, and lets go
        #expect(budget.admit(opID: "c", now: 250) == nil)
    }

    @Test func anEditOrJoinTheSharedBudgetRefusesLeavesTheConnectionItsToken() {
        var budget = EditBudget(editsPerSecond: 1, burst: 2, now: 0)
        #expect(budget.admit(opID: "a", now: 0, shared: { nil }) == nil)
        #expect(budget.admitJoin(now: 0, shared: { 500 }) == 500)
        #expect(budget.admit(opID: "b", now: 0, shared: { 500 }) == 500)
        #expect(budget.admit(opID: "b", now: 0, shared: { nil }) == nil)  // its token was still there
        #expect(budget.admit(opID: "c", now: 0) == 1_000)
    }

    /// A later edit is told to wait for the held one, not for the next token: once the held
    /// edit's wait is over a token is there at once, and "1 ms" had a script ask for ever.
    @Test func anEditBehindARefusedOneIsToldToWaitForItNotForTheNextToken() {
        var budget = EditBudget(editsPerSecond: 10, burst: 1, now: 0)
        #expect(budget.admit(opID: "a", now: 0) == nil)
        #expect(budget.admit(opID: "b", now: 0) == 100)
        #expect(budget.admit(opID: "c", now: 0) == 100)  // when b may go
        #expect(budget.heldBefore("c", now: 0) == "b")
        #expect(budget.heldBefore("b", now: 0) == nil)
        // b's wait is over and b was not sent again: c waits until the hold lapses.
        #expect(budget.admit(opID: "c", now: 150) == 100 + EditBudget.holdSlackMs - 150)
        #expect(budget.admit(opID: "c", now: 100 + EditBudget.holdSlackMs) == nil)
        #expect(budget.heldBefore("c", now: 100 + EditBudget.holdSlackMs) == nil)
    }

    @Test func aHoldLapsesForAClientThatGaveUpOnTheRefusedEdit() {
        var budget = EditBudget(editsPerSecond: 10, burst: 1, now: 0)
        #expect(budget.admit(opID: "a", now: 0) == nil)
        #expect(budget.admit(opID: "b", now: 0) == 100)
        #expect(budget.admit(opID: "c", now: 100 + EditBudget.holdSlackMs + 1) == nil)
    }

    @Test func anEditThatFansOutCostsOneTokenPerHundredChanges() {
        var budget = EditBudget(editsPerSecond: 1, burst: 30, now: 0)
        #expect(budget.admit(opID: "start", now: 0) == nil)
        budget.charge(changes: 2_000, now: 0)  // 20 tokens in all: 30 - 20 = 10 left
        #expect((1...10).allSatisfy { budget.admit(opID: "e\($0)", now: 0) == nil })
        #expect(budget.admit(opID: "e11", now: 0) != nil)
    }

    /// One token per 100 changes, rounded up: 100 changes cost one, 101 two, 200 two, 201 three.
    @Test(arguments: [(1, 1), (100, 1), (101, 2), (200, 2), (201, 3)])
    func anEditCostsItsChangesOverAHundredRoundedUp(changes: Int, tokens: Int) {
        var budget = EditBudget(editsPerSecond: 0.001, burst: 5, now: 0)
        #expect(budget.admit(opID: "big", now: 0) == nil)
        budget.charge(changes: changes, now: 0)
        #expect((1...(5 - tokens)).allSatisfy { budget.admit(opID: "e\($0)", now: 0) == nil })
        #expect(budget.admit(opID: "over", now: 0) != nil)
    }
}

@Suite struct ClientAddressTests {
    @Test(arguments: [
        ("2001:db8:1:2:3:4:5:6", "2001:db8:1:2::/64"),
        ("2001:db8:1:2::9", "2001:db8:1:2::/64"),
        ("2001:db8::1", "2001:db8:0:0::/64"),
        ("::1", "0:0:0:0::/64"),
        ("::ffff:192.0.2.7", "192.0.2.7"),
    ])
    func ipv6CountsByItsSlash64AndMappedIPv4ByItsAddress(_ text: String, _ key: String) {
        #expect(ClientAddress.key(ipv6: text) == key)
    }

    @Test func ipv4CountsByItsAddress() throws {
        #expect(ClientAddress.key(try SocketAddress(ipAddress: "192.0.2.7", port: 80)) == "192.0.2.7")
        #expect(ClientAddress.key(try SocketAddress(ipAddress: "2001:db8::1", port: 80)) == "2001:db8:0:0::/64")
    }
}

@Suite struct JoinBudgetTests {
    @Test func joinsDrawFromTheSameBudgetAsEdits() {
        var budget = EditBudget(editsPerSecond: 10, burst: 2, now: 0)
        #expect(budget.admitJoin(now: 0) == nil)
        #expect(budget.admit(opID: "a", now: 0) == nil)
        #expect(budget.admitJoin(now: 0) == 100)
    }
}
