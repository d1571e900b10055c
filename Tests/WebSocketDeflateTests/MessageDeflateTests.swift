import PropertyBased
import TestSupport
import Testing
import WebSocketDeflate

@Suite struct MessageDeflateTests {
    /// RFC 7692 §7.2.3.1: "Hello" compressed in one block, without the 00 00 ff ff tail.
    static let helloFromTheRFC: [UInt8] = [0xF2, 0x48, 0xCD, 0xC9, 0xC9, 0x07, 0x00]

    @Test func inflatesTheRFCExample() throws {
        let inflater = MessageInflater(limit: 1_000)
        #expect(try inflater.inflate(Self.helloFromTheRFC, isLast: true) == Array("Hello".utf8))
    }

    /// §7.2.3.3: the same message ended by a final block (BFINAL set), which a sender may use.
    @Test func inflatesAMessageEndedByAFinalBlock() throws {
        let inflater = MessageInflater(limit: 1_000)
        let withFinalBlock: [UInt8] = [0xF3, 0x48, 0xCD, 0xC9, 0xC9, 0x07, 0x00, 0x00]
        #expect(try inflater.inflate(withFinalBlock, isLast: true) == Array("Hello".utf8))
    }

    @Test func compressedMessagesDropTheFlushTail() {
        let compressed = MessageDeflate.compress(Array("Hello".utf8))
        #expect(compressed == Self.helloFromTheRFC)
    }

    /// Any message, compressed and split into any frames, inflates back to itself.
    @Test func roundTripsSplitAcrossFrames() async throws {
        await propertyCheck(count: 300, input: Gen.int(in: 0...Int.max)) { seed in
            var rng = SeededGenerator(seed: seed)
            let message = Self.jsonLikeBytes(count: Int.random(in: 0...40_000, using: &rng), using: &rng)
            let compressed = MessageDeflate.compress(message)
            var parts: [[UInt8]] = []
            var rest = compressed[...]
            while !rest.isEmpty {
                let size = Int.random(in: 1...max(1, rest.count), using: &rng)
                parts.append(Array(rest.prefix(size)))
                rest = rest.dropFirst(size)
            }
            if parts.isEmpty { parts = [[]] }
            let inflater = MessageInflater(limit: 1 << 20)
            var inflated: [UInt8] = []
            for (index, part) in parts.enumerated() {
                inflated += (try? inflater.inflate(part, isLast: index == parts.count - 1)) ?? [0xEE]
            }
            #expect(inflated == message)
            #expect(!inflater.isOverLimit)
        }
    }

    /// A few kilobytes that inflate to 10 MB stop at the limit plus one byte.
    @Test func stopsInflatingPastTheLimit() throws {
        let bomb = MessageDeflate.compress([UInt8](repeating: 0x20, count: 10 << 20), level: 9)
        #expect(bomb.count < 20_000)
        let inflater = MessageInflater(limit: 1 << 20)
        var total = 0
        for start in stride(from: 0, to: bomb.count, by: 1_000) {
            let part = Array(bomb[start..<min(start + 1_000, bomb.count)])
            total += try inflater.inflate(part, isLast: start + 1_000 >= bomb.count).count
        }
        #expect(total == (1 << 20) + 1)
        #expect(inflater.isOverLimit)
        #expect(inflater.inflatedByteCount == (1 << 20) + 1)
    }

    @Test func rejectsBytesThatAreNotDeflate() {
        // Block type 11 is reserved: no DEFLATE stream starts like this.
        let inflater = MessageInflater(limit: 1_000)
        #expect(throws: MessageInflater.Failure.self) { try inflater.inflate([0xFF, 0xFF, 0xFF, 0xFF], isLast: true) }
    }

    /// Snapshot-like text: repeated keys with varying values, so it compresses as JSON does.
    static func jsonLikeBytes(count: Int, using rng: inout SeededGenerator) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(count)
        while bytes.count < count {
            bytes += Array(
                #"{"id":"t\#(Int.random(in: 0..<10_000, using: &rng))","title":"Timer","minutes":\#(Int.random(in: 0..<60, using: &rng))},"#.utf8
            )
            if Bool.random(using: &rng) { bytes.append(UInt8.random(in: 0...255, using: &rng)) }
        }
        return Array(bytes.prefix(count))
    }
}
