import NIOCore

/// How big a connection's next read buffer is: NIO's adaptive sizing
/// (`AdaptiveRecvByteBufferAllocator`: twice as big after a read that filled the buffer, half
/// after two reads in a row that filled at most half), between 64 bytes and 64 KB, from 256.
///
/// The bounds are constants here, not stored: 9 bytes of state fit inside the channel's
/// `RecvByteBufferAllocator` existential, where NIO's 33 bytes take a 56-byte heap box on every
/// connection for its whole life (docs/performance.md).
struct SmallReadBuffers: RecvByteBufferAllocator {
    static let minimum = 64
    static let initial = 256
    static let maximum = 65_536

    private var nextSize = Self.initial
    /// The last read filled at most half a buffer: one more such read halves the next.
    private var decreaseNow = false

    func buffer(allocator: ByteBufferAllocator) -> ByteBuffer {
        allocator.buffer(capacity: nextSize)
    }

    func nextBufferSize() -> Int? {
        nextSize
    }

    /// Returns whether the next buffer is bigger, as NIO's allocator does.
    mutating func record(actualReadBytes: Int) -> Bool {
        if actualReadBytes <= nextSize / 2, nextSize / 2 >= Self.minimum {
            if decreaseNow { nextSize /= 2 }
            decreaseNow.toggle()
            return false
        }
        decreaseNow = false
        guard actualReadBytes >= nextSize, nextSize * 2 <= Self.maximum else { return false }
        nextSize *= 2
        return true
    }
}
