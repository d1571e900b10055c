import Testing

@testable import TimerBoardServer

@Suite struct StaticContentTypeTests {
    @Test(
        arguments: [
            ("index.html", "text/html; charset=utf-8"),
            ("main.js", "text/javascript; charset=utf-8"),
            ("style.css", "text/css; charset=utf-8"),
            ("data.json", "application/json; charset=utf-8"),
            ("icon.svg", "image/svg+xml"),
            ("icon.png", "image/png"),
            ("favicon.ico", "image/x-icon"),
            ("app.webmanifest", "application/manifest+json; charset=utf-8"),
            ("robots.txt", "text/plain; charset=utf-8"),
            ("LOUD.HTML", "text/html; charset=utf-8"),
            ("archive.tar.gz", "application/octet-stream"),
            ("README", "application/octet-stream"),
        ]
    )
    func types(name: String, type: String) {
        #expect(StaticContentType.of(fileNamed: name) == type)
    }
}
