import BoardCore
import BoardProtocol
import BoardStore
import Foundation
import NIOWebSocket
import TimerBoardTransport

@testable import TimerBoardServer

/// A connection as the room's state sees it, with no socket behind it.
struct TestMember: RoomMember, Hashable {
    let id: Int
    var capacity = 1_024
    var acceptsDeflate = false
    // What the room holds for a socket matters to its session only (OutboundHeldAnswersTests).
    func holdAnswer() {}
    func releaseHeldAnswers(_ count: Int) {}
}

/// A room's state with the world around it played in memory: sends land in each member's list
/// of messages (decoded), saves wait until the test makes them durable, and everything else the
/// state asks for is recorded. It performs actions as `BoardRoom` does, in order, and checks
/// on every send that nothing leaves before what it shows is durable.
struct RoomHarness {
    static let boardID = "board0001"

    var state: RoomState<TestMember>
    let secrets: BoardSecrets
    /// Messages each member received, in order.
    private(set) var received: [Int: [ServerMessage]] = [:]
    /// Who a broadcast reaches, as the sends' `.subscribe` and `.unsubscribe` say (the room's
    /// event loops keep the same list, `RoomFanout`).
    private(set) var subscribed: [Int: TestMember] = [:]
    /// Saves the state asked for and the "store" has not made durable yet.
    private(set) var unsaved: [StoredChangeset] = []
    /// The durable log.
    private(set) var log: [StoredChangeset] = []
    private(set) var disconnected: [Int: (code: WebSocketErrorCode, reason: String)] = [:]
    private(set) var closes: [RoomCloseReason] = []
    private(set) var counts: [RoomCount] = []
    private(set) var wakeAt: Int64??
    private(set) var warningWakeAt: Int64??
    /// Webhook deliveries the state handed over: with a changeset (`saved`), or alone (warnings).
    private(set) var savedDeliveries: [(revision: Int64, delivery: WebhookDelivery)] = []
    /// The revisions whose save carried a snapshot of the board.
    private(set) var snapshotRevisions: [Int64] = []
    private(set) var enqueuedDeliveries: [WebhookDelivery] = []
    private(set) var catchUpsAfter: [Int64] = []
    private(set) var told: [PresenceNews] = []
    private(set) var waiterReleases = 0
    /// Times the state asked to be dropped because it became idle by itself.
    private(set) var releasesAsked = 0
    private(set) var presenceFlushes = 0
    /// A send that showed something not durable yet, if any did.
    private(set) var sentTooEarly: [String] = []
    /// An `.unsubscribe` of a member not subscribed, or a second `.subscribe`.
    private(set) var subscriptionMistakes: [String] = []
    var now: Int64 = 1_000_000

    init(
        settings: RoomSettings = RoomSettings(),
        content: Board = Board(),
        revision: Int64 = 0,
        recent: [StoredChangeset] = [],
        older: [StoredEditID] = [],
        webhooks: [WebhookEndpoint] = []
    ) {
        secrets = BoardSecrets.mint()
        let stored = StoredBoard(
            info: BoardInfo(id: Self.boardID, title: "Kitchen", createdDate: 0),
            access: secrets.access,
            content: content,
            revision: revision,
            recentChangesets: recent,
            olderEdits: older,
            webhooks: webhooks
        )
        state = RoomState(stored: stored, settings: settings)
        log = recent
    }

    // MARK: Events

    @discardableResult
    mutating func join(_ member: TestMember, role: BoardRole = .edit, since: Int64? = nil) -> RoomState<TestMember>.JoinResult {
        let (result, actions) = state.join(
            member,
            since: since,
            secretHash: BoardSecrets.hash(secrets.secret(for: role)),
            clientID: Self.clientID(member),
            name: "Member \(member.id)"
        )
        perform(actions)
        return result
    }

    mutating func leave(_ member: TestMember) {
        perform(state.leave(member.id))
    }

    @discardableResult
    mutating func edit(_ member: TestMember, _ opID: String, _ ops: [BoardOperation]) -> Int {
        let (changes, actions) = state.edit(ClientMessage.Edit(opID: opID, ops: ops), from: member, now: now)
        perform(actions)
        return changes
    }

    /// The store makes the oldest `count` unsaved changesets durable (all of them by default).
    mutating func store(_ count: Int = .max) {
        let taken = unsaved.prefix(count)
        guard let last = taken.last else { return }
        log += taken
        unsaved.removeFirst(taken.count)
        perform(state.stored(upTo: last.revision))
    }

    mutating func close(_ reason: RoomCloseReason) {
        perform(state.close(reason))
    }

    // MARK: What happened

    func messages(to member: TestMember) -> [ServerMessage] {
        received[member.id] ?? []
    }

    /// The board as the durable log makes it, from an empty board.
    func durableBoard(upTo revision: Int64) throws -> Board {
        var board = Board()
        for changeset in log where changeset.revision <= revision {
            board = try apply(changeset.changes, to: board)
        }
        return board
    }

    static func clientID(_ member: TestMember) -> String { "client-\(member.id)" }

    // MARK: Performing, as BoardRoom does

    mutating func perform(_ actions: [RoomAction<TestMember>]) {
        for action in actions {
            switch action {
            case .send(let sends):
                for send in sends {
                    switch send {
                    case .broadcast(let frame):
                        for member in subscribed.values { deliver(frame, to: member) }
                    case .frame(let frame, let member, _): deliver(frame, to: member)
                    case .subscribe(let member):
                        if subscribed.updateValue(member, forKey: member.id) != nil { subscriptionMistakes.append("\(member.id) subscribed twice") }
                    case .unsubscribe(let member):
                        if subscribed.removeValue(forKey: member.id) == nil { subscriptionMistakes.append("\(member.id) unsubscribed, not subscribed") }
                    }
                }
            case .disconnect(let member, let code, let reason):
                disconnected[member.id] = (code, reason)
            case .save(let changeset, let snapshot, let deliveries):
                unsaved.append(changeset)
                if snapshot != nil { snapshotRevisions.append(changeset.revision) }
                savedDeliveries += deliveries.map { (changeset.revision, $0) }
            case .enqueueDeliveries(let deliveries):
                enqueuedDeliveries += deliveries
            case .wakeForWarnings(let instant):
                warningWakeAt = .some(instant)
            case .catchUp(let revision):
                catchUpsAfter.append(revision)
            case .wakeAt(let deadline):
                wakeAt = .some(deadline)
            case .flushPresenceLater:
                presenceFlushes += 1
            case .announcePresenceRegularly:
                break
            case .tellOtherNodes(let news):
                told.append(news)
            case .releaseWaiters:
                waiterReleases += 1
            case .releaseIfIdle:
                releasesAsked += 1
            case .count(let count):
                counts.append(count)
            case .closed(let reason):
                closes.append(reason)
                subscribed = [:]
            }
        }
    }

    private mutating func deliver(_ frame: OutboundFrame, to member: TestMember) {
        guard let message = try? ServerMessage.decode(Data(frame.payload)) else {
            sentTooEarly.append("an undecodable frame")
            return
        }
        let durable = state.durableRevision
        switch message {
        case .changes(let changeset) where changeset.revision > durable:
            sentTooEarly.append("changes \(changeset.revision) with \(durable) durable")
        case .ack(_, let revision, _, _, _) where revision > durable:
            sentTooEarly.append("ack \(revision) with \(durable) durable")
        case .snapshot(let snapshot) where snapshot.revision > durable:
            sentTooEarly.append("snapshot \(snapshot.revision) with \(durable) durable")
        default:
            break
        }
        received[member.id, default: []].append(message)
    }
}
