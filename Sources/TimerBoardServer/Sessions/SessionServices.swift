import Logging
import TimerBoardTransport

/// What every session uses and none owns: the server's configuration, metrics, edit budgets,
/// boards, heartbeat, clock and logger, made once and held by reference. A connection that idles for hours
/// then holds one pointer here instead of its own copies of the clock, logger and registry.
final class SessionServices: Sendable {
    let configuration: ServerConfiguration
    let metrics: ServerMetrics
    /// Edits and joins per client address and edits per board, shared with the HTTP edits.
    let editBudgets: SharedEditBudgets
    let registry: BoardRegistry
    /// Pings every connection; a session takes its connection off when it closes.
    let heartbeat: Heartbeat
    let clock: any ServerClock
    let logger: Logger

    init(
        configuration: ServerConfiguration,
        metrics: ServerMetrics,
        editBudgets: SharedEditBudgets,
        registry: BoardRegistry,
        heartbeat: Heartbeat,
        clock: any ServerClock,
        logger: Logger
    ) {
        self.configuration = configuration
        self.metrics = metrics
        self.editBudgets = editBudgets
        self.registry = registry
        self.heartbeat = heartbeat
        self.clock = clock
        self.logger = logger
    }
}
