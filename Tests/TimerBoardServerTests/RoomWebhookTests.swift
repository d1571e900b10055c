import BoardCore
import BoardProtocol
import BoardStore
import Foundation
import Testing

@testable import TimerBoardServer

/// Which webhook events a room derives from what it commits, and the deliveries it hands to the
/// store with them (docs/protocol.md, "Webhooks"): on its state alone, no store, no task.
@Suite struct RoomWebhookTests {
    static let ada = TestMember(id: 1)
    static let allEvents = WebhookEventType.allCases.map(\.rawValue)

    static func endpoint(_ id: String = "wh_all", events: [String] = allEvents, enabled: Bool = true) -> WebhookEndpoint {
        WebhookEndpoint(
            id: id,
            boardID: RoomHarness.boardID,
            url: "https://hooks.example/\(id)",
            secret: "whsec_c2VjcmV0c2VjcmV0c2VjcmV0",
            events: events,
            createdAt: 0,
            enabled: enabled
        )
    }

    static func section(_ id: String, sequence: Bool = false) -> BoardOperation {
        .addSection(id: EntityID(id)!, title: "Section \(id)", isExpanded: true, position: .last, sequence: sequence)
    }

    static func timer(_ id: String, in section: String = "s", seconds: Int = 60, warnAt: Int64 = 0) -> BoardOperation {
        .addTimer(
            id: EntityID(id)!,
            sectionID: EntityID(section)!,
            title: "Timer \(id)",
            minutes: seconds / 60,
            seconds: seconds % 60,
            position: .last,
            warnAt: warnAt
        )
    }

    /// `type subject` of each delivery of revision `revision`, in order.
    static func events(_ room: RoomHarness, revision: Int64) -> [String] {
        room.savedDeliveries.filter { $0.revision == revision }.map { entry in
            let data = Self.data(entry.delivery)
            let subject = Self.subject(of: data)
            return subject.map { "\(entry.delivery.event) \($0)" } ?? entry.delivery.event
        }
    }

    static func data(_ delivery: WebhookDelivery) -> [String: JSONValue] {
        guard case .object(let body)? = JSONValue.parse(delivery.payload), case .object(let data)? = body["data"] else { return [:] }
        return data
    }

    private static func subject(of data: [String: JSONValue]) -> String? {
        for key in ["section", "timer"] {
            if case .object(let entity)? = data[key], case .string(let id)? = entity["id"] { return id }
        }
        return nil
    }

    /// The last `sequence.advanced` saved, as "finished -> started" timer ids ("none" without one).
    static func lastHandOver(_ room: RoomHarness) -> String {
        let advanced = room.savedDeliveries.last { $0.delivery.event == "sequence.advanced" }.map { Self.data($0.delivery) } ?? [:]
        guard case .object(let finished)? = advanced["finished"], case .object(let started)? = advanced["started"],
            case .string(let from)? = finished["id"], case .string(let to)? = started["id"]
        else { return "none" }
        return "\(from) -> \(to)"
    }

    /// A room with one endpoint that wants every event, one section `s` and `timers` in it.
    static func room(_ timers: [BoardOperation], sequence: Bool = false, endpoints: [WebhookEndpoint] = [endpoint()]) -> RoomHarness {
        var room = RoomHarness(webhooks: endpoints)
        room.join(ada)
        room.edit(ada, "setup", [section("s", sequence: sequence)] + timers)
        room.store()
        #expect(room.state.revision == 1, "the setup was refused")
        return room
    }

    // MARK: Which events a changeset makes

    @Test func eachChangeToARunMakesItsEventAndEveryChangesetMakesBoardChanged() {
        var room = Self.room([Self.timer("t")])
        #expect(Self.events(room, revision: 1) == ["board.changed"])
        room.edit(Self.ada, "start", [.startTimer(id: "t")])
        #expect(Self.events(room, revision: 2) == ["timer.started t", "board.changed"])
        room.now += 10_000
        room.edit(Self.ada, "pause", [.pauseTimer(id: "t")])
        #expect(Self.events(room, revision: 3) == ["timer.paused t", "board.changed"])
        room.edit(Self.ada, "resume", [.startTimer(id: "t")])
        #expect(Self.events(room, revision: 4) == ["timer.started t", "board.changed"])
        room.now += 1_000
        // Time added to a running timer keeps its start: not a new start.
        room.edit(Self.ada, "more", [.adjustTimer(id: "t", by: 60_000)])
        #expect(Self.events(room, revision: 5) == ["board.changed"])
        room.edit(Self.ada, "rename", [.updateTimer(id: "t", title: "Eggs", minutes: nil, seconds: nil)])
        #expect(Self.events(room, revision: 6) == ["board.changed"])
        room.now += 200_000
        room.perform(room.state.finishExpiredTimers(now: room.now))
        #expect(Self.events(room, revision: 7) == ["timer.finished t", "board.changed"])
        room.edit(Self.ada, "reset", [.resetTimer(id: "t")])
        #expect(Self.events(room, revision: 8) == ["board.changed"])
    }

    @Test func aSequenceThatHandsOverAtADeadlineOrBySkippingAdvances() {
        var room = Self.room([Self.timer("a", seconds: 10), Self.timer("b", seconds: 10), Self.timer("c", seconds: 10)], sequence: true)
        room.edit(Self.ada, "go", [.startSection(id: "s")])
        #expect(Self.events(room, revision: 2) == ["timer.started a", "board.changed"])
        // The hand-over's start is at the deadline, not "now": the server made it, so it counts.
        room.now += 10_500
        room.perform(room.state.finishExpiredTimers(now: room.now))
        #expect(Self.events(room, revision: 3) == ["timer.finished a", "timer.started b", "sequence.advanced s", "board.changed"])
        #expect(Self.lastHandOver(room) == "a -> b")
        room.edit(Self.ada, "skip", [.skipSection(id: "s")])
        #expect(Self.events(room, revision: 4) == ["timer.finished b", "timer.started c", "sequence.advanced s", "board.changed"])
    }

    /// A sequence that ran to its end while no server ran: its catch-up's changeset holds only
    /// finished timers, and still names its last hand-over.
    @Test func aSequenceThatEndedDuringADowntimeStillNamesItsLastHandOver() {
        var room = Self.room([Self.timer("a", seconds: 2), Self.timer("b", seconds: 2)], sequence: true)
        room.edit(Self.ada, "go", [.startSection(id: "s")])
        room.now += 6_000
        room.perform(room.state.finishExpiredTimers(now: room.now))
        #expect(Self.events(room, revision: 3) == ["timer.finished a", "timer.finished b", "sequence.advanced s", "board.changed"])
        #expect(Self.lastHandOver(room) == "a -> b")
    }

    /// A loop caught up over several rounds names the hand-over that made the running timer.
    @Test func aLoopCaughtUpNamesItsLastHandOver() {
        var room = Self.room([Self.timer("a", seconds: 2), Self.timer("b", seconds: 3)], sequence: true)
        room.edit(Self.ada, "loop", [.updateSection(id: "s", title: nil, isExpanded: nil, loop: true)])
        room.edit(Self.ada, "go", [.startSection(id: "s")])
        room.now += 11_000  // two rounds of 5 s, then 1 s into a
        room.perform(room.state.finishExpiredTimers(now: room.now))
        #expect(Self.lastHandOver(room) == "b -> a")
    }

    @Test func aSectionStartedAtOnceStartsEachOfItsTimers() {
        var room = Self.room([Self.timer("a"), Self.timer("b")])
        room.edit(Self.ada, "all", [.startSection(id: "s")])
        #expect(Self.events(room, revision: 2) == ["timer.started a", "timer.started b", "board.changed"])
    }

    @Test func aMessageShownOnTheScreensIsSentWithItsTextButItsClearingIsNot() {
        var room = Self.room([])
        room.now = 1_763_740_805_250
        room.edit(Self.ada, "show", [.showMessage(text: "Wrap up", flash: true)])
        #expect(Self.events(room, revision: 2) == ["message.shown", "board.changed"])
        let shown = room.savedDeliveries.first { $0.delivery.event == "message.shown" }.map { Self.data($0.delivery) } ?? [:]
        #expect(shown["message"] == .object(["text": .string("Wrap up"), "flash": .bool(true), "shownAt": .int(1_763_740_805_250)]))
        room.edit(Self.ada, "blackout", [.setBlackout(true)])
        #expect(Self.events(room, revision: 3) == ["board.changed"])
        room.edit(Self.ada, "clear", [.clearMessage])
        #expect(Self.events(room, revision: 4) == ["board.changed"])
    }

    // MARK: To whom, when

    @Test func eachEndpointGetsOnlyWhatItAskedForAndADisabledOneNothing() {
        let finishes = Self.endpoint("wh_fin", events: ["timer.finished"])
        let starts = Self.endpoint("wh_start", events: ["timer.started", "timer.paused"])
        let off = Self.endpoint("wh_off", enabled: false)
        var room = Self.room([Self.timer("t", seconds: 5)], endpoints: [finishes, starts, off])
        room.edit(Self.ada, "start", [.startTimer(id: "t")])
        room.now += 5_000
        room.perform(room.state.finishExpiredTimers(now: room.now))
        let sent = room.savedDeliveries.map { "\($0.delivery.webhookID) \($0.delivery.event)" }
        #expect(sent == ["wh_start timer.started", "wh_fin timer.finished"])
        #expect(room.savedDeliveries.allSatisfy { $0.delivery.url.hasSuffix($0.delivery.webhookID) && $0.delivery.id.hasPrefix("msg_") })
    }

    @Test func nothingIsDerivedWithoutAnEndpointAndEndpointsChangeThroughTheRoom() {
        var room = Self.room([Self.timer("t")], endpoints: [])
        room.edit(Self.ada, "start", [.startTimer(id: "t")])
        #expect(room.savedDeliveries.isEmpty)
        room.perform(room.state.webhooksChanged(.added(Self.endpoint("wh_new", events: ["timer.paused"]))))
        room.edit(Self.ada, "pause", [.pauseTimer(id: "t")])
        #expect(room.savedDeliveries.map(\.delivery.event) == ["timer.paused"])
        room.perform(room.state.webhooksChanged(.disabled(id: "wh_new", reason: "failing")))
        room.edit(Self.ada, "start again", [.startTimer(id: "t")])
        room.edit(Self.ada, "pause again", [.pauseTimer(id: "t")])
        #expect(room.savedDeliveries.count == 1)
        room.perform(room.state.webhooksChanged(.replaced([Self.endpoint("wh_back", events: ["timer.started"])])))
        room.edit(Self.ada, "start a third time", [.startTimer(id: "t")])
        #expect(room.savedDeliveries.map(\.delivery.webhookID) == ["wh_new", "wh_back"])
    }

    @Test func boardChangedWaitsForTheDebounceAndCoalescesPerEndpoint() {
        var room = Self.room([Self.timer("t")], endpoints: [Self.endpoint("wh_a", events: ["board.changed", "timer.started"])])
        room.edit(Self.ada, "start", [.startTimer(id: "t")])
        let changed = room.savedDeliveries.map(\.delivery).filter { $0.event == "board.changed" }
        let started = room.savedDeliveries.map(\.delivery).first { $0.event == "timer.started" }
        #expect(changed.allSatisfy { $0.coalesceKey == "changed:wh_a" && $0.nextAttemptAt == $0.createdAt + 1_000 })
        #expect(changed.map { Self.data($0)["revision"] } == [.int(1), .int(2)])
        #expect(started?.coalesceKey == nil && started?.nextAttemptAt == started?.createdAt)
    }

    @Test func thePayloadIsStandardWebhooksShapedWithTheTimerAsTheProtocolSendsIt() throws {
        var room = Self.room([Self.timer("t")], endpoints: [Self.endpoint("wh_a", events: ["timer.started"])])
        room.now = 1_763_740_805_250
        room.edit(Self.ada, "start", [.startTimer(id: "t")])
        let delivery = try #require(room.savedDeliveries.first?.delivery)
        guard case .object(let body)? = JSONValue.parse(delivery.payload), case .object(let data)? = body["data"],
            case .object(let timer)? = data["timer"], case .object(let run)? = timer["run"]
        else { throw TestFailure("not a payload: \(delivery.payload)") }
        #expect(body["type"] == .string("timer.started") && body["timestamp"] == .string("2025-11-21T16:00:05.250Z"))
        #expect(data["boardId"] == .string(RoomHarness.boardID) && data["revision"] == .int(2))
        #expect(timer["id"] == .string("t") && timer["sectionID"] == .string("s") && timer["minutes"] == .int(1))
        #expect(run["status"] == .string("running") && run["startedAt"] == .int(1_763_740_805_250))
    }

    @Test func aDeletedBoardTellsItsEndpoints() {
        let room = Self.room([], endpoints: [Self.endpoint("wh_a", events: ["board.deleted"]), Self.endpoint("wh_b", events: ["timer.started"])])
        let deliveries = room.state.deletionDeliveries(now: 5)
        #expect(deliveries.map { "\($0.webhookID) \($0.event)" } == ["wh_a board.deleted"])
        #expect(Self.data(deliveries[0])["boardId"] == .string(RoomHarness.boardID))
    }

    @Test func aRoomWhoseWebhooksWantEventsStaysWhileATimerRunsThenAsksToGo() {
        var room = Self.room([Self.timer("t", seconds: 5)])
        room.edit(Self.ada, "start", [.startTimer(id: "t")])
        room.store()
        room.leave(Self.ada)
        #expect(!room.state.isIdle, "nobody is on it, but its finish must be sent on time")
        room.now += 5_000
        room.perform(room.state.finishExpiredTimers(now: room.now))
        #expect(room.releasesAsked == 0, "not before the finish is durable")
        room.store()
        #expect(room.state.isIdle && room.releasesAsked == 1)
        // Without webhooks, running timers keep no board in memory.
        var plain = Self.room([Self.timer("t", seconds: 5)], endpoints: [])
        plain.edit(Self.ada, "start", [.startTimer(id: "t")])
        plain.store()
        plain.leave(Self.ada)
        #expect(plain.state.isIdle && plain.releasesAsked == 0)
    }

    // MARK: Warnings

    @Test func aWarningWakesTheRoomAtItsInstantAndGoesOnceToTheStore() {
        var room = Self.room([Self.timer("t", seconds: 60, warnAt: 10_000)], endpoints: [Self.endpoint("wh_w", events: ["timer.warning"])])
        let started = room.now
        room.edit(Self.ada, "start", [.startTimer(id: "t")])
        #expect(room.warningWakeAt == .some(started + 50_000))
        room.now = started + 50_000
        room.perform(room.state.warningsDue(now: room.now))
        #expect(room.enqueuedDeliveries.map(\.event) == ["timer.warning"])
        #expect(room.enqueuedDeliveries.first?.onceKey == "warning:wh_w:t:\(started):0")
        #expect(room.enqueuedDeliveries.first.map { Self.data($0)["remainingMs"] } == .int(10_000))
        #expect(room.state.webhooks.aimedAt == nil, "nothing more to wake for")
        room.perform(room.state.warningsDue(now: room.now + 1))
        #expect(room.enqueuedDeliveries.count == 1, "warned twice")
        // A new run that starts with warnAt left (paused and resumed at once) is not warned again...
        room.edit(Self.ada, "pause", [.pauseTimer(id: "t")])
        room.edit(Self.ada, "resume", [.startTimer(id: "t")])
        #expect(room.state.webhooks.aimedAt == nil)
        // ...but one given time back above warnAt is.
        room.edit(Self.ada, "more", [.adjustTimer(id: "t", by: 60_000)])
        #expect(room.warningWakeAt == .some(room.now + 60_000))
    }

    @Test func noWarningIsAimedWhenNobodyWantsOneOrTheTimerHasNone() {
        var room = Self.room([Self.timer("t", warnAt: 10_000), Self.timer("u")], endpoints: [Self.endpoint("wh_f", events: ["timer.finished"])])
        room.edit(Self.ada, "start", [.startTimer(id: "t"), .startTimer(id: "u")])
        #expect(room.warningWakeAt == nil)
        room.perform(room.state.webhooksChanged(.added(Self.endpoint("wh_w", events: ["timer.warning"]))))
        #expect(room.warningWakeAt == .some(room.now + 50_000))
    }

    @Test func aBoardLoadedAfterAWarningPassedIsWokenAtOnceToSendIt() {
        let started: Int64 = 1_000_000
        let section = Section(id: "s", title: "S", createdDate: 0, order: "a0")
        let timer = BoardTimer(
            id: "t",
            sectionID: "s",
            title: "T",
            minutes: 1,
            seconds: 0,
            createdDate: 0,
            order: "a0",
            run: TimerRun(status: .running, startedAt: started, elapsed: 0),
            warnAt: 10_000
        )
        var room = RoomHarness(content: try! Board(sections: [section], timers: [timer]), webhooks: [Self.endpoint(events: ["timer.warning"])])
        room.now = started + 55_000
        room.perform(room.state.activate(now: room.now).actions)
        #expect(room.warningWakeAt == .some(started + 50_000), "a past instant: the wake-up fires at once")
        room.perform(room.state.warningsDue(now: room.now))
        #expect(room.enqueuedDeliveries.map(\.onceKey) == ["warning:wh_all:t:\(started):0"])
    }
}
