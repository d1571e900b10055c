internal import CZlib

/// Decompresses one permessage-deflate message, frame by frame, keeping at most `limit` bytes
/// plus one, so a small message that inflates to gigabytes costs nothing but the limit.
///
/// One inflater per message: the server asks clients for client_no_context_takeover, so no
/// window outlives its message and an idle connection holds no zlib state.
public final class MessageInflater {
    public enum Failure: Error, Equatable {
        /// The bytes are not DEFLATE data.
        case corrupt(String)
    }

    /// How many bytes the message has inflated to so far, counted up to `limit + 1`.
    public private(set) var inflatedByteCount = 0
    /// Whether the message inflates to more than `limit` bytes; nothing more is inflated then.
    public var isOverLimit: Bool { inflatedByteCount > limit }
    /// Compressed bytes taken so far.
    public var consumedByteCount: Int { Int(stream.pointee.total_in) }

    private let limit: Int
    private let stream: UnsafeMutablePointer<z_stream>
    private var ended = false

    public init(limit: Int) {
        self.limit = limit
        stream = .allocate(capacity: 1)
        stream.initialize(to: z_stream())
        let status = inflateInit2_(stream, -MAX_WBITS, zlibVersion(), Int32(MemoryLayout<z_stream>.size))
        precondition(status == Z_OK, "inflateInit2 failed (\(status)): zlib is out of memory")
    }

    deinit {
        inflateEnd(stream)
        stream.deallocate()
    }

    /// Inflates the next part of the message. On its last part the sender's dropped sync-flush
    /// tail is put back first. Returns the new bytes, cut off once the message passes the limit.
    public func inflate(_ part: [UInt8], isLast: Bool) throws(Failure) -> [UInt8] {
        var input = part
        if isLast { input += MessageDeflate.flushTail }
        var output: [UInt8] = []
        guard !ended, !isOverLimit else { return output }
        var chunk = [UInt8](repeating: 0, count: 16_384)
        try input.withUnsafeBufferPointer { (input) throws(Failure) in
            stream.pointee.next_in = UnsafeMutablePointer(mutating: input.baseAddress)
            stream.pointee.avail_in = UInt32(input.count)
            while !isOverLimit {
                let room = min(chunk.count, limit + 1 - inflatedByteCount)
                let (status, produced) = chunk.withUnsafeMutableBufferPointer { out in
                    stream.pointee.next_out = out.baseAddress
                    stream.pointee.avail_out = UInt32(room)
                    let status = CZlib.inflate(stream, Z_SYNC_FLUSH)
                    return (status, room - Int(stream.pointee.avail_out))
                }
                output += chunk[..<produced]
                inflatedByteCount += produced
                switch status {
                case Z_OK where produced == room:
                    continue  // the output was full: there may be more
                case Z_OK, Z_BUF_ERROR:
                    return  // all input used and flushed (Z_BUF_ERROR: no progress was possible)
                case Z_STREAM_END:
                    ended = true  // the sender closed the stream with a final block: no more data
                    return
                default:
                    let reason = stream.pointee.msg.map { String(cString: $0) } ?? "zlib error \(status)"
                    throw .corrupt(reason)
                }
            }
        }
        stream.pointee.next_in = nil
        return output
    }
}
