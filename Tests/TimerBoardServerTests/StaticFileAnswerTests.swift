import HTTPTypes
import Testing

@testable import TimerBoardServer

private let file = FileValidators(size: 100, modifiedSeconds: 784_111_777, modifiedNanoseconds: 5)
private let eTag = file.eTag
private let date = file.lastModified
private let earlier = HTTPDate.format(784_111_776)

@Suite struct StaticFileAnswerTests {
    @Test(
        arguments: [
            (HTTPFields(), StaticFileAnswer.whole),
            ([.ifNoneMatch: eTag], .notModified),
            ([.ifNoneMatch: "W/" + eTag], .notModified),  // weak comparison
            ([.ifNoneMatch: #""other", "# + eTag], .notModified),  // a list
            ([.ifNoneMatch: "*"], .notModified),
            ([.ifNoneMatch: #""other""#], .whole),
            ([.ifModifiedSince: date], .notModified),
            ([.ifModifiedSince: earlier], .whole),
            ([.ifModifiedSince: "yesterday"], .whole),  // an invalid date is ignored
            ([.ifNoneMatch: #""other""#, .ifModifiedSince: date], .whole),  // the tag decides
            ([.range: "bytes=0-9"], .partial(0...9)),
            ([.range: "bytes=100-"], .unsatisfiable),
            ([.range: "bytes=0-9", .ifRange: eTag], .partial(0...9)),
            ([.range: "bytes=0-9", .ifRange: date], .partial(0...9)),
            ([.range: "bytes=0-9", .ifRange: #""other""#], .whole),  // another version: all of it
            ([.range: "bytes=0-9", .ifRange: "W/" + eTag], .whole),  // If-Range compares strongly
            ([.range: "bytes=0-9", .ifNoneMatch: eTag], .notModified),  // validators before ranges
        ] as [(HTTPFields, StaticFileAnswer)]
    )
    func get(headers: HTTPFields, expected: StaticFileAnswer) {
        #expect(StaticFileAnswer(method: .get, headers: headers, file: file) == expected)
    }

    @Test func headIgnoresRanges() {
        #expect(StaticFileAnswer(method: .head, headers: [.range: "bytes=0-9"], file: file) == .whole)
        #expect(StaticFileAnswer(method: .head, headers: [.range: "bytes=100-"], file: file) == .whole)
        #expect(StaticFileAnswer(method: .head, headers: [.ifNoneMatch: eTag], file: file) == .notModified)
    }

    @Test func aNewVersionHasANewTag() {
        let rewritten = FileValidators(size: 100, modifiedSeconds: 784_111_777, modifiedNanoseconds: 6)
        let grown = FileValidators(size: 101, modifiedSeconds: 784_111_777, modifiedNanoseconds: 5)
        #expect(Set([file.eTag, rewritten.eTag, grown.eTag]).count == 3)
        #expect(file.eTag.hasPrefix("\"") && file.eTag.hasSuffix("\""))  // strong
    }
}
