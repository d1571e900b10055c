import Foundation

// On Linux a release build may take `rusage`'s `timeval` as defined by Dispatch's C module (which
// includes the same system headers) and then asks for that module's import (as in WebRoot.swift).
#if canImport(CDispatch)
import CDispatch
#endif

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What Prometheus's `process_*` metrics report, read from the kernel when `/metrics` is
/// scraped: getrusage and getrlimit, and on Linux /proc/self (all a hardened systemd unit's
/// `ProcSubset=pid` leaves readable). A value the system does not give is nil and not shown.
struct ProcessStats: Sendable {
    /// User and system CPU time, in seconds.
    var cpuSeconds: Double
    /// File descriptors open now (Linux: /proc/self/fd).
    var openFiles: Int?
    /// The soft limit on open file descriptors.
    var maxFiles: Int?
    /// Resident and virtual memory, in bytes (Linux: /proc/self/statm).
    var residentBytes: Int?
    var virtualBytes: Int?
    /// When the process started, in seconds since the epoch.
    var startTime: Double

    static func read() -> ProcessStats {
        var usage = rusage()
        #if canImport(Glibc)
        getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
        #else
        getrusage(RUSAGE_SELF, &usage)
        #endif
        let cpu =
            Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6 + Double(usage.ru_stime.tv_sec)
            + Double(usage.ru_stime.tv_usec) / 1e6
        var stats = ProcessStats(cpuSeconds: cpu, startTime: ProcessStart.seconds)
        var limit = rlimit()
        #if canImport(Glibc)
        let resource = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
        #else
        let resource = RLIMIT_NOFILE
        #endif
        if getrlimit(resource, &limit) == 0, limit.rlim_cur < rlim_t(Int32.max) { stats.maxFiles = Int(limit.rlim_cur) }
        #if os(Linux)
        // Less the descriptor that reads the folder.
        if let entries = try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd") { stats.openFiles = entries.count - 1 }
        if let (virtual, resident) = memoryBytes() {
            stats.virtualBytes = virtual
            stats.residentBytes = resident
        }
        #endif
        return stats
    }
}

/// When this process started, in seconds since the epoch: noted by `main` first thing
/// (`_ = ProcessStart.seconds`), or by the first application built, whichever comes first.
public enum ProcessStart {
    public static let seconds = Date().timeIntervalSince1970
}

extension ProcessStats {
    /// Resident memory in bytes now (Linux), nil elsewhere.
    static func residentBytes() -> Int? {
        memoryBytes()?.resident
    }

    /// Virtual and resident memory in bytes, from /proc/self/statm (Linux).
    private static func memoryBytes() -> (virtual: Int, resident: Int)? {
        #if os(Linux)
        guard let statm = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return nil }
        let pages = statm.split(separator: " ").compactMap { Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
        guard pages.count >= 2 else { return nil }
        let pageSize = Int(sysconf(Int32(_SC_PAGESIZE)))
        return (pages[0] * pageSize, pages[1] * pageSize)
        #else
        return nil
        #endif
    }
}
