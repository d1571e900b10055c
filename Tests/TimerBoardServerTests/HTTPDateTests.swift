import Testing

@testable import TimerBoardServer

@Suite struct HTTPDateTests {
    @Test(
        arguments: [
            (0, "Thu, 01 Jan 1970 00:00:00 GMT"),
            (784_111_777, "Sun, 06 Nov 1994 08:49:37 GMT"),  // RFC 9110's example
            (951_782_400, "Tue, 29 Feb 2000 00:00:00 GMT"),
            (1_795_474_099, "Mon, 23 Nov 2026 22:48:19 GMT"),
            (4_102_444_799, "Thu, 31 Dec 2099 23:59:59 GMT"),
        ]
    )
    func formatsAndParsesBack(seconds: Int, text: String) {
        #expect(HTTPDate.format(seconds) == text)
        #expect(HTTPDate.parse(text) == seconds)
    }

    @Test(
        arguments: [
            "Sunday, 06-Nov-94 08:49:37 GMT",  // RFC 850: obsolete, not accepted
            "Sun Nov  6 08:49:37 1994",  // asctime
            "Sun, 06 Nov 1994 08:49:37 UTC",
            "Sun, 6 Nov 1994 08:49:37 GMT",
            "Sun, 06 Nov 1994 24:00:00 GMT",
            "Sun, 06 Foo 1994 08:49:37 GMT",
            "",
        ]
    )
    func refusesOtherForms(text: String) {
        #expect(HTTPDate.parse(text) == nil)
    }
}
