import BoardCore
import BoardProtocol

/// One event of a board for its webhooks, before it is addressed to endpoints: its type, what it
/// is about (a timer or a section; nil for the board), and its payload's `data` object.
struct WebhookEvent: Equatable {
    let type: WebhookEventType
    let subject: EntityID?
    /// The `data` object, JSON.
    let data: [UInt8]
    /// For an event sent once per endpoint however often it is derived (a warning, by several
    /// nodes or loads): its key, and until when the store remembers it.
    var once: Once?

    struct Once: Equatable {
        let key: String
        let until: Int64
    }

    /// The events of one committed changeset, from its changes and the board after them (no
    /// state from before is needed; docs/protocol.md, "Webhooks"):
    /// - a timer whose run is now running is `timer.started` when its `startedAt` is the
    ///   changeset's time, or when the server made the changeset (a finish, a hand-over, a
    ///   catch-up: their starts are at a deadline, not at "now");
    /// - a run now paused is `timer.paused`, one now finished `timer.finished`;
    /// - a sequence section in which one timer finished and one started is `sequence.advanced`:
    ///   the server's `handOvers` name its last hand-over (its started timer may have finished
    ///   too, in a catch-up); an edit's (a skip) is read from the runs;
    /// - a message shown to the board's screens (a new one, or new text) is `message.shown`;
    /// - every changeset is `board.changed`.
    static func derive(
        from changes: [Change],
        board: Board,
        boardID: String,
        revision: Int64,
        serverMade: Bool,
        handOvers: [SequenceHandOver] = [],
        now: Int64
    ) -> [WebhookEvent] {
        var events: [WebhookEvent] = []
        var finishedIn: [EntityID: [BoardTimer]] = [:]
        var startedIn: [EntityID: [BoardTimer]] = [:]
        for change in changes {
            let id: EntityID
            switch change {
            case .updateDisplay(let patch):
                if case .show(let message) = patch.message {
                    events.append(messageShown(message, boardID: boardID, revision: revision))
                }
                continue
            case .insertTimer(let timer): id = timer.id
            case .updateTimer(let timerID, let patch) where patch.run != nil: id = timerID
            default: continue
            }
            guard let timer = board.timers[id] else { continue }
            switch timer.run.status {
            case .running where serverMade || timer.run.startedAt == now:
                events.append(timerEvent(.timerStarted, timer, boardID: boardID, revision: revision))
                startedIn[timer.sectionID, default: []].append(timer)
            case .paused:
                events.append(timerEvent(.timerPaused, timer, boardID: boardID, revision: revision))
            case .finished:
                events.append(timerEvent(.timerFinished, timer, boardID: boardID, revision: revision))
                finishedIn[timer.sectionID, default: []].append(timer)
            case .running, .idle:
                break
            }
        }
        var advanced: [EntityID: (finished: BoardTimer, started: BoardTimer)] = [:]
        for handOver in handOvers {
            guard let finished = board.timers[handOver.finished], let started = board.timers[handOver.started] else { continue }
            advanced[handOver.section] = (finished, started)
        }
        for (sectionID, started) in startedIn where advanced[sectionID] == nil {
            guard let finished = finishedIn[sectionID] else { continue }
            let last = finished.max { ($0.run.finishedAt ?? 0, $0.order, $0.id) < ($1.run.finishedAt ?? 0, $1.order, $1.id) }!
            let next = started.max { ($0.run.startedAt ?? 0, $0.order, $0.id) < ($1.run.startedAt ?? 0, $1.order, $1.id) }!
            advanced[sectionID] = (last, next)
        }
        for (sectionID, (last, next)) in advanced.sorted(by: { $0.key < $1.key }) {
            guard let section = board.sections[sectionID], section.sequence else { continue }
            var writer = dataWriter(boardID: boardID, revision: revision)
            writer.key("section")
            writer.beginObject()
            writer.field("id", section.id.rawValue)
            writer.field("title", section.title)
            writer.field("loop", section.loop)
            writer.endObject()
            writer.key("finished")
            writer.timer(last)
            writer.key("started")
            writer.timer(next)
            writer.endObject()
            events.append(WebhookEvent(type: .sequenceAdvanced, subject: section.id, data: writer.bytes))
        }
        var changed = dataWriter(boardID: boardID, revision: revision)
        changed.endObject()
        events.append(WebhookEvent(type: .boardChanged, subject: nil, data: changed.bytes))
        return events
    }

    /// `timer.warning`: a running timer has `warnAt` milliseconds left.
    static func warning(_ timer: BoardTimer, boardID: String, revision: Int64) -> WebhookEvent {
        var writer = dataWriter(boardID: boardID, revision: revision)
        writer.key("timer")
        writer.timer(timer)
        writer.field("remainingMs", timer.warnAt)
        writer.endObject()
        // Past the deadline the run is over: a board loaded later finishes the timer instead.
        let once = RoomWebhooks.WarningKey(timer).map { Once(key: $0.text, until: (timer.deadline ?? 0) + 3_600_000) }
        return WebhookEvent(type: .timerWarning, subject: timer.id, data: writer.bytes, once: once)
    }

    /// `message.shown`: its text, whether screens flash it, and when it was shown.
    private static func messageShown(_ message: ScreenMessage, boardID: String, revision: Int64) -> WebhookEvent {
        var writer = dataWriter(boardID: boardID, revision: revision)
        writer.key("message")
        writer.beginObject()
        writer.field("text", message.text)
        writer.field("flash", message.flash)
        writer.field("shownAt", message.shownAt)
        writer.endObject()
        writer.endObject()
        return WebhookEvent(type: .messageShown, subject: nil, data: writer.bytes)
    }

    /// `board.deleted`.
    static func deleted(boardID: String, title: String) -> WebhookEvent {
        var writer = JSONWriter()
        writer.beginObject()
        writer.field("boardId", boardID)
        writer.field("title", title)
        writer.endObject()
        return WebhookEvent(type: .boardDeleted, subject: nil, data: writer.bytes)
    }

    /// The whole body: `{"type":…,"timestamp":…,"data":{…}}`, as Standard Webhooks suggests.
    func payload(at now: Int64) -> String {
        var writer = JSONWriter(reservingCapacity: data.count + 96)
        writer.beginObject()
        writer.field("type", type.rawValue)
        writer.field("timestamp", WebhookTimestamp.iso8601(milliseconds: now))
        writer.key("data")
        writer.raw(data)
        writer.endObject()
        return String(decoding: writer.bytes, as: UTF8.self)
    }

    private static func timerEvent(_ type: WebhookEventType, _ timer: BoardTimer, boardID: String, revision: Int64) -> WebhookEvent {
        var writer = dataWriter(boardID: boardID, revision: revision)
        writer.key("timer")
        writer.timer(timer)
        writer.endObject()
        return WebhookEvent(type: type, subject: timer.id, data: writer.bytes)
    }

    /// `{"boardId":…,"revision":…` with the object left open for the event's own fields.
    private static func dataWriter(boardID: String, revision: Int64) -> JSONWriter {
        var writer = JSONWriter()
        writer.beginObject()
        writer.field("boardId", boardID)
        writer.field("revision", revision)
        return writer
    }
}
