import Testing

@testable import TimerBoardServer

/// Which nodes a cluster has, as one node hears their hello and bye messages: decided by
/// `NodeTable` alone (the live test with PostgreSQL is tests/test_store_events.py).
@Suite struct NodeTableTests {
    @Test func aNodeHeardForTheFirstTimeJoinsAndAgainChangesNothing() {
        var table = NodeTable()
        #expect(table.heard("n2 hello 0.11.0", now: 0) == .joined(node: "n2", version: "0.11.0"))
        #expect(table.heard("n2 hello 0.11.0", now: 1_000) == nil)
        #expect(table.nodes["n2"]?.lastHeard == 1_000)
    }

    @Test func aNodeThatSaysByeLeavesAsStoppedAndOnlyOnce() {
        var table = NodeTable()
        _ = table.heard("n2 hello 0.11.0", now: 0)
        #expect(table.heard("n2 bye", now: 10) == .left(node: "n2", version: "0.11.0", reason: .stopped))
        #expect(table.heard("n2 bye", now: 20) == nil)
        #expect(table.nodes.isEmpty)
    }

    @Test func aNodeNotHeardForTheSilenceLimitLeavesAsSilent() {
        var table = NodeTable()
        _ = table.heard("n2 hello 0.11.0", now: 0)
        _ = table.heard("n3 hello 0.11.0", now: 20_000)
        #expect(table.forgetSilent(now: 30_000, silenceLimit: 30_000) == [])
        #expect(table.forgetSilent(now: 30_001, silenceLimit: 30_000) == [.left(node: "n2", version: "0.11.0", reason: .silent)])
        #expect(Set(table.nodes.keys) == ["n3"])
    }

    @Test(arguments: ["", "n2", "n2 hello", "n2 wave 1", "n2 bye-bye"])
    func whatDoesNotParseChangesNothing(_ payload: String) {
        var table = NodeTable()
        #expect(table.heard(payload, now: 0) == nil)
        #expect(table.nodes.isEmpty)
    }

    @Test func theOwnMessagesReadBack() {
        var table = NodeTable()
        #expect(table.heard(NodeTable.hello(node: "me", version: "1.2.3"), now: 0) == .joined(node: "me", version: "1.2.3"))
        #expect(table.heard(NodeTable.bye(node: "me"), now: 0) == .left(node: "me", version: "1.2.3", reason: .stopped))
    }
}
