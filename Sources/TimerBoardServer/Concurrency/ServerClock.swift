import Foundation

/// The server's wall clock in epoch milliseconds; injected so tests can control time.
public protocol ServerClock: Sendable {
    func now() -> Int64
    /// Returns at `deadline` (epoch milliseconds) or later; throws when the task is cancelled.
    func sleep(until deadline: Int64) async throws
}

/// The system's real clock.
public struct SystemClock: ServerClock {
    public init() {}

    public func now() -> Int64 {
        Int64((Date().timeIntervalSince1970 * 1000).rounded())
    }

    public func sleep(until deadline: Int64) async throws {
        let delay = deadline - now()
        if delay > 0 { try await Task.sleep(for: .milliseconds(delay)) }
        try Task.checkCancellation()
    }
}
