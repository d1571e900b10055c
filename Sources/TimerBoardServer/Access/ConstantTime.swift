/// Comparing secrets in time that does not depend on where the bytes differ, so a timing
/// attack cannot learn a secret byte by byte.
enum ConstantTime {
    static func equal(_ a: some Collection<UInt8>, _ b: some Collection<UInt8>) -> Bool {
        guard a.count == b.count else { return false }
        return zip(a, b).reduce(UInt8(0)) { $0 | ($1.0 ^ $1.1) } == 0
    }
}
