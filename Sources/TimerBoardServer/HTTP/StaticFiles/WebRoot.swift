#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
// swift-metrics imports Dispatch, whose C module also includes <sys/stat.h>; in a release build
// the compiler then names it as the one that defines `stat`'s fields, and MemberImportVisibility
// wants it imported here too.
#if canImport(CDispatch)
import CDispatch
#endif

/// The browser client's folder on disk, as the static files reach it: a file is served only if it
/// is a regular file whose real path (every symlink resolved) lies inside the folder's real path
/// and passes no dot-named entry on the way. Every call blocks: run them on a thread pool.
struct WebRoot: Sendable {
    /// The folder as configured. It is resolved on every look-up, so a deploy that swaps a
    /// symlink to a new release is followed.
    let path: String

    /// A system call failed for a reason other than "no such file" (out of descriptors, I/O).
    struct FileSystemError: Error, CustomStringConvertible {
        let operation: String
        let code: Int32
        var description: String { "\(operation): \(String(cString: strerror(code)))" }
    }

    /// Opens the file a checked request path names, or nil when there is none to serve.
    func open(_ request: StaticPath) throws(FileSystemError) -> OpenFile? {
        guard let root = try Self.realPath(path) else { return nil }
        let candidate = request.relativePath.isEmpty ? root : root + "/" + request.relativePath
        guard let real = try Self.realPath(candidate) else { return nil }
        // Inside the root, and no dot-named entry in what the symlinks led to either.
        let prefix = root.hasSuffix("/") ? root : root + "/"
        guard real.hasPrefix(prefix), !real.dropFirst(prefix.count).split(separator: "/").contains(where: { $0.first == "." }) else {
            return nil
        }
        // Only regular files: a FIFO, a device or a socket would block or worse on open.
        var info = stat()
        guard stat(real, &info) == 0 else { return try Self.nothing("stat", errno) }
        guard info.st_mode & S_IFMT == S_IFREG else { return nil }
        let descriptor = openForReading(real)
        guard descriptor >= 0 else { return try Self.nothing("open", errno) }
        let file = OpenFile(descriptor: descriptor, name: String(real[real.index(after: real.lastIndex(of: "/")!)...]))
        do {
            guard try file.isRegular() else {
                file.close()
                return nil
            }
        } catch {
            file.close()
            throw error
        }
        return file
    }

    /// `realpath(3)`, or nil when the path does not lead to an entry this process may see.
    private static func realPath(_ path: String) throws(FileSystemError) -> String? {
        guard let resolved = realpath(path, nil) else { return try nothing("realpath", errno) }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// Nil for the errors that mean "no such file here" (404); the others are thrown (500).
    private static func nothing<T>(_ operation: String, _ code: Int32) throws(FileSystemError) -> T? {
        switch code {
        case ENOENT, ENOTDIR, EACCES, ELOOP, ENAMETOOLONG, EPERM: return nil
        default: throw FileSystemError(operation: operation, code: code)
        }
    }
}

/// One open regular file of the web root; `close()` it when done.
struct OpenFile: Sendable {
    let descriptor: Int32
    /// Its last path component, for the content type.
    let name: String

    fileprivate func isRegular() throws(WebRoot.FileSystemError) -> Bool {
        try status().st_mode & S_IFMT == S_IFREG
    }

    /// Size and modification time, read from the open file itself, so they describe the bytes read.
    func validators() throws(WebRoot.FileSystemError) -> FileValidators {
        let info = try status()
        #if canImport(Darwin)
        let modified = info.st_mtimespec
        #else
        let modified = info.st_mtim
        #endif
        return FileValidators(size: Int(info.st_size), modifiedSeconds: Int(modified.tv_sec), modifiedNanoseconds: Int(modified.tv_nsec))
    }

    /// Exactly the bytes of `range`; a file that shrank meanwhile is an error, never a short body.
    func read(_ range: ClosedRange<Int>) throws(WebRoot.FileSystemError) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: range.count)
        var done = 0
        while done < range.count {
            let count = bytes.withUnsafeMutableBytes { buffer in
                pread(descriptor, buffer.baseAddress! + done, range.count - done, off_t(range.lowerBound + done))
            }
            if count < 0 {
                if errno == EINTR { continue }
                throw WebRoot.FileSystemError(operation: "read", code: errno)
            }
            guard count > 0 else { throw WebRoot.FileSystemError(operation: "read (the file shrank while it was read)", code: EIO) }
            done += count
        }
        return bytes
    }

    func close() { closeDescriptor(descriptor) }

    private func status() throws(WebRoot.FileSystemError) -> stat {
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw WebRoot.FileSystemError(operation: "fstat", code: errno) }
        return info
    }
}

// At file scope, where `open` and `close` are the C functions and not the methods above.
// The real path has no symlinks left; O_NOFOLLOW keeps one swapped in since from being opened,
// and O_NONBLOCK keeps a FIFO swapped in from blocking the open.
private func openForReading(_ path: String) -> Int32 { open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK) }
private func closeDescriptor(_ descriptor: Int32) { _ = close(descriptor) }
