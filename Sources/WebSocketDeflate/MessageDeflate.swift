internal import CZlib

/// Compresses whole WebSocket messages for permessage-deflate (RFC 7692 §7.2.1): raw DEFLATE
/// with no zlib header, ended by a sync flush whose closing 00 00 ff ff is left off.
///
/// Every call starts from an empty window (no context takeover), so one compressed message
/// can be sent unchanged to every connection that negotiated the extension.
public enum MessageDeflate {
    /// The bytes every sync flush ends with; the sender drops them and the receiver adds them back.
    public static let flushTail: [UInt8] = [0x00, 0x00, 0xFF, 0xFF]

    /// - Parameter level: zlib's 1 (fastest) to 9 (smallest). A snapshot is compressed once per
    ///   revision and sent to many, but 1 already gives most of the saving (docs/performance.md).
    public static func compress(_ message: [UInt8], level: Int32 = 1) -> [UInt8] {
        // zlib's state points back at its z_stream, so the stream needs a fixed address.
        let stream = UnsafeMutablePointer<z_stream>.allocate(capacity: 1)
        stream.initialize(to: z_stream())
        defer {
            deflateEnd(stream)
            stream.deallocate()
        }
        let status = deflateInit2_(stream, level, Z_DEFLATED, -MAX_WBITS, 8, Z_DEFAULT_STRATEGY, zlibVersion(), Int32(MemoryLayout<z_stream>.size))
        precondition(status == Z_OK, "deflateInit2 failed (\(status)): zlib is out of memory")

        // deflateBound covers the data; a sync flush adds at most a few bytes more.
        var output = [UInt8](repeating: 0, count: Int(deflateBound(stream, UInt(message.count))) + 16)
        let produced = message.withUnsafeBufferPointer { input in
            output.withUnsafeMutableBufferPointer { out -> Int in
                stream.pointee.next_in = UnsafeMutablePointer(mutating: input.baseAddress)
                stream.pointee.avail_in = UInt32(input.count)
                stream.pointee.next_out = out.baseAddress
                stream.pointee.avail_out = UInt32(out.count)
                let result = deflate(stream, Z_SYNC_FLUSH)
                precondition(result == Z_OK && stream.pointee.avail_in == 0 && stream.pointee.avail_out > 0, "deflate did not finish in its bound")
                return out.count - Int(stream.pointee.avail_out)
            }
        }
        precondition(Array(output[(produced - 4)..<produced]) == flushTail)
        output.removeSubrange((produced - 4)...)
        return output
    }
}
