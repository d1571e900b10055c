import Foundation

/// The golden JSON fixtures in Tests/Fixtures/protocol, shared with the JavaScript tests.
enum Fixtures {
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/protocol")

    /// Every fixture file of one direction ("client" or "server"), by file name.
    static func all(_ direction: String) -> [String] {
        let folder = root.appendingPathComponent(direction)
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.filter { $0.hasSuffix(".json") }.sorted().map { "\(direction)/\($0)" }
    }

    static func data(_ name: String) throws -> Data {
        try Data(contentsOf: root.appendingPathComponent(name))
    }
}
