import BoardProtocol
import Testing
import TimerBoardTransport

@testable import TimerBoardServer

@Suite struct ChangesetLogTests {
    /// A frame of exactly `size` payload bytes... near enough: a text frame of that many bytes.
    private static func frame(_ size: Int) -> OutboundFrame {
        OutboundFrame(payload: Array(repeating: UInt8(ascii: "x"), count: size))
    }

    private static func revisions(_ slice: ArraySlice<OutboundFrame>?) -> Int? { slice?.count }

    @Test func theResumeWindowIsTheLastCapacityChangesets() {
        var log = ChangesetLog(capacity: 10, nextRevision: 1)
        for revision in Int64(1)...100 { log.append(Self.frame(10), revision: revision) }
        #expect(Self.revisions(log.frames(after: 90)) == 10)
        #expect(log.frames(after: 89) == nil)
        #expect(Self.revisions(log.frames(after: 100)) == 0)
        #expect(log.frames(after: 101) == nil)
    }

    @Test func bigChangesetsShortenTheWindowToTheByteBound() {
        var log = ChangesetLog(capacity: 1_000, maxBytes: 10_000, nextRevision: 1)
        for revision in Int64(1)...50 { log.append(Self.frame(100), revision: revision) }
        #expect(Self.revisions(log.frames(after: 0)) == 50)
        // One changeset of 9 KB: only it and the ones that fit beside it stay resumable.
        log.append(Self.frame(9_000), revision: 51)
        let window = log.frames(after: 50).map(\.count)
        #expect(window == 1)
        #expect(log.frames(after: 30) == nil)
        var resumable = 0
        for since in Int64(0)...51 where log.frames(after: since) != nil { resumable += 1 }
        #expect(resumable <= 12)  // 51 itself and at most ten 100-byte frames before it, plus "nothing missed"
        // A changeset bigger than the bound alone: nobody resumes across it.
        log.append(Self.frame(20_000), revision: 52)
        #expect(log.frames(after: 51) == nil)
        #expect(Self.revisions(log.frames(after: 52)) == 0)
    }

    @Test func theLogStaysBoundedOverManyAppends() {
        var log = ChangesetLog(capacity: 1_000, maxBytes: 50_000, nextRevision: 1)
        for revision in Int64(1)...20_000 { log.append(Self.frame(revision % 7 == 0 ? 30_000 : 500), revision: revision) }
        #expect(log.frames(after: 20_000)?.count == 0)
        let window = (Int64(0)...20_000).first { log.frames(after: $0) != nil }!
        #expect(20_000 - window <= 100)
    }
}
