import Testing

@testable import TimerBoardServer

@Suite struct IPv6NetworkCountsTests {
    typealias Counts = ConnectionCounts<String>

    /// The key of the /64 `2001:db8:1:N::/64`, as `ClientAddress` makes it.
    func subnet(_ n: Int) -> String { ClientAddress.key(ipv6: "2001:db8:1:\(String(n, radix: 16))::1") }

    @Test func aKeysNetworkIsItsFirstPrefixBits() {
        #expect(ClientAddress.network(ofKey: "2001:db8:1:2::/64", prefix: 48) == "2001:db8:1:0::/48")
        #expect(ClientAddress.network(ofKey: "2001:db8:1:ff::/64", prefix: 56) == "2001:db8:1:0::/56")
        #expect(ClientAddress.network(ofKey: "2001:db8:1:1ff::/64", prefix: 56) == "2001:db8:1:100::/56")
        #expect(ClientAddress.network(ofKey: "2001:db8:1:2::/64", prefix: 64) == "2001:db8:1:2::/64")
        #expect(ClientAddress.network(ofKey: "192.0.2.7", prefix: 48) == nil)
    }

    @Test func tenSubnetsOfOneNetworkShareItsCapWhileAnotherNetworkIsAdmitted() {
        var counts = Counts(maxTotal: 100, maxPerAddress: 10, maxPerNetwork: 15)
        let admitted = (0..<10).flatMap { n in (0..<10).map { _ in counts.open(from: subnet(n)) } }.filter { $0.id != nil }
        #expect(admitted.count == 15)
        #expect(counts.open(from: subnet(42)) == .addressFull)
        #expect(counts.open(from: ClientAddress.key(ipv6: "2001:db8:2::1")).id != nil)
        #expect(counts.open(from: "192.0.2.7").id != nil)
        #expect(counts.perNetwork == ["2001:db8:1:0::/48": 15, "2001:db8:2:0::/48": 1])
    }

    @Test func aFullNetworkGivesItsLongestIdleSlotToANewcomerAndClosesGiveSlotsBack() {
        var counts = Counts(maxTotal: 100, maxPerAddress: 10, maxPerNetwork: 2)
        #expect(counts.open(from: subnet(1)) == .admitted(id: 1))
        #expect(counts.open(from: subnet(2)) == .admitted(id: 2))
        counts.setIdle(id: 1, from: subnet(1), handle: "idle one")
        #expect(counts.open(from: subnet(3)) == .evicting(id: 3, victim: "idle one"))
        #expect(counts.open(from: subnet(4)) == .addressFull)
        counts.close(id: 2, from: subnet(2))
        #expect(counts.open(from: subnet(4)) == .admitted(id: 4))
        #expect(counts.perNetwork == ["2001:db8:1:0::/48": 2])
    }

    @Test func aProxiedClientCountsInItsNetworkToo() {
        var counts = Counts(maxTotal: 100, maxPerAddress: 10, maxPerNetwork: 2)
        let first = counts.count(from: subnet(1)), second = counts.count(from: subnet(2))
        let third = counts.count(from: subnet(3))
        #expect(first && second && !third)
        counts.uncount(from: subnet(1))
        let again = counts.count(from: subnet(3))
        #expect(again)
    }
}
