extension Duration {
    /// Whole milliseconds, for the server clock's epoch-millisecond arithmetic.
    var milliseconds: Int64 {
        components.seconds * 1_000 + components.attoseconds / 1_000_000_000_000_000
    }
}
