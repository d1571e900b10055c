import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// "A server serves this data directory, at this address": the file `timerboard.serving`,
/// locked (`flock`) by the server for as long as it runs (the kernel lets go when the process
/// ends, however it ends) and holding its local URL. An operator's command that must not
/// change the database behind a running server's back (`reset-links`) asks that server
/// instead; a second server on the same directory is refused at start.
public final class ServingMark: Sendable {
    private let descriptor: Int32

    private init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    public static func path(dataDirectory: String) -> String { dataDirectory + "/timerboard.serving" }

    /// Another server holds the mark.
    public struct Taken: Error, CustomStringConvertible {
        public let description: String
    }

    /// Takes the mark for this process, or throws `Taken` when a server runs on the directory.
    public static func take(dataDirectory: String) throws -> ServingMark {
        let path = path(dataDirectory: dataDirectory)
        let descriptor = open(path, O_CREAT | O_RDWR | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw Taken(description: "cannot open \(path): \(String(cString: strerror(errno)))") }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            let holder = read(descriptor).map { " (\($0.url), pid \($0.pid))" } ?? ""
            close(descriptor)
            throw Taken(description: "another server serves \(dataDirectory)\(holder); stop it first, or give this one another --data-directory")
        }
        let mark = ServingMark(descriptor: descriptor)
        mark.write("")
        return mark
    }

    /// Writes where this server answers, once it listens.
    public func announce(url: String) {
        write("\(url)\n\(getpid())\n")
    }

    /// The server serving `dataDirectory` now, if one does.
    public static func server(dataDirectory: String) -> (url: String, pid: String)? {
        let descriptor = open(path(dataDirectory: dataDirectory), O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        // A shared lock is had only when no server holds the exclusive one.
        if flock(descriptor, LOCK_SH | LOCK_NB) == 0 {
            flock(descriptor, LOCK_UN)
            return nil
        }
        return read(descriptor) ?? ("", "?")
    }

    private static func read(_ descriptor: Int32) -> (url: String, pid: String)? {
        var bytes = [UInt8](repeating: 0, count: 512)
        let count = pread(descriptor, &bytes, bytes.count, 0)
        guard count > 0 else { return nil }
        let lines = String(decoding: bytes[..<count], as: UTF8.self).split(separator: "\n").map(String.init)
        guard lines.count >= 2 else { return nil }
        return (lines[0], lines[1])
    }

    private func write(_ text: String) {
        _ = ftruncate(descriptor, 0)
        let bytes = Array(text.utf8)
        _ = bytes.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, $0.count, 0) }
    }

    deinit {
        close(descriptor)
    }
}
