import BoardCore
import BoardProtocol
import BoardStore
import NIOWebSocket
import TestSupport
import Testing

@testable import TimerBoardServer

/// The room's decisions, on its state alone: no socket, no store, no task (`RoomHarness` plays
/// the world). The live tests keep what needs a socket.
@Suite struct RoomStateTests {
    static let ada = TestMember(id: 1)
    static let bob = TestMember(id: 2)
    static let viewer = TestMember(id: 3)

    static func addSection(_ id: String, _ title: String = "Prep") -> BoardOperation {
        .addSection(id: EntityID(id)!, title: title, isExpanded: true, position: .last)
    }

    static func rename(_ id: String, _ title: String) -> BoardOperation {
        .updateSection(id: EntityID(id)!, title: title, isExpanded: nil)
    }

    // MARK: What an edit answers

    @Test func nothingLeavesBeforeItIsDurableAndTheEditorGetsChangesThenAck() throws {
        var room = RoomHarness()
        room.join(Self.ada)
        room.join(Self.bob)
        room.edit(Self.ada, "op-1", [Self.addSection("s1")])
        #expect(room.messages(to: Self.ada).filter(\.isChangesOrAck).isEmpty, "sent before it was stored")
        #expect(room.messages(to: Self.bob).filter(\.isChangesOrAck).isEmpty)
        room.store()
        #expect(room.messages(to: Self.ada).filter(\.isChangesOrAck).map(\.kind) == ["changes 1", "ack op-1 1"])
        #expect(room.messages(to: Self.bob).filter(\.isChangesOrAck).map(\.kind) == ["changes 1"])
        #expect(room.sentTooEarly.isEmpty)
        #expect(room.subscriptionMistakes.isEmpty)
    }

    @Test func aViewLinkIsRefusedForbiddenAndChangesNothing() {
        var room = RoomHarness()
        room.join(Self.viewer, role: .view)
        room.edit(Self.viewer, "op-1", [Self.addSection("s1")])
        #expect(room.state.revision == 0)
        #expect(room.messages(to: Self.viewer).last?.rejectCode == .forbidden)
    }

    @Test func aResendGetsItsFirstOutcomeAndNoSecondChangeset() {
        var room = RoomHarness()
        room.join(Self.ada)
        room.edit(Self.ada, "op-1", [Self.addSection("s1")])
        room.edit(Self.ada, "op-2", [Self.addSection("s1")])  // a duplicate id: rejected
        room.store()
        room.edit(Self.ada, "op-1", [Self.addSection("s1")])
        room.edit(Self.ada, "op-2", [Self.addSection("s1")])
        #expect(room.state.revision == 1)
        let answers = room.messages(to: Self.ada).filter(\.isAnswer).map(\.kind)
        #expect(answers == ["ack op-1 1", "reject op-2 duplicate_id", "ack op-1 1 again", "reject op-2 duplicate_id"])
    }

    @Test func aRejectNamesTheCurrentValueOfWhatItAimedAt() {
        var room = RoomHarness()
        room.join(Self.ada)
        room.edit(Self.ada, "op-1", [Self.addSection("s1", "Prep")])
        room.store()
        room.edit(Self.ada, "op-2", [Self.rename("s1", String(repeating: "x", count: 500))])
        guard case .reject(let reject)? = room.messages(to: Self.ada).last, case .section(let section)? = reject.current else {
            Issue.record("no reject with the section's current value")
            return
        }
        #expect(reject.code == .invalidField && section.title == "Prep")
    }

    @Test func anEditThatChangesNothingIsAckedAtTheCurrentRevisionWithoutAChangeset() {
        var room = RoomHarness()
        room.join(Self.ada)
        room.edit(Self.ada, "op-1", [Self.addSection("s1", "Prep")])
        room.store()
        room.edit(Self.ada, "op-2", [Self.rename("s1", "Prep")])
        #expect(room.state.revision == 1 && room.unsaved.isEmpty)
        #expect(room.messages(to: Self.ada).last?.kind == "ack op-2 1")
    }

    @Test func aClosedRoomAnswersAnEditAtOnceWithInternal() {
        var room = RoomHarness()
        room.join(Self.ada)
        room.close(.lostClaim("test"))
        room.edit(Self.ada, "op-1", [Self.addSection("s1")])
        #expect(room.messages(to: Self.ada).last?.rejectCode == .internal)
        #expect(room.state.revision == 0)
    }

    // MARK: Joining

    /// A joiner at r gets r+1, r+2... with no gap when r is in the log and the catch-up fits half
    /// its queue; a snapshot otherwise.
    @Test(arguments: [
        (since: 5 as Int64?, capacity: 1_024, answer: "resume 5..8"),
        (since: 8, capacity: 1_024, answer: "resume 8..8"),
        (since: nil, capacity: 1_024, answer: "snapshot 8"),
        (since: 9, capacity: 1_024, answer: "snapshot 8"),  // from the future: a snapshot
        (since: 1, capacity: 1_024, answer: "snapshot 8"),  // older than the 4 the log keeps
        (since: 5, capacity: 4, answer: "snapshot 8"),  // 3 changesets do not fit half of 4
        (since: 6, capacity: 4, answer: "resume 6..8"),
    ])
    func aJoinResumesFromTheLogOrGetsASnapshot(since: Int64?, capacity: Int, answer: String) {
        var room = RoomHarness(settings: RoomSettings(retainedChangesets: 4))
        room.join(Self.ada)
        for index in 1...8 { room.edit(Self.ada, "op-\(index)", [Self.addSection("s\(index)")]) }
        room.store()
        let joiner = TestMember(id: 9, capacity: capacity)
        room.join(joiner, since: since)
        let messages = room.messages(to: joiner)
        #expect(messages.first?.kind == "access edit")
        let body = messages.dropFirst().prefix { $0.kind.hasPrefix("changes") || $0.kind.hasPrefix("resume") || $0.kind.hasPrefix("snapshot") }
        switch body.first {
        case .resume(_, _, let from, let revision)?:
            #expect("resume \(from)..\(revision)" == answer)
            #expect(body.dropFirst().map(\.kind) == (from..<revision).map { "changes \($0 + 1)" })
        case .snapshot(let snapshot)?:
            #expect("snapshot \(snapshot.revision)" == answer)
        default:
            Issue.record("no resume or snapshot: \(messages.map(\.kind))")
        }
    }

    /// Random scripts of joins (fresh and resuming), leaves, edits from three members, resends
    /// and partial durability: every member's stream is gapless, in order, with no duplicate
    /// after each snapshot or resume; every snapshot is the durable board; every acked edit is
    /// in exactly one changeset, the one its ack names; nothing leaves before it is durable.
    @Test(arguments: 0..<40)
    func randomScriptsKeepEveryDeliveryPromise(seed: UInt64) throws {
        var rng = SeededGenerator(seed: seed)
        var room = RoomHarness(settings: RoomSettings(retainedChangesets: 6))
        let members = [TestMember(id: 1, capacity: 8), TestMember(id: 2), TestMember(id: 3, capacity: 4)]
        var editors = members.map { RandomEditor(prefix: "m\($0.id)", seed: seed &* 31 &+ UInt64($0.id)) }
        var joined: Set<Int> = []
        var sentOpIDs: [Int: [String]] = [:]
        for step in 0..<150 {
            let index = Int.random(in: 0..<members.count, using: &rng)
            let member = members[index]
            switch Int.random(in: 0..<10, using: &rng) {
            case 0:
                let lastSeen = room.messages(to: member).compactMap(\.revisionSeen).last
                let since = [nil, lastSeen, lastSeen.map { $0 - 3 }].randomElement(using: &rng)!
                if joined.contains(member.id) { room.leave(member) }
                room.join(member, since: since)
                joined.insert(member.id)
            case 1:
                room.leave(member)
                joined.remove(member.id)
            case 2:
                room.store(Int.random(in: 0...3, using: &rng))
            case 3 where !(sentOpIDs[member.id] ?? []).isEmpty:
                let opID = sentOpIDs[member.id]!.randomElement(using: &rng)!
                room.edit(member, opID, editors[index].nextEdit(for: room.state.board))
            default:
                guard joined.contains(member.id) else { continue }
                let opID = "m\(member.id)-\(step)"
                sentOpIDs[member.id, default: []].append(opID)
                room.edit(member, opID, editors[index].nextEdit(for: room.state.board))
            }
        }
        room.store()
        #expect(room.sentTooEarly.isEmpty)
        #expect(room.subscriptionMistakes.isEmpty)
        for member in members {
            try Self.expectGaplessStreams(room.messages(to: member), room: room)
        }
        // Every acked edit is in exactly one changeset, the one its ack names.
        for member in members {
            for case .ack(let opID, let revision, _, _, _) in room.messages(to: member) {
                let carrying = room.log.filter { $0.opID == opID && $0.clientID == RoomHarness.clientID(member) }
                #expect(carrying.count <= 1)
                if let changeset = carrying.first { #expect(changeset.revision == revision) }
            }
        }
        #expect(room.log.map(\.revision) == (0..<room.log.count).map { Int64($0) + 1 })
    }

    /// Within each subscription (from `access` to the next one), the changesets follow the
    /// snapshot or resume with no gap or duplicate, and a snapshot is the durable board.
    static func expectGaplessStreams(_ messages: [ServerMessage], room: RoomHarness) throws {
        var next: Int64?
        for message in messages {
            switch message {
            case .access: next = nil
            case .snapshot(let snapshot):
                #expect(try snapshot.content == room.durableBoard(upTo: snapshot.revision))
                next = snapshot.revision + 1
            case .resume(_, _, let since, _): next = since + 1
            case .changes(let changeset):
                #expect(changeset.revision == next, "a gap or a duplicate")
                next = changeset.revision + 1
            default: break
            }
        }
    }

    // MARK: Other nodes

    @Test func aNodeCatchingUpAppliesEachChangesetOnceInOrder() throws {
        var room = RoomHarness()
        room.join(Self.ada)
        room.perform(room.state.otherNodeAppended(upTo: 3))
        #expect(room.catchUpsAfter == [0])
        var other = Board()
        let changesets = try (1...3).map { revision -> StoredChangeset in
            let changes = try other.apply([Self.addSection("o\(revision)")], now: 0)
            return StoredChangeset(boardID: RoomHarness.boardID, revision: Int64(revision), changes: changes, clientID: "other", opID: "o-\(revision)", time: 0)
        }
        // Read twice over and out of order: each applies once, in order.
        room.perform(room.state.caughtUp(.changesets(changesets + [changesets[1], changesets[0]]), after: 0))
        #expect(room.state.revision == 3 && room.state.board == other)
        #expect(room.messages(to: Self.ada).compactMap(\.changesRevision) == [1, 2, 3])
        // A doorbell for what was read already reads nothing.
        room.perform(room.state.otherNodeAppended(upTo: 2))
        #expect(room.catchUpsAfter == [0])
    }

    @Test func aCatchUpWaitsForThisNodesOwnAppendsAndReadsAgainAfterALocalEdit() {
        var room = RoomHarness()
        room.join(Self.ada)
        room.edit(Self.ada, "op-1", [Self.addSection("s1")])
        room.perform(room.state.otherNodeAppended(upTo: nil))
        #expect(room.catchUpsAfter.isEmpty, "read while an append of ours was in flight")
        room.store()
        #expect(room.catchUpsAfter == [1])
        room.edit(Self.ada, "op-2", [Self.addSection("s2")])
        room.perform(room.state.caughtUp(.changesets([]), after: 1))
        #expect(room.catchUpsAfter == [1], "read again before our own edit was stored")
        room.store()
        #expect(room.catchUpsAfter == [1, 2])
    }

    @Test func aLogThatNoLongerHoldsWhatFollowedClosesTheRoomToReload() {
        var room = RoomHarness()
        room.join(Self.ada)
        room.perform(room.state.otherNodeAppended(upTo: 9))
        room.perform(room.state.caughtUp(.gone, after: 0))
        #expect(room.state.isClosed && room.disconnected[Self.ada.id]?.code == WebSocketErrorCode(codeNumber: 1012))
    }

    // MARK: Links

    @Test(arguments: [
        (change: "owner", ended: "edit owner view"),
        (change: "edit", ended: "edit"),
        (change: "view", ended: "view"),
        (change: "none", ended: ""),
    ])
    func aChangeOfLinksEndsTheRolesItReplaced(change: String, ended: String) {
        let secrets = BoardSecrets.mint()
        let new: BoardSecrets =
            switch change {
            case "owner": BoardSecrets.mint()
            case "edit": secrets.replacing(.edit)
            case "view": secrets.replacing(.view)
            default: secrets
            }
        let roles = RoomState<TestMember>.rolesEnded(from: secrets.access, to: new.access)
        #expect(roles.map(\.rawValue).sorted().joined(separator: " ") == ended)
    }

    @Test func aReplacedLinksConnectionsAreClosedWith4403AndTheOthersStay() {
        var room = RoomHarness()
        room.join(Self.ada)
        room.join(Self.viewer, role: .view)
        room.store()
        room.perform(room.state.endRoles([.view]))
        #expect(room.disconnected.keys.sorted() == [Self.viewer.id])
        #expect(room.disconnected[Self.viewer.id]?.code == WebSocketErrorCode(codeNumber: 4403))
        room.edit(Self.ada, "op-1", [Self.addSection("s1")])
        room.store()
        #expect(room.messages(to: Self.ada).last?.kind == "ack op-1 1")
        #expect(room.subscribed.keys.sorted() == [Self.ada.id], "the closed viewer is still sent broadcasts")
        #expect(room.messages(to: Self.viewer).filter(\.isChangesOrAck).isEmpty)
        #expect(room.subscriptionMistakes.isEmpty)
    }

    /// A second join of a connection already on the board (its session joins again without a
    /// leave) subscribes it once: it gets each changeset once, not once per join.
    @Test func joiningTwiceSubscribesOnce() {
        var room = RoomHarness()
        room.join(Self.ada)
        room.store()
        room.join(Self.ada)
        room.join(Self.bob)
        room.store()
        room.edit(Self.bob, "op-1", [Self.addSection("s1")])
        room.store()
        #expect(room.messages(to: Self.ada).filter(\.isChangesOrAck).map(\.kind) == ["changes 1"])
        #expect(room.subscriptionMistakes.isEmpty)
    }

    /// Broadcasts go to whoever the sends subscribed (the event loops keep that list): a member
    /// who leaves is unsubscribed once, and one who leaves while its join waits for durability
    /// is never subscribed.
    @Test func theSubscribersABroadcastReachesFollowJoinsAndLeaves() {
        var room = RoomHarness()
        room.join(Self.ada)
        room.join(Self.bob)
        room.store()
        #expect(room.subscribed.keys.sorted() == [Self.ada.id, Self.bob.id])
        room.leave(Self.bob)
        #expect(room.subscribed.keys.sorted() == [Self.ada.id])
        room.edit(Self.ada, "op-1", [Self.addSection("s1")])
        room.join(Self.viewer, role: .view)  // its snapshot shows revision 1, not durable yet
        room.leave(Self.viewer)
        room.store()
        #expect(room.subscribed.keys.sorted() == [Self.ada.id])
        #expect(room.messages(to: Self.bob).filter(\.isChangesOrAck).isEmpty)
        #expect(room.messages(to: Self.viewer).isEmpty)
        #expect(room.messages(to: Self.ada).filter(\.isChangesOrAck).map(\.kind) == ["changes 1", "ack op-1 1"])
        #expect(room.subscriptionMistakes.isEmpty)
    }

    // MARK: Closing

    static let reasons: [RoomCloseReason] = [.idle, .deleted, .storeFailed("disk"), .lostClaim("node 2"), .shutdown]

    @Test(arguments: reasons)
    func closingForAnyReasonStopsEverythingAndDisconnectsEveryoneWithTheTablesCode(reason: RoomCloseReason) {
        var room = RoomHarness(settings: RoomSettings(sharedWithOtherNodes: true))
        room.join(Self.ada)
        room.store()
        room.edit(Self.ada, "op-1", [Self.addSection("s1")])
        room.join(Self.bob)  // still waiting for its snapshot: it must not wait forever
        let toldBefore = room.told.count
        room.close(reason)
        let closing = RoomClosing.table(reason)
        #expect(room.closes == [reason])
        #expect(room.disconnected.keys.sorted() == [Self.ada.id, Self.bob.id])
        #expect(room.disconnected.values.allSatisfy { $0.code == closing.code && $0.reason == closing.message })
        #expect(Array(room.told.dropFirst(toldBefore)) == (closing.tellsOtherNodes ? [PresenceNews(scope: .full, users: [], left: [])] : []))
        #expect(room.waiterReleases > 0)
        #expect((room.state.access == nil) == closing.forgetsAccess)
        // A closed room takes no more work.
        #expect(room.join(TestMember(id: 7)) == .closed)
        let flush = room.state.flushPresence()
        let announcement = room.state.announcePresence(now: 0, silenceLimit: 1)
        let secondClose = room.state.close(.shutdown)
        let finishes = room.state.finishExpiredTimers(now: 0)
        #expect(flush.isEmpty && announcement.isEmpty && finishes.isEmpty)
        #expect(secondClose.isEmpty, "a room closes once")
    }

    @Test func theCloseTableGivesEachReasonItsCode() {
        let codes = Self.reasons.map { RoomClosing.table($0).code }
        #expect(codes == [.goingAway, WebSocketErrorCode(codeNumber: 4410), .unexpectedServerError, WebSocketErrorCode(codeNumber: 1012), .goingAway])
        #expect(RoomClosing.table(.lostClaim("x")).count == .revisionClaimLost)
    }

    @Test func aRoomIsIdleOnlyWithNobodyOnItNothingUnsavedAndNoRequestInProgress() {
        var room = RoomHarness()
        room.join(Self.ada)
        var closed = room.state.closeIfIdle()
        #expect(closed == nil)
        room.edit(Self.ada, "op-1", [Self.addSection("s1")])
        room.leave(Self.ada)
        closed = room.state.closeIfIdle()
        #expect(closed == nil, "closed with an edit not yet stored")
        room.store()
        let began = room.state.beginRequest()
        closed = room.state.closeIfIdle()
        #expect(began && closed == nil, "closed under a request")
        room.state.endRequest()
        closed = room.state.closeIfIdle()
        #expect(closed != nil)
        let beganAfterClose = room.state.beginRequest()
        #expect(!beganAfterClose, "a closed room must send the request back to the registry")
    }
}

extension ServerMessage {
    /// A short name for comparing streams in tests.
    var kind: String {
        switch self {
        case .access(_, let role, _): "access \(role.rawValue)"
        case .snapshot(let snapshot): "snapshot \(snapshot.revision)"
        case .resume(_, _, let since, let revision): "resume \(since)..\(revision)"
        case .changes(let changeset): "changes \(changeset.revision)"
        case .ack(let opID, let revision, let duplicate, _, _): "ack \(opID) \(revision)\(duplicate ? " again" : "")"
        case .reject(let reject): "reject \(reject.opID) \(reject.code.rawValue)"
        default: "other"
        }
    }

    var isChangesOrAck: Bool { kind.hasPrefix("changes") || kind.hasPrefix("ack") }
    var isAnswer: Bool { kind.hasPrefix("ack") || kind.hasPrefix("reject") }

    var rejectCode: ErrorCode? {
        if case .reject(let reject) = self { reject.code } else { nil }
    }

    var changesRevision: Int64? {
        if case .changes(let changeset) = self { changeset.revision } else { nil }
    }

    /// The revision a client knows after this message.
    var revisionSeen: Int64? {
        switch self {
        case .snapshot(let snapshot): snapshot.revision
        case .resume(_, _, _, let revision): revision
        case .changes(let changeset): changeset.revision
        default: nil
        }
    }
}
