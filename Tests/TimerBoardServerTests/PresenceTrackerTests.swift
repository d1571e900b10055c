import BoardCore
import BoardProtocol
import PropertyBased
import TestSupport
import Testing

@testable import TimerBoardServer

/// The presence rules on the tracker alone: no socket, no room, no timer.
@Suite struct PresenceTrackerTests {
    /// An encoded joiner list, as the tests see it: the users it was made from, and which
    /// encoding it was (to tell a cached list from a new one).
    struct List: Equatable {
        let users: [ServerMessage.PresenceUser]
        var more = 0
        let encoding: Int
    }

    typealias Tracker = PresenceTracker<List>

    static func participant(_ client: String, _ name: String, role: BoardRole = .edit) -> Participant {
        Participant(clientID: client, boardID: "board", name: name, role: role)
    }

    static func userID(_ client: String) -> String { participant(client, "").userID }

    /// A room's table holds one per connection: 80 bytes at most, with its 15-character user id
    /// inside them (docs/performance.md, idle memory).
    @Test func aParticipantTakesAtMost80Bytes() {
        #expect(MemoryLayout<Participant>.stride <= 80)
        #expect(Self.userID("web-Ada1").utf8.count <= 15)
    }

    @Test func theFirstChangeAfterAFlushSchedulesOneAndTheRestRideAlong() {
        var tracker = Tracker()
        #expect(tracker.add(Self.participant("ada", "Ada"), on: 1) == .scheduleFlush)
        #expect(tracker.add(Self.participant("bob", "Bob"), on: 2) == .none)
        #expect(tracker.setPresence(editing: "s1", clockError: nil, on: 2) == .changed(.none))
        let flush = tracker.flush()
        #expect(flush?.users.map(\.name) == ["Ada", "Bob"])
        #expect(flush?.users.map(\.editing) == [nil, "s1"])
        #expect(flush?.left == [])
        #expect(tracker.flush() == nil, "nothing changed since")
        #expect(tracker.remove(1).effect == .scheduleFlush)
        #expect(tracker.flush() == .init(users: [], left: [Self.userID("ada")]))
    }

    /// One user on two connections (two tabs) has left only when both have; while one stays
    /// and shows the same, there is nothing to tell.
    @Test func aUserLeavesOnlyWithItsLastConnection() {
        var tracker = Tracker()
        _ = tracker.add(Self.participant("ada", "Ada"), on: 1)
        _ = tracker.add(Self.participant("ada", "Ada"), on: 2)
        _ = tracker.flush()
        _ = tracker.remove(1)
        #expect(tracker.flush() == nil)
        _ = tracker.remove(2)
        #expect(tracker.flush() == .init(users: [], left: [Self.userID("ada")]))
    }

    @Test(arguments: [
        (BoardRole.edit, EntityID?.some("s1"), Tracker.PresenceOutcome.changed(.scheduleFlush)),
        (.owner, "s1", .changed(.scheduleFlush)),
        (.view, "s1", .forbidden),
        (.edit, nil, .unchanged),
    ])
    func whoMaySayWhatTheyEdit(role: BoardRole, editing: EntityID?, outcome: Tracker.PresenceOutcome) {
        var tracker = Tracker()
        _ = tracker.add(Self.participant("ada", "Ada", role: role), on: 1)
        _ = tracker.flush()
        #expect(tracker.setPresence(editing: editing, clockError: nil, on: 1) == outcome)
        #expect(tracker.setPresence(editing: editing, clockError: nil, on: 99) == .notOnBoard)
    }

    @Test(arguments: [
        (BoardRole.edit, EntityID?.some("s1"), Int64?.some(12), Tracker.PresenceOutcome.changed(.scheduleFlush), Int64?.some(12)),
        (.edit, nil, nil, .unchanged, nil),
        (.view, nil, 180, .changed(.scheduleFlush), 180),
        (.view, "s1", 180, .forbidden, nil),
        (.view, nil, nil, .forbidden, nil),
    ])
    func whoMayReportTheirClockError(
        role: BoardRole,
        editing: EntityID?,
        clockError: Int64?,
        outcome: Tracker.PresenceOutcome,
        shown: Int64?
    ) {
        var tracker = Tracker()
        _ = tracker.add(Self.participant("ada", "Ada", role: role), on: 1)
        _ = tracker.flush()
        #expect(tracker.setPresence(editing: editing, clockError: clockError, on: 1) == outcome)
        #expect(tracker.participant(on: 1)?.presenceUser.clockError == shown)
    }

    @Test func aPresenceWithoutClockErrorKeepsTheLastOneAndAChangeOfItAloneIsTold() {
        var tracker = Tracker()
        _ = tracker.add(Self.participant("ada", "Ada"), on: 1)
        _ = tracker.setPresence(editing: nil, clockError: 20, on: 1)
        _ = tracker.flush()
        #expect(tracker.setPresence(editing: "s1", clockError: nil, on: 1) == .changed(.scheduleFlush))
        #expect(tracker.flush()?.users.map(\.clockError) == [20])
        #expect(tracker.setPresence(editing: "s1", clockError: 35, on: 1) == .changed(.scheduleFlush))
        #expect(tracker.flush()?.users.map(\.clockError) == [35])
    }

    @Test func theJoinerListIsEncodedOncePerFlush() {
        var tracker = Tracker()
        var encodings = 0
        func list() -> List {
            tracker.joinerList { users, more in
                encodings += 1
                return List(users: users, more: more, encoding: encodings)
            }
        }
        _ = tracker.add(Self.participant("bob", "Bob"), on: 2)
        _ = tracker.add(Self.participant("ada", "Ada"), on: 1)
        #expect(list().users.map(\.name) == ["Ada", "Bob"])
        _ = tracker.add(Self.participant("cy", "Cy"), on: 3)
        #expect(list() == List(users: [Self.participant("ada", "Ada").presenceUser, Self.participant("bob", "Bob").presenceUser], encoding: 1))
        _ = tracker.flush()
        #expect(list().users.map(\.name) == ["Ada", "Bob", "Cy"])
        #expect(encodings == 2)
    }

    /// A crowd's comings and goings beyond the list change only the count: it is told at most
    /// once every `countFlushes` flushes, and not at all when it came back to what everyone has;
    /// a change to the list itself is told at once.
    @Test func theCountAloneWaitsItsTurnAndNamesDoNot() {
        var tracker = Tracker(listLimit: 1, countFlushes: 3)
        _ = tracker.add(Self.participant("ada", "Ada"), on: 1)
        _ = tracker.add(Self.participant("zed", "Zed"), on: 2)
        #expect(tracker.flush() == .init(users: [Self.participant("ada", "Ada").presenceUser], left: [], more: 1))
        #expect(tracker.add(Self.participant("zoe", "Zoe"), on: 3) == .scheduleFlush)
        #expect(tracker.flush() == nil && tracker.isFlushScheduled, "told one flush ago: held back")
        #expect(tracker.add(Self.participant("zia", "Zia"), on: 4) == .none, "it rides on the flush held back")
        #expect(tracker.flush() == nil && tracker.isFlushScheduled)
        #expect(tracker.flush() == .init(users: [], left: [], more: 3))
        #expect(!tracker.isFlushScheduled)
        // Back to what everyone has: nothing to tell, nothing to wait for.
        _ = tracker.remove(4)
        _ = tracker.add(Self.participant("zia", "Zia"), on: 5)
        #expect(tracker.flush() == nil && !tracker.isFlushScheduled)
        // Bob sorts before Zed: the list changes, and the count rides along at once.
        _ = tracker.remove(1)
        _ = tracker.add(Self.participant("bob", "Bob"), on: 6)
        _ = tracker.add(Self.participant("cy", "Cy"), on: 7)
        #expect(tracker.flush() == .init(users: [Self.participant("bob", "Bob").presenceUser], left: [Self.userID("ada")], more: 4))
    }

    @Test func removingByRoleTakesOnlyThoseAndTellsTheRest() {
        var tracker = Tracker()
        _ = tracker.add(Self.participant("ada", "Ada", role: .edit), on: 1)
        _ = tracker.add(Self.participant("bob", "Bob", role: .view), on: 2)
        _ = tracker.flush()
        let (removed, effect) = tracker.remove(where: { $0.role == .view })
        #expect(removed.keys.sorted() == [2])
        #expect(effect == .scheduleFlush)
        #expect(tracker.participants.keys.sorted() == [1])
        #expect(tracker.flush()?.left == [Self.userID("bob")])
    }

    /// Random joins, leaves, editing changes and flushes over a few users with several
    /// connections each. Observers that join at random moments apply the joiner list and every
    /// later flush; after a final flush each sees exactly who is on the board and, for users
    /// on one connection, what they edit. And a flush is asked for exactly once per batch of
    /// changes: at the first change after a flush, never again before the next. With a list
    /// shorter than the users on the board, each observer sees the list a joiner gets then,
    /// and its count of the others, once the flushes that held a count back have run.
    @Test func observersConvergeAndEveryBatchOfChangesAsksForOneFlush() async {
        await propertyCheck(count: 300, input: Gen.int(in: 0...Int.max)) { seed in
            var rng = SeededGenerator(seed: seed)
            let listLimit = [1, 2, 3, 100].randomElement(using: &rng)!
            let countFlushes = [1, 2, 5].randomElement(using: &rng)!
            var tracker = Tracker(listLimit: listLimit, countFlushes: countFlushes)
            let clients = ["ada", "bob", "cy", "dee"]
            var observers: [[String: ServerMessage.PresenceUser]] = []
            var observersMore: [Int] = []
            var changedSinceFlush = false
            var scheduledSinceFlush = 0
            var problems: [String] = []

            func note(_ effect: Tracker.Effect, changed: Bool) {
                if effect == .scheduleFlush {
                    scheduledSinceFlush += 1
                    if changedSinceFlush { problems.append("a flush was asked for twice in one batch") }
                }
                if changed && !changedSinceFlush && effect != .scheduleFlush { problems.append("the first change asked for no flush") }
                changedSinceFlush = changedSinceFlush || changed
            }

            func flush() {
                if changedSinceFlush && scheduledSinceFlush != 1 { problems.append("a batch asked for \(scheduledSinceFlush) flushes") }
                changedSinceFlush = false
                scheduledSinceFlush = 0
                let told = tracker.flush()
                if tracker.isFlushScheduled {
                    // It held a count back: the flush it wants is the next batch's one.
                    if told != nil { problems.append("a flush that told something wants another") }
                    changedSinceFlush = true
                    scheduledSinceFlush = 1
                }
                guard let flush = told else { return }
                for index in observers.indices {
                    for userID in flush.left { observers[index][userID] = nil }
                    for user in flush.users { observers[index][user.userID] = user }
                    if let more = flush.more { observersMore[index] = more }
                }
            }

            for _ in 0..<150 {
                let connection = Int.random(in: 0..<8, using: &rng)
                switch Int.random(in: 0..<10, using: &rng) {
                case 0...2:
                    guard tracker.participant(on: connection) == nil else { continue }
                    let client = clients.randomElement(using: &rng)!
                    note(tracker.add(Self.participant(client, "Name of \(client)"), on: connection), changed: true)
                case 3...4:
                    let (removed, effect) = tracker.remove(connection)
                    note(effect, changed: removed != nil)
                case 5...6:
                    let editing: EntityID? = [nil, "s1", "s2"].randomElement(using: &rng)!
                    let before = tracker.participant(on: connection)?.editing
                    switch tracker.setPresence(editing: editing, clockError: nil, on: connection) {
                    case .changed(let effect): note(effect, changed: true)
                    case .unchanged: if before != editing { problems.append("an editing change was taken as none") }
                    case .notOnBoard, .forbidden: break
                    }
                case 7:
                    let list = tracker.joinerList { List(users: $0, more: $1, encoding: 0) }
                    observers.append(Dictionary(list.users.map { ($0.userID, $0) }, uniquingKeysWith: { $1 }))
                    observersMore.append(list.more)
                default:
                    flush()
                }
            }
            flush()
            for _ in 0..<countFlushes where tracker.isFlushScheduled { flush() }
            if tracker.isFlushScheduled { problems.append("a count was held back for more than \(countFlushes) flushes") }

            let connectionsByUser = Dictionary(grouping: tracker.participants.values, by: \.userID)
            // What a joiner gets now: the list every observer must have come to.
            let now = tracker.joinerList { List(users: $0, more: $1, encoding: 0) }
            let listed = Set(now.users.map(\.userID))
            if listed.count != min(listLimit, connectionsByUser.count) || now.more != connectionsByUser.count - listed.count {
                problems.append("the list names \(listed.count) and counts \(now.more) of \(connectionsByUser.count) users, at most \(listLimit) named")
            }
            if !listed.isSubset(of: connectionsByUser.keys) { problems.append("the list names users not on the board") }
            for (observer, more) in zip(observers, observersMore) {
                if Set(observer.keys) != listed || more != now.more {
                    problems.append("an observer sees \(observer.keys.sorted()) and \(more) more, a joiner \(listed.sorted()) and \(now.more) more")
                }
                for (userID, connections) in connectionsByUser where connections.count == 1 && listed.contains(userID) {
                    if observer[userID]?.editing != connections[0].editing { problems.append("an observer has a stale editing for \(userID)") }
                }
            }
            #expect(problems.isEmpty, "seed \(seed): \(problems.prefix(3))")
        }
    }
}
