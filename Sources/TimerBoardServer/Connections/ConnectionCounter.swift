import Synchronization

/// Numbers connections (WebSockets and event streams alike) for logs and for the rooms'
/// subscriber tables, where no two may share an id.
final class ConnectionCounter: Sendable {
    private let count = Atomic<Int>(0)

    func next() -> Int {
        count.wrappingAdd(1, ordering: .relaxed).newValue
    }
}
