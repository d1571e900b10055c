import Foundation

/// The measured server's process, read from /proc. CPU time per delivery and memory per
/// connection hold up on a shared machine where wall-clock figures swing with the neighbours.
public struct ServerProcess: Sendable {
    public let pid: Int32

    public init(pid: Int32) {
        self.pid = pid
    }

    /// User plus system CPU time so far, in seconds.
    public func cpuSeconds() -> Double? {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let afterName = stat.lastIndex(of: ")")
        else { return nil }
        // Fields after "(name)": state is field 3, utime 14, stime 15 (proc(5)).
        let fields = stat[stat.index(after: afterName)...].split(separator: " ")
        guard fields.count > 12, let user = Double(fields[11]), let system = Double(fields[12]) else { return nil }
        return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }

    /// Resident memory, in bytes.
    public func residentMemory() -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return nil }
        for line in status.split(separator: "\n") where line.hasPrefix("VmRSS:") {
            let kilobytes = line.split(separator: " ").compactMap { Int($0) }.first
            return kilobytes.map { $0 * 1024 }
        }
        return nil
    }
}
