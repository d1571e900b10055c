/// The events a board's webhooks can ask for (docs/protocol.md, "Webhooks"): names are stable.
enum WebhookEventType: String, CaseIterable, Sendable {
    case timerStarted = "timer.started"
    case timerPaused = "timer.paused"
    case timerFinished = "timer.finished"
    case timerWarning = "timer.warning"
    case sequenceAdvanced = "sequence.advanced"
    /// A message shown on the board's screens (`showMessage`).
    case messageShown = "message.shown"
    /// Debounced: one per endpoint per `--webhook-debounce-ms`, with the latest revision.
    case boardChanged = "board.changed"
    case boardDeleted = "board.deleted"
}
