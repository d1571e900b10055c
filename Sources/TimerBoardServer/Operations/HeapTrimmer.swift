import ServiceLifecycle

#if os(Linux)
import CMalloc
#endif

/// Gives the heap's free pages back to the kernel every `interval` (glibc's `malloc_trim`).
///
/// glibc keeps what a thread frees in that thread's arena, and gives pages back to the kernel only
/// from an arena's top. What a board's broadcast to thousands of connections or a storm of joins
/// allocated for a moment (the broadcast's list of sends, a presence list's set of users, each
/// handshake's buffers) ends up between the connections' long-lived objects and stays resident:
/// 100-550 bytes per idle connection at 15,000 (docs/performance.md). jemalloc and Go's runtime
/// give such pages back on their own after about ten seconds; glibc does only when asked. A trim
/// walks every arena's free chunks, each under its lock: 1-8 ms at 15,000 connections, once 30
/// during a storm of joins, once per interval.
struct HeapTrimmer: Service {
    let interval: Duration
    let metrics: ServerMetrics

    func run() async throws {
        #if os(Linux)
        await cancelWhenGracefulShutdown {
            while true {
                // Cancelled when the server stops: a normal end.
                guard (try? await Task.sleep(for: interval)) != nil else { return }
                trim()
            }
        }
        #endif
    }

    #if os(Linux)
    private func trim() {
        let before = ProcessStats.residentBytes()
        malloc_trim(0)
        let after = ProcessStats.residentBytes()
        metrics.heapTrimmed(bytes: max(0, (before ?? 0) - (after ?? 0)))
    }
    #endif
}
