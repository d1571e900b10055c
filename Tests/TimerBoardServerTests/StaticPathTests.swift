import Testing

@testable import TimerBoardServer

@Suite struct StaticPathTests {
    @Test(
        arguments: [
            ("/", [], true, "index.html"),
            ("/main.js", ["main.js"], false, "main.js"),
            ("/test/", ["test"], true, "test/index.html"),
            ("//main.js", ["main.js"], false, "main.js"),  // empty segments are no folder
            ("/a%20b.js", ["a b.js"], false, "a b.js"),
            ("/a%2Fb.js", ["a", "b.js"], false, "a/b.js"),  // decoded before it is split
            ("/caf%C3%A9.txt", ["café.txt"], false, "café.txt"),
            ("/a+b.js", ["a+b.js"], false, "a+b.js"),  // `+` is a space only in forms
        ] as [(String, [String], Bool, String)]
    )
    func servedPaths(raw: String, names: [String], namesFolder: Bool, relative: String) throws {
        let path = try StaticPath(requestPath: raw)
        #expect(path.names == names)
        #expect(path.namesFolder == namesFolder)
        #expect(path.relativePath == relative)
    }

    @Test(
        arguments: [
            // Dotfiles, dot-folders, `.` and `..`, however they are spelled.
            ("/.secret", StaticPath.Refusal.notServed),
            ("/.git/config", .notServed),
            ("/%2esecret", .notServed),
            ("/../etc/passwd", .notServed),
            ("/test/../main.js", .notServed),
            ("/%2e%2e/etc/passwd", .notServed),
            ("/a%2F..%2F..%2Fetc", .notServed),
            ("/./main.js", .notServed),
            ("main.js", .notServed),  // not a path
            // Not a name a file can have, or not valid percent-encoding.
            ("/main.js%00", .malformed),
            ("/%00", .malformed),
            ("/%zz", .malformed),
            ("/main.js%", .malformed),
            ("/main.js%4", .malformed),
            ("/%ff.js", .malformed),  // not UTF-8
            ("/%C3", .malformed),  // a UTF-8 sequence cut short
        ] as [(String, StaticPath.Refusal)]
    )
    func refusedPaths(raw: String, refusal: StaticPath.Refusal) {
        #expect(throws: refusal) { try StaticPath(requestPath: raw) }
    }
}
