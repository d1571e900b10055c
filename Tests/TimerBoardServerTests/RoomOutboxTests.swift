import TestSupport
import Testing

@testable import TimerBoardServer

/// The room's delivery rules, on the outbox alone: no socket, no room, no store.
@Suite struct RoomOutboxTests {
    struct Connection: Identifiable, Hashable {
        let id: Int
    }

    struct Frame: Hashable, CustomStringConvertible {
        enum Kind: String { case snapshot, changes, ack }
        let kind: Kind
        let revision: Int64
        var description: String { "\(kind.rawValue)@\(revision)" }
    }

    typealias Outbox = RoomOutbox<Connection, Frame>

    /// The sends played as the room's event loops play them (`LoopSubscribers`): a broadcast
    /// reaches whoever the sends before it subscribed.
    struct Loops {
        var subscribers: [Int: Connection] = [:]

        mutating func deliver(_ sends: [Outbox.Send]) -> [(connection: Connection, frame: Frame)] {
            var delivered: [(connection: Connection, frame: Frame)] = []
            for send in sends {
                switch send {
                case .broadcast(let frame):
                    delivered += subscribers.values.sorted { $0.id < $1.id }.map { ($0, frame) }
                case .frame(let frame, let connection, _): delivered.append((connection, frame))
                case .subscribe(let connection): subscribers[connection.id] = connection
                case .unsubscribe(let connection): subscribers[connection.id] = nil
                }
            }
            return delivered
        }
    }

    @Test func nothingLeavesBeforeItsRevisionIsDurable() {
        var outbox = Outbox()
        var loops = Loops()
        let alice = Connection(id: 1)
        outbox.add(.subscribe(alice), at: 0)
        outbox.add(.broadcast(Frame(kind: .changes, revision: 1)), at: 1)
        outbox.add(.direct(alice, Frame(kind: .ack, revision: 1)), at: 1)
        outbox.add(.broadcast(Frame(kind: .changes, revision: 2)), at: 2)
        #expect(loops.deliver(outbox.release(durable: 0)).isEmpty)
        #expect(outbox.subscribers.keys.sorted() == [1] && loops.subscribers.keys.sorted() == [1])
        #expect(loops.deliver(outbox.release(durable: 1)).map(\.frame.description) == ["changes@1", "ack@1"])
        #expect(outbox.release(durable: 1).isEmpty)
        #expect(loops.deliver(outbox.release(durable: 5)).map(\.frame.description) == ["changes@2"])
        #expect(outbox.isEmpty)
    }

    /// The store failed (or another node won a revision) while a join waited for durability:
    /// the joiner must be disconnected with the subscribers, or it waits forever.
    @Test func removingEverythingNamesJoinersStillWaitingForTheirAnswer() {
        var outbox = Outbox()
        let subscribed = Connection(id: 1)
        let joiner = Connection(id: 2)
        outbox.add(.subscribe(subscribed), at: 0)
        _ = outbox.release(durable: 0)
        outbox.add(.broadcast(Frame(kind: .changes, revision: 1)), at: 1)
        outbox.add(.direct(joiner, Frame(kind: .snapshot, revision: 1)), at: 1)
        outbox.add(.subscribe(joiner), at: 1)
        #expect(outbox.removeAll().map(\.id).sorted() == [1, 2])
        #expect(outbox.isEmpty && outbox.subscribers.isEmpty)
    }

    @Test func aJoinerGetsItsSnapshotThenEveryLaterChangesetAndNothingEarlier() {
        var outbox = Outbox()
        let early = Connection(id: 1)
        let joiner = Connection(id: 2)
        outbox.add(.subscribe(early), at: 0)
        outbox.add(.broadcast(Frame(kind: .changes, revision: 1)), at: 1)
        // The joiner arrives while revision 1 is not durable yet: its snapshot shows revision 1.
        outbox.add(.direct(joiner, Frame(kind: .snapshot, revision: 1)), at: 1)
        outbox.add(.subscribe(joiner), at: 1)
        outbox.add(.broadcast(Frame(kind: .changes, revision: 2)), at: 2)
        var loops = Loops()
        let sends = loops.deliver(outbox.release(durable: 2))
        #expect(sends.filter { $0.connection == joiner }.map(\.frame.description) == ["snapshot@1", "changes@2"])
        #expect(sends.filter { $0.connection == early }.map(\.frame.description) == ["changes@1", "changes@2"])
    }

    @Test func aConnectionThatLeavesIsNeitherSentToNorSubscribedLater() {
        var outbox = Outbox()
        let leaver = Connection(id: 7)
        outbox.add(.direct(leaver, Frame(kind: .snapshot, revision: 3)), at: 3)
        outbox.add(.subscribe(leaver), at: 3)
        #expect(outbox.remove(7)?.wasSubscribed == false)
        outbox.add(.broadcast(Frame(kind: .changes, revision: 4)), at: 4)
        #expect(outbox.release(durable: 4).isEmpty)
        #expect(outbox.subscribers.isEmpty)
    }

    /// A subscriber that leaves must be unsubscribed where the broadcasts are written: `remove`
    /// says it was one, and no broadcast is released when nobody subscribes.
    @Test func removingASubscriberSaysItWasOne() {
        var outbox = Outbox()
        let leaver = Connection(id: 7)
        outbox.add(.subscribe(leaver), at: 0)
        #expect(outbox.release(durable: 0).count == 1)
        #expect(outbox.remove(7)?.wasSubscribed == true)
        #expect(outbox.remove(7) == nil)
        outbox.add(.broadcast(Frame(kind: .changes, revision: 1)), at: 1)
        #expect(outbox.release(durable: 1).isEmpty)
    }

    /// Random joins, leaves, edits and durability steps; every connection must see exactly its
    /// snapshot's revision followed by every later changeset once, in order, each ack after its
    /// changeset, and never a frame whose revision is not durable yet.
    @Test func randomScriptsKeepEveryPromise() {
        for seed in 0..<300 {
            var rng = SeededGenerator(seed: UInt64(seed))
            var outbox = Outbox()
            var loops = Loops()
            var revision: Int64 = 0
            var durable: Int64 = 0
            var received: [Int: [Frame]] = [:]
            var joined: Set<Int> = []
            var left: Set<Int> = []
            var receivedWhenLeaving: [Int: Int] = [:]
            var problems: [String] = []

            func release(to newDurable: Int64) {
                durable = newDurable
                for send in loops.deliver(outbox.release(durable: durable)) {
                    if send.frame.revision > durable { problems.append("\(send.frame) sent at durable \(durable)") }
                    received[send.connection.id, default: []].append(send.frame)
                }
            }

            for _ in 0..<200 {
                switch Int.random(in: 0..<10, using: &rng) {
                case 0...1:
                    let id = Int.random(in: 0..<8, using: &rng)
                    guard !joined.contains(id), !left.contains(id) else { continue }
                    joined.insert(id)
                    outbox.add(.direct(Connection(id: id), Frame(kind: .snapshot, revision: revision)), at: revision)
                    outbox.add(.subscribe(Connection(id: id)), at: revision)
                case 2:
                    guard let id = joined.subtracting(left).randomElement(using: &rng), Bool.random(using: &rng) else { continue }
                    left.insert(id)
                    receivedWhenLeaving[id] = received[id]?.count ?? 0
                    if let (connection, wasSubscribed) = outbox.remove(id), wasSubscribed {
                        _ = loops.deliver([.unsubscribe(connection)])
                    }
                case 3...6:
                    revision += 1
                    outbox.add(.broadcast(Frame(kind: .changes, revision: revision)), at: revision)
                    if let editor = joined.subtracting(left).randomElement(using: &rng) {
                        outbox.add(.direct(Connection(id: editor), Frame(kind: .ack, revision: revision)), at: revision)
                    }
                default:
                    release(to: Int64.random(in: durable...revision, using: &rng))
                }
            }
            release(to: revision)

            for id in left where (received[id]?.count ?? 0) != receivedWhenLeaving[id] {
                problems.append("seed \(seed): connection \(id) got frames after it left")
            }

            for id in joined.subtracting(left) {
                let frames = received[id] ?? []
                guard let snapshot = frames.first, snapshot.kind == .snapshot else {
                    problems.append("seed \(seed): connection \(id) got \(frames) first")
                    continue
                }
                let changes = frames.filter { $0.kind == .changes }.map(\.revision)
                if changes != Array(stride(from: snapshot.revision + 1, through: revision, by: 1)) {
                    problems.append("seed \(seed): connection \(id) from \(snapshot) got changesets \(changes) up to \(revision)")
                }
                for (index, frame) in frames.enumerated() where frame.kind == .ack {
                    if !frames[..<index].contains(Frame(kind: .changes, revision: frame.revision)) {
                        problems.append("seed \(seed): \(frame) before its changeset")
                    }
                }
                let acks = frames.filter { $0.kind == .ack }.map(\.revision)
                if acks != acks.sorted() { problems.append("seed \(seed): acks out of order \(acks)") }
            }
            #expect(problems.isEmpty, "\(problems.prefix(5))")
            #expect(outbox.isEmpty)
        }
    }
}
