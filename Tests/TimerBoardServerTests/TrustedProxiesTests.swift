import NIOCore
import Testing

@testable import TimerBoardServer

@Suite struct IPAddressTests {
    @Test(arguments: [
        ("192.0.2.7", "192.0.2.7"),
        ("2001:db8::1", "2001:db8:0:0:0:0:0:1"),
        ("::", "0:0:0:0:0:0:0:0"),
        ("::ffff:192.0.2.7", "192.0.2.7"),
        ("::ffff:c000:207", "192.0.2.7"),
        ("fe80::1%eth0", "fe80:0:0:0:0:0:0:1"),
        ("1:2:3:4:5:6:1.2.3.4", "1:2:3:4:5:6:102:304"),
    ])
    func parses(_ text: String, _ canonical: String) {
        #expect(IPAddress(text)?.description == canonical)
    }

    @Test(arguments: [
        "", "1.2.3", "1.2.3.4.5", "256.0.0.1", "01.2.3.4", "1.2.3.-4", "a.b.c.d", "1::2::3", "1:2:3:4:5:6:7:8:9",
        "12345::1", "unknown", "::ffff:1.2.3", "1:2:3:4:5:6:7:1.2.3.4",
    ])
    func refusesWhatIsNoAddress(_ text: String) {
        #expect(IPAddress(text) == nil)
    }

    @Test(arguments: [
        (" 192.0.2.7 ", "192.0.2.7"), ("192.0.2.7:4711", "192.0.2.7"), ("[2001:db8::1]:443", "2001:db8:0:0:0:0:0:1"),
        ("[2001:db8::1]", "2001:db8:0:0:0:0:0:1"), ("2001:db8::1", "2001:db8:0:0:0:0:0:1"),
    ])
    func readsForwardedHopsWithPorts(_ hop: String, _ canonical: String) {
        #expect(IPAddress(forwardedHop: hop)?.description == canonical)
    }
}

@Suite struct IPNetworkTests {
    @Test func containsWhatItsPrefixCovers() throws {
        let network = try IPNetwork(parsing: "10.1.0.0/16")
        #expect(network.contains(IPAddress("10.1.200.3")!))
        #expect(!network.contains(IPAddress("10.2.0.1")!))
        #expect(!network.contains(IPAddress("::ffff:10.2.0.1")!))
        #expect(try IPNetwork(parsing: "::ffff:10.1.0.0/112").contains(IPAddress("10.1.9.9")!))
        #expect(try IPNetwork(parsing: "fd00::/8").contains(IPAddress("fd12:3456::1")!))
        #expect(!(try IPNetwork(parsing: "fd00::/8").contains(IPAddress("10.0.0.1")!)))
        #expect(try IPNetwork(parsing: "192.0.2.7").contains(IPAddress("192.0.2.7")!))
        #expect(!(try IPNetwork(parsing: "192.0.2.7").contains(IPAddress("192.0.2.8")!)))
        #expect(try IPNetwork(parsing: "0.0.0.0/0").contains(IPAddress("203.0.113.1")!))
        #expect(try IPNetwork(parsing: "10.0.0.0/9").contains(IPAddress("10.127.0.1")!))
        #expect(!(try IPNetwork(parsing: "10.0.0.0/9").contains(IPAddress("10.128.0.1")!)))
    }

    @Test(arguments: ["10.0.0.0/33", "10.0.0.0/", "10.0.0.0/a", "example.com", "10.0.0.0/8/8", "::/129", ""])
    func refusesBadText(_ text: String) {
        #expect(throws: IPNetwork.ParseError.self) { try IPNetwork(parsing: text) }
    }
}

@Suite struct TrustedProxiesTests {
    let proxies = TrustedProxies([try! IPNetwork(parsing: "10.0.0.0/8"), try! IPNetwork(parsing: "127.0.0.1")])
    let proxy = IPAddress("10.0.0.5")!

    private func client(peer: IPAddress, _ forwardedFor: [String], realIP: String? = nil) -> String {
        proxies.client(peer: peer, forwardedFor: forwardedFor, realIP: realIP).description
    }

    @Test func anUntrustedPeerIsTheClientWhateverItsHeadersSay() {
        #expect(client(peer: IPAddress("203.0.113.9")!, ["198.51.100.1"], realIP: "198.51.100.2") == "203.0.113.9")
    }

    @Test func theRightmostUntrustedHopIsTheClient() {
        // The client wrote "1.1.1.1" itself; the proxy appended the address it saw.
        #expect(client(peer: proxy, ["1.1.1.1, 198.51.100.7"]) == "198.51.100.7")
        // Two trusted proxies in a row: both are skipped.
        #expect(client(peer: proxy, ["1.1.1.1, 198.51.100.7, 10.9.9.9"]) == "198.51.100.7")
        // Several header fields are one list.
        #expect(client(peer: proxy, ["1.1.1.1", "198.51.100.7"]) == "198.51.100.7")
        #expect(client(peer: proxy, ["[2001:db8::1]:1234"]) == "2001:db8:0:0:0:0:0:1")
    }

    @Test func aHopThatIsNoAddressStopsAtTheProxyThatWroteIt() {
        #expect(client(peer: proxy, ["198.51.100.7, unknown"]) == "10.0.0.5")
        #expect(client(peer: proxy, ["198.51.100.7, garbage, 10.1.1.1"]) == "10.1.1.1")
    }

    @Test func everyHopTrustedGivesTheLeftmost() {
        #expect(client(peer: proxy, ["10.3.3.3, 10.2.2.2"]) == "10.3.3.3")
    }

    @Test func xRealIPOnlyWithoutXForwardedFor() {
        #expect(client(peer: proxy, [], realIP: "198.51.100.8") == "198.51.100.8")
        #expect(client(peer: proxy, ["198.51.100.7"], realIP: "198.51.100.8") == "198.51.100.7")
        #expect(client(peer: proxy, [], realIP: "nonsense") == "10.0.0.5")
    }

    @Test func theKeyOfAForwardedIPv6ClientIsItsSlash64() throws {
        let peer = try SocketAddress(ipAddress: "127.0.0.1", port: 80)
        let key = ClientAddress.key(peer: peer, forwardedFor: ["2001:db8:1:2:3:4:5:6"], realIP: nil, trusted: proxies)
        #expect(key == "2001:db8:1:2::/64")
        #expect(ClientAddress.key(peer: peer, forwardedFor: ["2001:db8:1:2:3:4:5:6"], realIP: nil, trusted: TrustedProxies()) == "127.0.0.1")
    }
}
