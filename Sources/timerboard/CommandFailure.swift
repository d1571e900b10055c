/// An operator command that was given right but could not do its work (no such board, a
/// server that refused, a database away): ArgumentParser prints `Error:` and this, without the
/// usage a `ValidationError` adds, and the command exits 1, not 64 (a usage mistake).
struct CommandFailure: Error, CustomStringConvertible {
    let description: String

    init(_ description: String) {
        self.description = description
    }
}
