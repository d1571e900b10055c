import Prometheus
import Synchronization

/// Prometheus's standard process metrics (the names every exporter uses, so dashboards made
/// for any process work here).
final class ProcessGauges: Sendable {
    let cpu: Counter
    /// The CPU time already added to `cpu`: a counter only goes up, by what was spent since.
    private let cpuCounted = Mutex(0.0)
    let openFiles: Gauge
    let maxFiles: Gauge
    let resident: Gauge
    let virtual: Gauge
    let start: Gauge

    init(registry: PrometheusCollectorRegistry) {
        cpu = registry.makeCounter(descriptor: .named("process_cpu_seconds_total", "Total user and system CPU time spent in seconds."))
        openFiles = registry.makeGauge(descriptor: .named("process_open_fds", "Number of open file descriptors."))
        maxFiles = registry.makeGauge(descriptor: .named("process_max_fds", "Maximum number of open file descriptors."))
        resident = registry.makeGauge(descriptor: .named("process_resident_memory_bytes", "Resident memory size in bytes."))
        virtual = registry.makeGauge(descriptor: .named("process_virtual_memory_bytes", "Virtual memory size in bytes."))
        start = registry.makeGauge(descriptor: .named("process_start_time_seconds", "Start time of the process since unix epoch in seconds."))
    }

    func record(_ stats: ProcessStats) {
        let spent = cpuCounted.withLock { counted in
            defer { counted = max(counted, stats.cpuSeconds) }
            return max(stats.cpuSeconds - counted, 0)
        }
        if spent > 0 { cpu.increment(by: spent) }
        start.set(stats.startTime)
        if let value = stats.openFiles { openFiles.set(Int64(value)) }
        if let value = stats.maxFiles { maxFiles.set(Int64(value)) }
        if let value = stats.residentBytes { resident.set(Int64(value)) }
        if let value = stats.virtualBytes { virtual.set(Int64(value)) }
    }
}
