import BoardCore
import BoardProtocol
import BoardStore
import Logging
import Testing

@testable import TimerBoardServer

/// Presence across nodes, on the tracker and the message format alone (the live test with two
/// nodes and PostgreSQL is tests/test_cluster.py).
@Suite struct ClusterPresenceTests {
    typealias Tracker = PresenceTracker<[ServerMessage.PresenceUser]>

    static func user(_ id: String, _ name: String, editing: EntityID? = nil) -> ServerMessage.PresenceUser {
        ServerMessage.PresenceUser(userID: id, name: name, color: "#000000", editing: editing, clockError: nil)
    }

    @Test func otherNodesUsersAreShownToJoinersAndInFlushesButNeverToldBack() {
        var tracker = Tracker(sharedWithOtherNodes: true)
        _ = tracker.add(Participant(clientID: "ada-client", boardID: "b", name: "Ada", role: .edit), on: 1)
        #expect(tracker.flushLocal()?.users.map(\.name) == ["Ada"])
        _ = tracker.flush()
        #expect(tracker.applyRemote(node: "n2", users: [Self.user("u-bob", "Bob")], left: [], replacing: false, now: 0) == .scheduleFlush)
        #expect(tracker.flush()?.users.map(\.name) == ["Bob"])
        #expect(tracker.joinerList { users, _ in users }.map(\.name) == ["Ada", "Bob"])
        // Bob is not this node's to tell the others of.
        #expect(tracker.flushLocal() == nil)
        #expect(tracker.announcement().users.map(\.name) == ["Ada"])
        // A delta changes one user; the same again changes nothing.
        _ = tracker.applyRemote(node: "n2", users: [Self.user("u-bob", "Bob", editing: "s1")], left: [], replacing: false, now: 1)
        #expect(tracker.flush()?.users.map(\.editing) == ["s1"])
        _ = tracker.applyRemote(node: "n2", users: [Self.user("u-bob", "Bob", editing: "s1")], left: [], replacing: false, now: 2)
        #expect(tracker.flush() == nil)
        // A full list replaces what the node said: Bob left, Cy came.
        _ = tracker.applyRemote(node: "n2", users: [Self.user("u-cy", "Cy")], left: [], replacing: true, now: 3)
        #expect(tracker.flush() == .init(users: [Self.user("u-cy", "Cy")], left: ["u-bob"]))
    }

    /// The room flushes whenever its interval ends, also between the parts of another node's
    /// full list: the users of the node's last list whom its first part does not name are not
    /// told as gone (every viewer saw 75 users leave, and come back at the next flush). One that
    /// no part names (their `left` was lost) is gone at the node's next full list.
    @Test func aFlushBetweenThePartsOfAFullListTellsNobodyLeft() {
        var tracker = Tracker(sharedWithOtherNodes: true)
        let users = (0..<100).map { Self.user("u\($0)", "User \($0)") }
        _ = tracker.applyRemote(node: "n2", users: users, left: [], replacing: true, now: 0)
        #expect(tracker.flush()?.users.count == 100)
        // The next announcement, in ClusterPresence's parts; u99 left and its news was lost.
        let parts = Self.node("n2").payloads(PresenceNews(scope: .full, users: Array(users[..<99]), left: []))
            .compactMap { Self.node("n1").news(from: $0)?.news }
        #expect(parts.map(\.users.count) == [25, 25, 25, 24])
        _ = tracker.applyRemote(node: "n2", users: parts[0].users, left: [], replacing: true, mayContinue: parts[0].mayContinue, now: 10_000)
        #expect(tracker.flush() == nil)
        #expect(tracker.joinerList { users, _ in users }.count == 100)
        for part in parts.dropFirst() {
            _ = tracker.applyRemote(node: "n2", users: part.users, left: [], replacing: part.scope == .full, mayContinue: part.mayContinue, now: 10_000)
        }
        #expect(tracker.flush() == nil)
        // A delta's left drops a user at once, carried or not.
        _ = tracker.applyRemote(node: "n2", users: Array(users[..<25]), left: [], replacing: true, mayContinue: true, now: 20_000)
        _ = tracker.applyRemote(node: "n2", users: [], left: ["u50"], replacing: false, now: 20_000)
        #expect(tracker.flush() == .init(users: [], left: ["u50", "u99"]))
        // A short full list is whole: an empty one (its room closed) takes everyone off at once.
        _ = tracker.applyRemote(node: "n2", users: [], left: [], replacing: true, mayContinue: PresenceNews(scope: .full, users: [], left: []).mayContinue, now: 20_001)
        #expect(tracker.flush()?.left.count == 98)
        #expect(tracker.nodesWithUsers(localNode: "n1").isEmpty)
    }

    /// Another node's full list comes in parts, the first replacing what it said before: its
    /// users named again unchanged are told to nobody (every viewer was re-sent ~75 users each
    /// time a node announced, every 10 s), and one that changed is told alone.
    @Test func aFullListInPartsTellsOnlyWhatChanged() {
        var tracker = Tracker(sharedWithOtherNodes: true)
        let users = (0..<50).map { Self.user("u\($0)", "User \($0)") }
        _ = tracker.applyRemote(node: "n2", users: users, left: [], replacing: true, now: 0)
        #expect(tracker.flush()?.users.count == 50)
        // The next announcement, in two parts as ClusterPresence splits it.
        _ = tracker.applyRemote(node: "n2", users: Array(users[..<25]), left: [], replacing: true, now: 1)
        _ = tracker.applyRemote(node: "n2", users: Array(users[25...]), left: [], replacing: false, now: 1)
        #expect(tracker.flush() == nil)
        _ = tracker.applyRemote(node: "n2", users: [Self.user("u3", "User 3", editing: "s1")], left: [], replacing: false, now: 2)
        #expect(tracker.flush()?.users.map(\.userID) == ["u3"])
    }

    /// A crowd on two nodes: each tells the other its first users and counts the rest, and
    /// each shows the board's first users (editors, then by name) and counts everyone else.
    @Test func aNodeNamesItsFirstUsersToTheOthersAndCountsTheRest() {
        var here = Tracker(sharedWithOtherNodes: true, listLimit: 3, countFlushes: 1)
        var there = Tracker(sharedWithOtherNodes: true, listLimit: 3, countFlushes: 1)
        for n in 0..<6 {
            _ = here.add(Participant(clientID: "here-\(n)-client", boardID: "b", name: "Here \(n)", role: .edit), on: n)
            _ = there.add(Participant(clientID: "there-\(n)-client", boardID: "b", name: "There \(n)", role: .edit), on: n)
        }
        _ = there.setPresence(editing: "s1", clockError: nil, on: 5)
        let announced = there.announcement()
        #expect(announced.users.map(\.name) == ["There 0", "There 1", "There 5"] && announced.more == 3)
        _ = here.flush()
        #expect(here.applyRemote(node: "there", users: announced.users, left: [], more: announced.more, replacing: true, now: 0) == .scheduleFlush)
        let flush = here.flush()
        #expect(flush?.users.map(\.name) == ["There 5"] && flush?.left == [Self.userID("here-2-client")] && flush?.more == 9)
        #expect(here.joinerList { users, _ in users }.map(\.name) == ["Here 0", "Here 1", "There 5"])

        // Two leave there, unnamed: a delta with the count alone, and the count follows here.
        _ = there.remove(3)
        _ = there.remove(4)
        let delta = there.flushLocal()
        #expect(delta == .init(users: [], left: [], more: 1))
        #expect(here.applyRemote(node: "there", users: delta!.users, left: delta!.left, more: delta!.more, replacing: false, now: 1) == .scheduleFlush)
        #expect(here.flush() == .init(users: [], left: [], more: 7))
        // Named ones leave: the next in line is named to the others, and the count falls to none.
        _ = there.remove(0)
        let next = there.flushLocal()
        #expect(next?.users.map(\.name) == ["There 2"] && next?.left == [Self.userID("there-0-client")] && next?.more == 0)
        #expect(there.flushLocal() == nil, "nothing new")
    }

    static func userID(_ client: String) -> String { Participant.userID(clientID: client, boardID: "b") }

    /// Unnamed users coming and going on this node: the other nodes hear its count at most once
    /// every `countFlushes` flushes, a change of whom it names at once (with the count of that
    /// moment), and nothing when the count came back to what they were told.
    @Test func aNodeTellsTheOthersItsCountAloneAtMostOnceEveryCountFlushes() {
        var tracker = Tracker(sharedWithOtherNodes: true, listLimit: 2, countFlushes: 3)
        for n in 0..<4 {
            _ = tracker.add(Participant(clientID: "c\(n)", boardID: "b", name: "User \(n)", role: .edit), on: n)
        }
        // As the room flushes: the board's own list first, then the news for the other nodes.
        func flushBoth() -> Tracker.Flush? {
            _ = tracker.flush()
            return tracker.flushLocal()
        }
        let first = flushBoth()
        #expect(first?.users.map(\.name) == ["User 0", "User 1"] && first?.more == 2)

        _ = tracker.remove(3)
        #expect(flushBoth() == nil && tracker.isFlushScheduled, "held back, a flush still due")
        #expect(flushBoth() == nil && tracker.isFlushScheduled)
        #expect(flushBoth() == .init(users: [], left: [], more: 1))

        // Whom it names changes: told at once, with the count as it is now.
        _ = tracker.remove(0)
        let named = flushBoth()
        #expect(named?.users.map(\.name) == ["User 2"] && named?.left == [Self.userID("c0")] && named?.more == 0)

        // One comes and goes before the count is due: nothing to tell, and no flush left due.
        _ = tracker.add(Participant(clientID: "c9", boardID: "b", name: "User 9", role: .edit), on: 9)
        #expect(flushBoth() == nil && tracker.isFlushScheduled)
        _ = tracker.remove(9)
        #expect(flushBoth() == nil)
        #expect(!tracker.isFlushScheduled)
    }

    @Test func aSilentNodesUsersAreForgotten() {
        var tracker = Tracker(sharedWithOtherNodes: true)
        _ = tracker.applyRemote(node: "gone", users: [Self.user("u-1", "One")], left: [], replacing: true, now: 1_000)
        _ = tracker.applyRemote(node: "alive", users: [Self.user("u-2", "Two")], left: [], replacing: true, now: 30_000)
        _ = tracker.flush()
        #expect(tracker.forgetSilentNodes(heardBefore: 20_000) == .scheduleFlush)
        #expect(tracker.flush() == .init(users: [], left: ["u-1"]))
        #expect(tracker.joinerList { users, _ in users }.map(\.name) == ["Two"])
    }

    /// The board's timekeeper is the smallest id among the nodes with users on it (BoardRoom.finishDelay).
    @Test func theNodesWithUsersAreThisOneWhileItHasParticipantsAndTheOthersWhileTheyHaveUsers() {
        var tracker = Tracker(sharedWithOtherNodes: true)
        #expect(tracker.nodesWithUsers(localNode: "n5").isEmpty)
        _ = tracker.applyRemote(node: "n2", users: [Self.user("u-bob", "Bob")], left: [], replacing: true, now: 0)
        _ = tracker.applyRemote(node: "n3", users: [], left: [], replacing: true, now: 0)
        #expect(tracker.nodesWithUsers(localNode: "n5") == ["n2"])
        _ = tracker.add(Participant(clientID: "ada-client", boardID: "b", name: "Ada", role: .view), on: 1)
        #expect(tracker.nodesWithUsers(localNode: "n5") == ["n2", "n5"])
        // n2's room closed: it said so with an empty list.
        _ = tracker.applyRemote(node: "n2", users: [], left: ["u-bob"], replacing: true, now: 1)
        #expect(tracker.nodesWithUsers(localNode: "n5") == ["n5"])
    }

    @Test func messagesCarryTheNodeAndSplitUnderPostgreSQLsLimitAndOwnOnesAreIgnored() {
        let here = Self.node("here")
        let there = Self.node("there")
        let crowd = (0..<60).map { Self.user("user-\($0)", String(repeating: "N", count: 100)) }
        let payloads = there.payloads(PresenceNews(scope: .full, users: crowd, left: ["gone"]))
        #expect(payloads.count == 3)
        #expect(payloads.allSatisfy { $0.utf8.count + 13 <= PostgresBoardStore.presencePayloadLimit })
        let messages = payloads.compactMap(here.news(from:))
        #expect(messages.allSatisfy { $0.node == "there" })
        #expect(messages.map(\.news.scope) == [.full, .delta, .delta])
        #expect(messages.flatMap(\.news.users) == crowd)
        #expect(messages.flatMap(\.news.left) == ["gone"])
        #expect(payloads.compactMap(there.news(from:)).isEmpty, "a node's own messages come back to it")
        #expect(here.news(from: "there full {not json") == nil)
    }

    static func node(_ id: String) -> ClusterPresence {
        ClusterPresence(nodeID: id, feed: NoFeed(), announceInterval: .seconds(10), silenceLimit: 30_000, timekeeperGrace: 1_000, logger: Logger(label: "test"))
    }

    struct NoFeed: BoardChangeFeed {
        func followChanges(_ handle: @Sendable (BoardChangeEvent) async -> Void) async {}
        func publishPresence(boardID: String, payload: String) async throws {}
    }
}
