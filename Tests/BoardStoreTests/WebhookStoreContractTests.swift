import BoardCore
import BoardStore
import Foundation
import Testing

/// The webhooks' part of the store contract (issue 31): endpoints with their board, and a
/// durable outbox of deliveries written in the changeset's own transaction, leased to one sender
/// at a time. Every store must pass it.
@Suite struct WebhookStoreContractTests {
    typealias Contract = BoardStoreContractTests

    static func endpoint(_ id: String, board: String = "b", createdAt: Int64 = 1) -> WebhookEndpoint {
        WebhookEndpoint(
            id: id,
            boardID: board,
            url: "https://hooks.example/\(id)",
            secret: "whsec_c2VjcmV0",
            events: ["timer.finished", "board.changed"],
            createdAt: createdAt
        )
    }

    static func delivery(
        _ id: String,
        webhook: String = "wh1",
        board: String = "b",
        due: Int64 = 100,
        payload: String = "{}",
        coalesce: String? = nil,
        once: String? = nil,
        onceUntil: Int64 = 0
    ) -> WebhookDelivery {
        WebhookDelivery(
            id: id,
            webhookID: webhook,
            boardID: board,
            url: "https://hooks.example/\(webhook)",
            secret: "whsec_c2VjcmV0",
            event: "timer.finished",
            payload: payload,
            createdAt: due,
            nextAttemptAt: due,
            coalesceKey: coalesce,
            onceKey: once,
            onceUntil: onceUntil
        )
    }

    /// A store with board `b` and endpoint `wh1` on it.
    static func storeWithEndpoint(_ kind: StoreKind, location: URL? = nil) async throws -> any BoardStore {
        let store = try await kind.open(location ?? Contract.freshLocation(), 1_000)
        try await store.createBoard(BoardInfo(id: "b", title: "B", createdDate: 1), access: Contract.access)
        try await store.createWebhook(endpoint("wh1"), limit: 10)
        return store
    }

    static func claimIDs(_ store: any BoardStore, now: Int64 = 1_000, limit: Int = 100, lease: Int64 = 10_000) async throws -> [String] {
        try await store.claimDeliveries(now: now, limit: limit, leaseUntil: now + lease).map(\.id)
    }

    @Test(arguments: Contract.kinds)
    func endpointsAreStoredWithTheirBoardLimitedListedAndRemoved(_ kind: StoreKind) async throws {
        let location = try Contract.freshLocation()
        let store = try await Self.storeWithEndpoint(kind, location: location)
        try await store.createWebhook(Self.endpoint("wh2", createdAt: 2), limit: 2)
        await #expect { try await store.createWebhook(Self.endpoint("wh3"), limit: 2) } throws: { ($0 as? StoreError)?.kind == .limitReached }
        await #expect { try await store.createWebhook(Self.endpoint("wh4", board: "nope"), limit: 2) } throws: {
            ($0 as? StoreError)?.kind == .boardNotFound
        }
        let reopened = try await kind.open(location, 1_000)
        #expect(try await reopened.loadBoard(id: "b")?.webhooks == [Self.endpoint("wh1"), Self.endpoint("wh2", createdAt: 2)])
        #expect(try await reopened.webhooks(boardID: "b").map(\.endpoint.id) == ["wh1", "wh2"])
        #expect(try await store.deleteWebhook(id: "wh1", boardID: "other") == false)
        #expect(try await store.deleteWebhook(id: "wh1", boardID: "b"))
        #expect(try await store.deleteWebhook(id: "wh1", boardID: "b") == false)
        #expect(try await store.loadBoard(id: "b")?.webhooks.map(\.id) == ["wh2"])
    }

    @Test(arguments: Contract.kinds)
    func deliveriesGoWithTheirChangesetAndAreLeasedToOneSenderAtATime(_ kind: StoreKind) async throws {
        let location = try Contract.freshLocation()
        let store = try await Self.storeWithEndpoint(kind, location: location)
        try await store.append(
            [Contract.changeset("b", 1, [Contract.addSection("s")])],
            snapshot: nil,
            deliveries: [Self.delivery("msg_a"), Self.delivery("msg_later", due: 5_000), Self.delivery("msg_gone", webhook: "wh_none")]
        )
        // A snapshot takes the other path of an append; its deliveries are stored all the same.
        try await store.append(
            [Contract.changeset("b", 2, [.updateSection("s", SectionPatch(title: "T"))])],
            snapshot: Board(),
            deliveries: [Self.delivery("msg_b")]
        )
        let reopened = try await kind.open(location, 1_000)
        #expect(try await reopened.pendingDeliveryCount() == 3, "the one for no endpoint is left out")
        #expect(try await reopened.nextDeliveryTime() == 100)
        #expect(try await Self.claimIDs(reopened) == ["msg_a", "msg_b"])
        #expect(try await reopened.nextDeliveryTime() == 5_000, "the earliest not leased")
        #expect(try await Self.claimIDs(reopened).isEmpty, "leased")
        #expect(try await Self.claimIDs(reopened, now: 11_000) == ["msg_a", "msg_b", "msg_later"], "the lease ran out")
        // A failed append stores none of its deliveries.
        await #expect(throws: StoreError.self) {
            try await store.append([Contract.changeset("b", 9, [Contract.addSection("x")])], snapshot: nil, deliveries: [Self.delivery("msg_no")])
        }
        #expect(try await store.pendingDeliveryCount() == 3)
    }

    @Test(arguments: Contract.kinds)
    func aWaitingCoalescedDeliveryTakesTheLatestPayloadUntilItsSendBegins(_ kind: StoreKind) async throws {
        let store = try await Self.storeWithEndpoint(kind)
        try await store.append(
            [Contract.changeset("b", 1, [Contract.addSection("s")])],
            snapshot: nil,
            deliveries: [Self.delivery("msg_1", payload: #"{"rev":1}"#, coalesce: "changed:wh1")]
        )
        try await store.append(
            [Contract.changeset("b", 2, [.updateSection("s", SectionPatch(title: "T"))])],
            snapshot: nil,
            deliveries: [Self.delivery("msg_2", payload: #"{"rev":2}"#, coalesce: "changed:wh1")]
        )
        let claimed = try await store.claimDeliveries(now: 1_000, limit: 10, leaseUntil: 2_000)
        #expect(claimed.map(\.id) == ["msg_1"] && claimed.map(\.payload) == [#"{"rev":2}"#])
        try await store.enqueue([Self.delivery("msg_3", payload: #"{"rev":3}"#, coalesce: "changed:wh1")])
        #expect(try await Self.claimIDs(store, now: 1_500) == ["msg_3"], "a send under way is not changed: a new one waits")
    }

    @Test(arguments: Contract.kinds)
    func aOnceKeyAddsItsDeliveryOnceUntilItIsForgotten(_ kind: StoreKind) async throws {
        let store = try await Self.storeWithEndpoint(kind)
        try await store.enqueue([Self.delivery("msg_1", once: "warning:wh1:t:5:0", onceUntil: 3_000)])
        try await store.enqueue([Self.delivery("msg_2", once: "warning:wh1:t:5:0", onceUntil: 3_000)])
        #expect(try await Self.claimIDs(store) == ["msg_1"])
        let attempt = WebhookAttempt(
            webhookID: "wh1",
            messageID: "msg_1",
            event: "timer.warning",
            time: 1_000,
            status: 200,
            error: nil,
            durationMs: 3
        )
        try await store.recordAttempt(attempt, of: Self.delivery("msg_1"), outcome: .delivered)
        try await store.enqueue([Self.delivery("msg_3", once: "warning:wh1:t:5:0", onceUntil: 3_000)])
        #expect(try await store.pendingDeliveryCount() == 0, "sent once is enough")
        _ = try await Self.claimIDs(store, now: 3_001)  // forgets keys past their time
        try await store.enqueue([Self.delivery("msg_4", once: "warning:wh1:t:5:0", onceUntil: 9_000)])
        #expect(try await store.pendingDeliveryCount() == 1)
    }

    @Test(arguments: Contract.kinds)
    func attemptsRetryDeliverOrFailAndTheEndpointKnowsSinceWhenItFails(_ kind: StoreKind) async throws {
        let store = try await Self.storeWithEndpoint(kind)
        try await store.enqueue([Self.delivery("msg_1"), Self.delivery("msg_2")])
        let claimed = try await store.claimDeliveries(now: 1_000, limit: 10, leaseUntil: 60_000)
        func attempt(_ id: String, at time: Int64, status: Int?) -> WebhookAttempt {
            WebhookAttempt(
                webhookID: "wh1",
                messageID: id,
                event: "timer.finished",
                time: time,
                status: status,
                error: status == nil ? "refused" : nil,
                durationMs: 2
            )
        }
        var endpoint = try await store.recordAttempt(attempt("msg_1", at: 1_000, status: 500), of: claimed[0], outcome: .retry(at: 6_000))
        #expect(endpoint?.failingSince == 1_000)
        endpoint = try await store.recordAttempt(attempt("msg_2", at: 1_100, status: nil), of: claimed[1], outcome: .failed)
        #expect(endpoint?.failingSince == 1_000, "the run of failures began at the first")
        #expect(try await Self.claimIDs(store, now: 5_999).isEmpty)
        let retried = try await store.claimDeliveries(now: 6_000, limit: 10, leaseUntil: 60_000)
        #expect(retried.map(\.id) == ["msg_1"] && retried.map(\.attempts) == [1])
        endpoint = try await store.recordAttempt(attempt("msg_1", at: 6_000, status: 204), of: retried[0], outcome: .delivered)
        #expect(endpoint?.failingSince == nil && endpoint?.enabled == true)
        #expect(try await store.pendingDeliveryCount() == 0)
        for n in 0..<25 {
            try await store.recordAttempt(attempt("msg_x\(n)", at: 10_000 + Int64(n), status: 500), of: Self.delivery("msg_x\(n)"), outcome: .failed)
        }
        let attempts = try #require(try await store.webhooks(boardID: "b").first?.attempts)
        #expect(attempts.count == webhookAttemptsKept && attempts.first?.messageID == "msg_x24" && attempts.last?.messageID == "msg_x5")
        #expect(attempts.first == attempt("msg_x24", at: 10_024, status: 500))
        _ = try await store.deleteWebhook(id: "wh1", boardID: "b")
        #expect(try await store.recordAttempt(attempt("msg_y", at: 20_000, status: 200), of: Self.delivery("msg_y"), outcome: .delivered) == nil)
    }

    @Test(arguments: Contract.kinds)
    func aDisabledOrRemovedEndpointLosesItsWaitingDeliveriesAndGetsNoMore(_ kind: StoreKind) async throws {
        let store = try await Self.storeWithEndpoint(kind)
        try await store.createWebhook(Self.endpoint("wh2", createdAt: 2), limit: 10)
        try await store.enqueue([Self.delivery("msg_1"), Self.delivery("msg_2", webhook: "wh2")])
        #expect(try await store.boardsWithWebhooks() == ["b"])
        try await store.disableWebhook(id: "wh1", boardID: "b", reason: "failing since then")
        try await store.enqueue([Self.delivery("msg_3")])
        let disabled = try #require(try await store.loadBoard(id: "b")?.webhooks.first)
        #expect(!disabled.enabled && disabled.disabledReason == "failing since then")
        #expect(try await store.deleteWebhook(id: "wh2", boardID: "b"))
        #expect(try await store.pendingDeliveryCount() == 0)
        #expect(try await store.nextDeliveryTime() == nil)
        #expect(try await store.boardsWithWebhooks().isEmpty, "only a disabled endpoint is left")
    }

    @Test(arguments: Contract.kinds)
    func aDeletedBoardLeavesItsLastDeliveriesAndTakesItsEndpoints(_ kind: StoreKind) async throws {
        let store = try await Self.storeWithEndpoint(kind)
        try await store.deleteBoard(id: "b", deliveries: [Self.delivery("msg_deleted")])
        let claimed = try await store.claimDeliveries(now: 1_000, limit: 10, leaseUntil: 2_000)
        #expect(claimed.map(\.id) == ["msg_deleted"] && claimed.first?.url == "https://hooks.example/wh1")
        try await store.createBoard(BoardInfo(id: "b", title: "Again", createdDate: 2), access: Contract.access)
        #expect(try await store.webhooks(boardID: "b").isEmpty)
    }

    @Test(arguments: Contract.kinds)
    func abandonedLeasesComeBackOnlyWhereOneNodeUsesTheStore(_ kind: StoreKind) async throws {
        let store = try await Self.storeWithEndpoint(kind)
        try await store.enqueue([Self.delivery("msg_1")])
        #expect(try await Self.claimIDs(store) == ["msg_1"])
        try await store.releaseAbandonedLeases()
        let again = try await Self.claimIDs(store)
        #expect(again == (kind.name == "SQLite" ? ["msg_1"] : []))
    }

    /// Two nodes claiming at once never get the same delivery.
    @Test(arguments: Contract.sharedKinds)
    func nodesClaimingTogetherShareTheOutboxWithoutOverlap(_ kind: StoreKind) async throws {
        let location = try Contract.freshLocation()
        let first = try await Self.storeWithEndpoint(kind, location: location)
        let second = try await kind.open(location, 1_000)
        try await first.enqueue((0..<60).map { Self.delivery("msg_\($0)") })
        async let mine = (0..<6).asyncFlatMap { _ in try await Self.claimIDs(first, limit: 7) }
        async let theirs = (0..<6).asyncFlatMap { _ in try await Self.claimIDs(second, limit: 7) }
        var claimed = try await mine + theirs
        while case let more = try await Self.claimIDs(first, limit: 7), !more.isEmpty { claimed += more }
        #expect(claimed.count == Set(claimed).count, "a delivery claimed twice")
        #expect(claimed.count == 60)
    }
}

extension Range<Int> {
    fileprivate func asyncFlatMap(_ body: (Int) async throws -> [String]) async throws -> [String] {
        var all: [String] = []
        for index in self { all += try await body(index) }
        return all
    }
}
