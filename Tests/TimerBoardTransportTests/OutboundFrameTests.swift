import NIOCore
import Testing

@testable import TimerBoardTransport

/// The server frames its messages itself (once per changeset, for every subscriber), so the
/// header must follow RFC 6455 §5.2 at each length boundary.
@Suite struct OutboundFrameTests {
    @Test(arguments: [0, 1, 125, 126, 127, 65_535, 65_536, 70_000])
    func headerCarriesTheLengthInTheSmallestForm(length: Int) throws {
        let payload = [UInt8](repeating: UInt8(ascii: "x"), count: length)
        let frame = OutboundFrame(payload: payload).bytes
        let bytes = try #require(frame.getBytes(at: frame.readerIndex, length: frame.readableBytes))
        #expect(bytes[0] == 0x81, "FIN and the text opcode")
        let (declared, headerLength): (Int, Int) =
            switch bytes[1] {
            case 126: (Int(bytes[2]) << 8 | Int(bytes[3]), 4)
            case 127: (bytes[2..<10].reduce(0) { $0 << 8 | Int($1) }, 10)
            default: (Int(bytes[1]), 2)
            }
        #expect(bytes[1] & 0x80 == 0, "a server never masks")
        #expect(declared == length)
        #expect(headerLength == (length < 126 ? 2 : length < 65_536 ? 4 : 10))
        #expect(Array(bytes[headerLength...]) == payload)
    }
}
