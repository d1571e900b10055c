import NIOCore
import Testing

@testable import TimerBoardTransport

@Suite struct SmallReadBuffersTests {
    /// The channel keeps its allocator as an existential: state of at most three words sits
    /// inside it, more takes a heap box for the connection's life (NIO's own takes 56 bytes).
    @Test func itsStateFitsInsideTheChannelsExistential() {
        #expect(MemoryLayout<SmallReadBuffers>.size <= 3 * MemoryLayout<Int>.size)
        #expect(MemoryLayout<AdaptiveRecvByteBufferAllocator>.size > 3 * MemoryLayout<Int>.size)
    }

    /// The same sizes as NIO's adaptive allocator with these bounds, read for read.
    @Test func itSizesBuffersAsNIOsAdaptiveAllocatorDoes() {
        var ours = SmallReadBuffers()
        var nios = AdaptiveRecvByteBufferAllocator(minimum: SmallReadBuffers.minimum, initial: SmallReadBuffers.initial, maximum: SmallReadBuffers.maximum)
        // Full reads up past the maximum, small ones down past the minimum, and in between.
        let reads = Array(repeating: 70_000, count: 12) + Array(repeating: 1, count: 30) + [256, 128, 129, 64, 64, 300, 10, 500, 512, 40, 40, 40]
        for read in reads {
            #expect(ours.nextBufferSize() == nios.nextBufferSize())
            let (oursGrew, niosGrew) = (ours.record(actualReadBytes: read), nios.record(actualReadBytes: read))
            #expect(oursGrew == niosGrew)
        }
        #expect(ours.nextBufferSize() == nios.nextBufferSize())
    }

    @Test func aFullReadDoublesTheNextBufferAndTwoHalfEmptyOnesHalveIt() {
        var sizes = SmallReadBuffers()
        #expect(sizes.nextBufferSize() == 256)
        #expect(sizes.record(actualReadBytes: 256) == true)
        #expect(sizes.nextBufferSize() == 512)
        #expect(sizes.record(actualReadBytes: 100) == false)
        #expect(sizes.nextBufferSize() == 512)
        #expect(sizes.record(actualReadBytes: 100) == false)
        #expect(sizes.nextBufferSize() == 256)
        #expect(sizes.buffer(allocator: ByteBufferAllocator()).capacity >= 256)
    }
}
