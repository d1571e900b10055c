import Testing

@testable import TimerBoardServer

@Suite struct OpenFileLimitTests {
    @Test func theConnectionCapKeepsAReserveOfFilesBelowTheProcessLimit() {
        #expect(OpenFileLimit.connectionCap(configured: 10_000, softLimit: 1_024) == 1_024 - 128)
        #expect(OpenFileLimit.connectionCap(configured: 10_000, softLimit: 256) == 128)
        #expect(OpenFileLimit.connectionCap(configured: 10_000, softLimit: 65_536) == 10_000)
        #expect(OpenFileLimit.connectionCap(configured: 10_000, softLimit: nil) == 10_000)
        #expect(OpenFileLimit.connectionCap(configured: 10_000, softLimit: 10_100) == 10_100 - 1_024)
    }
}
