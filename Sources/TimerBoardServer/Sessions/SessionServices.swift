import Logging

/// What every session uses and none owns: the server's configuration, metrics, edit budgets,
/// boards, clock and logger, made once and held by reference. A connection that idles for hours
/// then holds one pointer here instead of its own copies of the clock, logger and registry.
final class SessionServices: Sendable {
    let configuration: ServerConfiguration
    let metrics: ServerMetrics
    /// Edits and joins per client address and edits per board, shared with the HTTP edits.
    let editBudgets: SharedEditBudgets
    let registry: BoardRegistry
    let clock: any ServerClock
    let logger: Logger

    init(
        configuration: ServerConfiguration,
        metrics: ServerMetrics,
        editBudgets: SharedEditBudgets,
        registry: BoardRegistry,
        clock: any ServerClock,
        logger: Logger
    ) {
        self.configuration = configuration
        self.metrics = metrics
        self.editBudgets = editBudgets
        self.registry = registry
        self.clock = clock
        self.logger = logger
    }
}
