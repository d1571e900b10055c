#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Every connection is an open file. Processes start with a soft limit (often 1,024) far below
/// what the system allows them (the hard limit), so the server raises its own to the hard limit
/// at start; what is left is the operator's to raise (`ulimit -Hn`, systemd's `LimitNOFILE`).
public enum OpenFileLimit {
    /// Raises the soft limit to the hard one; returns both afterwards (nil if it cannot be read).
    @discardableResult
    public static func raiseToHardLimit() -> (soft: UInt64, hard: UInt64)? {
        var limit = rlimit()
        guard getrlimit(resource, &limit) == 0 else { return nil }
        if limit.rlim_cur < limit.rlim_max {
            var raised = limit
            raised.rlim_cur = limit.rlim_max
            if setrlimit(resource, &raised) == 0 { limit = raised }
        }
        return (UInt64(limit.rlim_cur), UInt64(limit.rlim_max))
    }

    /// The soft limit now, or nil when it cannot be read or is unlimited.
    public static var current: Int? {
        var limit = rlimit()
        guard getrlimit(resource, &limit) == 0, limit.rlim_cur < rlim_t(Int32.max) else { return nil }
        return Int(limit.rlim_cur)
    }

    /// Descriptors kept out of the connection cap for everything else a server opens: the
    /// store's files and pool, static files, webhook deliveries, the event loops, and
    /// connections over a cap that wait to be refused (`ConnectionGuard.Settings.maxRefusing`).
    static func reserve(softLimit: Int) -> Int {
        min(max(128, softLimit / 8), 1_024)
    }

    /// `configured` connections, or fewer when the process could not open that many files and
    /// keep its reserve: running out of descriptors must never be what stops a connection.
    static func connectionCap(configured: Int, softLimit: Int?) -> Int {
        guard let softLimit else { return configured }
        return max(1, min(configured, softLimit - reserve(softLimit: softLimit)))
    }

    #if canImport(Glibc)
    private static let resource = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
    #else
    private static let resource = RLIMIT_NOFILE
    #endif
}
