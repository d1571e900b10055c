import BoardCore
import BoardStore

/// A change to a board's endpoints, as the room hears of it.
enum WebhookChange: Sendable {
    /// The owner added one through this node.
    case added(WebhookEndpoint)
    /// The owner removed one through this node.
    case removed(id: String)
    /// The dispatcher disabled one that failed for too long.
    case disabled(id: String, reason: String)
    /// The store's list, read again (another node changed it).
    case replaced([WebhookEndpoint])
}

/// What a room knows of its board's webhooks: the endpoints (loaded with the board, then kept
/// up to date by `WebhookChange`s), and the timer warnings it has handed to the store already.
/// The room derives events only while some enabled endpoint wants them.
struct RoomWebhooks {
    private(set) var endpoints: [WebhookEndpoint]
    /// The instant the room's warning wake-up is aimed at.
    var aimedAt: Int64?
    /// Warnings handed to the store, by the run they belong to (a timer started, resumed or
    /// adjusted is a new run, warned again); only running timers' are kept.
    private var warned: Set<WarningKey> = []

    struct WarningKey: Hashable {
        let timer: EntityID
        let startedAt: Int64
        let elapsed: Int64

        init?(_ timer: BoardTimer) {
            guard timer.run.status == .running, let startedAt = timer.run.startedAt else { return nil }
            self.timer = timer.id
            self.startedAt = startedAt
            self.elapsed = timer.run.elapsed
        }

        var text: String { "\(timer.rawValue):\(startedAt):\(elapsed)" }
    }

    init(_ endpoints: [WebhookEndpoint]) {
        self.endpoints = endpoints
    }

    /// Some enabled endpoint asked for `type`.
    func wants(_ type: WebhookEventType) -> Bool {
        endpoints.contains { $0.enabled && $0.events.contains(type.rawValue) }
    }

    var wantsAnything: Bool { endpoints.contains { $0.enabled && !$0.events.isEmpty } }

    mutating func apply(_ change: WebhookChange) {
        switch change {
        case .added(let endpoint):
            endpoints.removeAll { $0.id == endpoint.id }
            endpoints.append(endpoint)
        case .removed(let id):
            endpoints.removeAll { $0.id == id }
        case .disabled(let id, let reason):
            for index in endpoints.indices where endpoints[index].id == id {
                endpoints[index].enabled = false
                endpoints[index].disabledReason = reason
            }
        case .replaced(let stored):
            endpoints = stored
        }
    }

    /// One delivery per event per enabled endpoint that asked for its type. `board.changed` is
    /// due `changeDelay` ms later and replaces its endpoint's one still waiting (a debounce); a
    /// warning is added once per endpoint and run, however many nodes or loads send it.
    func deliveries(for events: [WebhookEvent], boardID: String, now: Int64, changeDelay: Int64) -> [WebhookDelivery] {
        var deliveries: [WebhookDelivery] = []
        for event in events {
            let wanting = endpoints.filter { $0.enabled && $0.events.contains(event.type.rawValue) }
            guard !wanting.isEmpty else { continue }
            let payload = event.payload(at: now)
            for endpoint in wanting {
                let isChange = event.type == .boardChanged
                deliveries.append(
                    WebhookDelivery(
                        id: WebhookIDs.message(),
                        webhookID: endpoint.id,
                        boardID: boardID,
                        url: endpoint.url,
                        secret: endpoint.secret,
                        event: event.type.rawValue,
                        payload: payload,
                        createdAt: now,
                        nextAttemptAt: isChange ? now + changeDelay : now,
                        coalesceKey: isChange ? "changed:\(endpoint.id)" : nil,
                        onceKey: event.once.map { "warning:\(endpoint.id):\($0.key)" },
                        onceUntil: event.once?.until ?? 0
                    )
                )
            }
        }
        return deliveries
    }

    // MARK: Warnings

    /// When a running timer's warning is due: `warnAt` ms before its deadline, if its run crosses
    /// that point (a run that starts with `warnAt` or less left is not warned: it shows the
    /// warning colour from its start, and a resume after a warning would repeat it).
    static func warningInstant(of timer: BoardTimer) -> Int64? {
        guard timer.warnAt > 0, let deadline = timer.deadline, let startedAt = timer.run.startedAt else { return nil }
        let instant = deadline - timer.warnAt
        return instant > startedAt ? instant : nil
    }

    /// The earliest warning not handed to the store yet, or nil (none, or nobody wants warnings).
    func nextWarning(on board: Board) -> Int64? {
        guard wants(.timerWarning) else { return nil }
        return board.timers.values.lazy.compactMap { timer -> Int64? in
            guard let key = WarningKey(timer), !warned.contains(key) else { return nil }
            return Self.warningInstant(of: timer)
        }.min()
    }

    /// The running timers whose warning is due at `now` and not handed over yet, now marked as
    /// handed over; keys of runs that ended are forgotten.
    mutating func dueWarnings(on board: Board, now: Int64) -> [BoardTimer] {
        let running = Set(board.timers.values.compactMap(WarningKey.init))
        warned.formIntersection(running)
        guard wants(.timerWarning) else { return [] }
        var due: [BoardTimer] = []
        for timer in board.timers.values.sorted(by: { $0.id < $1.id }) {
            guard let key = WarningKey(timer), !warned.contains(key), let instant = Self.warningInstant(of: timer), instant <= now else { continue }
            warned.insert(key)
            due.append(timer)
        }
        return due
    }
}
