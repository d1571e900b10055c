import Testing

@testable import TimerBoardServer

@Suite struct ByteRangeTests {
    @Test(
        arguments: [
            (nil, 100, ByteRange.whole),
            ("bytes=0-9", 100, .partial(0...9)),
            ("bytes=10-", 100, .partial(10...99)),
            ("bytes=-10", 100, .partial(90...99)),  // the last ten
            ("bytes=-1000", 100, .partial(0...99)),  // more than there is: all of it
            ("bytes=50-1000", 100, .partial(50...99)),  // clamped to the end
            ("bytes=0-99999999999999999999999", 100, .partial(0...99)),  // beyond Int
            ("Bytes = 0-9 ", 100, .whole),  // no space allowed before `=`
            (" BYTES=0-9", 100, .partial(0...9)),  // the unit is case-insensitive
            ("bytes=99-99", 100, .partial(99...99)),
            ("bytes=100-", 100, .unsatisfiable),
            ("bytes=100-200", 100, .unsatisfiable),
            ("bytes=99999999999999999999999-", 100, .unsatisfiable),
            ("bytes=-0", 100, .unsatisfiable),
            ("bytes=-5", 0, .unsatisfiable),  // an empty file has no last bytes
            ("bytes=0-", 0, .unsatisfiable),
            // What the server may ignore: the whole file.
            ("bytes=0-1,5-9", 100, .whole),
            ("items=0-9", 100, .whole),
            ("bytes=9-0", 100, .whole),
            ("bytes=abc", 100, .whole),
            ("bytes=", 100, .whole),
            ("bytes=-", 100, .whole),
            ("bytes=+1-2", 100, .whole),
            ("bytes=0x1-2", 100, .whole),
        ] as [(String?, Int, ByteRange)]
    )
    func ranges(header: String?, size: Int, expected: ByteRange) {
        #expect(ByteRange(header: header, size: size) == expected)
    }
}
