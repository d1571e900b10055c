import Testing

@testable import TimerBoardServer

@Suite struct OriginPolicyTests {
    @Test(
        arguments: [
            (nil, "127.0.0.1:8080", true),  // a script
            ("http://127.0.0.1:8080", "127.0.0.1:8080", true),  // the server's own page
            ("https://Board.Example", "board.example", true),  // behind a TLS proxy, any case
            ("https://kitchen.example", "127.0.0.1:8080", true),  // --allowed-origin
            ("https://evil.example", "127.0.0.1:8080", false),
            ("http://127.0.0.1:8081", "127.0.0.1:8080", false),  // another port is another origin
            ("null", "127.0.0.1:8080", false),  // a sandboxed frame or a file
        ("ws://127.0.0.1", "127.0.0.1:8080", true),  // a WebSocket client library, not a page
            ("http://127.0.0.1:8080", nil, false),
        ] as [(String?, String?, Bool)]
    )
    func originsAllowed(origin: String?, host: String?, allowed: Bool) {
        let policy = OriginPolicy(allowedOrigins: ["https://kitchen.example"])
        #expect(policy.allows(origin: origin, host: host) == allowed)
    }
}
