/// An endpoint a board's owner registered: where the board's events go, and which ones.
public struct WebhookEndpoint: Hashable, Sendable {
    /// `wh_…`, unique across boards.
    public let id: String
    public let boardID: String
    public let url: String
    /// `whsec_…` (base64 of the signing key): shown to the owner once, when the endpoint is made.
    public let secret: String
    /// Event type names (`timer.finished`, …), as registered.
    public let events: [String]
    /// Server epoch milliseconds.
    public let createdAt: Int64
    /// False once it failed for too long; nothing is sent to a disabled endpoint.
    public var enabled: Bool
    /// Why it was disabled, for its owner.
    public var disabledReason: String?
    /// When its current run of failures began; nil after a success.
    public var failingSince: Int64?

    public init(
        id: String,
        boardID: String,
        url: String,
        secret: String,
        events: [String],
        createdAt: Int64,
        enabled: Bool = true,
        disabledReason: String? = nil,
        failingSince: Int64? = nil
    ) {
        self.id = id
        self.boardID = boardID
        self.url = url
        self.secret = secret
        self.events = events
        self.createdAt = createdAt
        self.enabled = enabled
        self.disabledReason = disabledReason
        self.failingSince = failingSince
    }
}

/// One event on its way to one endpoint, in the store's outbox: it holds everything needed to
/// send it (the URL, the secret, the body), so it can be sent after a restart, by any node, and
/// after its board is gone (`board.deleted`).
public struct WebhookDelivery: Hashable, Sendable {
    /// `msg_…`: the `webhook-id` header, the same on every attempt, so a receiver can drop repeats.
    public let id: String
    public let webhookID: String
    public let boardID: String
    public let url: String
    public let secret: String
    /// The event type name.
    public let event: String
    /// The JSON body, sent as it is.
    public var payload: String
    public let createdAt: Int64
    /// When it is due (server epoch milliseconds).
    public var nextAttemptAt: Int64
    /// Attempts made so far.
    public var attempts: Int
    /// While unsent, a second delivery with this key replaces this one's payload instead of
    /// being added (`board.changed` is debounced this way); cleared once a send begins.
    public let coalesceKey: String?
    /// A delivery with this key is added once, ever (until `onceUntil`): a timer's warning that
    /// several nodes, or a board loaded again, would otherwise send twice.
    public let onceKey: String?
    public let onceUntil: Int64

    public init(
        id: String,
        webhookID: String,
        boardID: String,
        url: String,
        secret: String,
        event: String,
        payload: String,
        createdAt: Int64,
        nextAttemptAt: Int64,
        attempts: Int = 0,
        coalesceKey: String? = nil,
        onceKey: String? = nil,
        onceUntil: Int64 = 0
    ) {
        self.id = id
        self.webhookID = webhookID
        self.boardID = boardID
        self.url = url
        self.secret = secret
        self.event = event
        self.payload = payload
        self.createdAt = createdAt
        self.nextAttemptAt = nextAttemptAt
        self.attempts = attempts
        self.coalesceKey = coalesceKey
        self.onceKey = onceKey
        self.onceUntil = onceUntil
    }
}

/// One attempt to send a delivery, as its endpoint's owner sees it.
public struct WebhookAttempt: Hashable, Sendable {
    public let webhookID: String
    /// The delivery's `webhook-id`.
    public let messageID: String
    public let event: String
    /// When it began, server epoch milliseconds.
    public let time: Int64
    /// The HTTP status the endpoint answered, or nil when it answered none.
    public let status: Int?
    /// Why it failed without a status (refused address, timeout, connection refused, …).
    public let error: String?
    public let durationMs: Int64

    public init(webhookID: String, messageID: String, event: String, time: Int64, status: Int?, error: String?, durationMs: Int64) {
        self.webhookID = webhookID
        self.messageID = messageID
        self.event = event
        self.time = time
        self.status = status
        self.error = error
        self.durationMs = durationMs
    }
}

/// What an attempt means for its delivery, decided by the dispatcher.
public enum WebhookAttemptOutcome: Hashable, Sendable {
    /// A 2xx: the delivery leaves the outbox and the endpoint is no longer failing.
    case delivered
    /// Try again at this instant.
    case retry(at: Int64)
    /// No more attempts: the delivery leaves the outbox.
    case failed
}

/// The recent attempts kept per endpoint.
public let webhookAttemptsKept = 20
