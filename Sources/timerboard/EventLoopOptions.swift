import ArgumentParser
import Foundation
import NIOCore

/// `serve`'s event loops, the threads that read and write every connection. NIO sizes them by
/// the machine's cores (or a cgroup's quota) and not by the CPUs the process may run on: under
/// `taskset -c 0` a 16-core machine got 16 loops on one core, and every broadcast woke them all
/// to take turns on it (docs/performance.md, issue 33).
struct EventLoopOptions: ParsableArguments {
    @Option(help: "Event loops (threads) for the connections; default: one for each CPU this process may run on.")
    var eventLoops: Int?

    func validate() throws {
        if let eventLoops, !(1...1024).contains(eventLoops) { throw ValidationError("--event-loops must be between 1 and 1024") }
    }

    /// How many loops `serve` runs: the option, else NIO's own variable where an operator set it,
    /// else the CPUs this process may use, at most NIO's core count (which honours a CPU quota).
    var count: Int? {
        if let eventLoops { return eventLoops }
        if ProcessInfo.processInfo.environment["NIO_SINGLETON_GROUP_LOOP_COUNT"] != nil { return nil }
        return CPUAffinity.allowedCount().map { min($0, System.coreCount) }
    }

    /// Sizes NIO's shared loops, which the server runs on: before anything has used them.
    func apply() {
        if let count { NIOSingletons.groupLoopCountSuggestion = count }
    }
}

/// The CPUs the scheduler may run this process on (`taskset`, a cpuset), from `/proc/self/status`:
/// Swift's Glibc module does not offer `sched_getaffinity`.
enum CPUAffinity {
    static func allowedCount(status path: String = "/proc/self/status") -> Int? {
        guard let status = try? String(contentsOfFile: path, encoding: .utf8) else { return nil }
        return allowedCount(fromStatus: status)
    }

    /// Counts the bits of the `Cpus_allowed:` mask (hex words separated by commas).
    static func allowedCount(fromStatus status: String) -> Int? {
        guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix("Cpus_allowed:") }) else { return nil }
        var count = 0
        for digit in line.dropFirst("Cpus_allowed:".count) where digit != "," && !digit.isWhitespace {
            guard let value = digit.hexDigitValue else { return nil }
            count += value.nonzeroBitCount
        }
        return count > 0 ? count : nil
    }
}
