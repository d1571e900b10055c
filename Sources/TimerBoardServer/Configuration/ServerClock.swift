import Foundation

/// The server's wall clock in epoch milliseconds; injected so tests can control time.
public protocol ServerClock: Sendable {
    func now() -> Int64
}

/// The system's real clock.
public struct SystemClock: ServerClock {
    public init() {}

    public func now() -> Int64 {
        Int64((Date().timeIntervalSince1970 * 1000).rounded())
    }
}
