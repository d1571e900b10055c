/// Writes to the store that must land in the order they were started: each waits for the one
/// before, so the store ends with the room's last links, not whichever write landed last.
struct SerialWrites {
    private var last: Task<Void, any Error>?

    /// Starts `write` once the write before it has ended (either way); returns its task.
    mutating func then(_ write: @escaping @Sendable () async throws -> Void) -> Task<Void, any Error> {
        let previous = last
        let task = Task {
            _ = await previous?.result
            try await write()
        }
        last = task
        return task
    }
}
