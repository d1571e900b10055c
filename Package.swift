// swift-tools-version:6.1
import PackageDescription

// One settings list for every target: Swift 6 mode with the upcoming features we rely on.
let swiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
]

let package = Package(
    name: "timerboard",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "timerboard", targets: ["timerboard"]),
        .executable(name: "timerboard-bench", targets: ["timerboard-bench"]),
        // The domain and the wire, for the micro-benchmarks package in Benchmarks/.
        .library(name: "BoardCore", targets: ["BoardCore"]),
        .library(name: "BoardProtocol", targets: ["BoardProtocol"]),
    ],
    dependencies: [
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", exact: "2.28.1"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-websocket.git", exact: "2.8.1"),
        .package(url: "https://github.com/groue/GRDB.swift.git", exact: "7.10.0"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", exact: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log.git", exact: "1.16.2"),
        .package(url: "https://github.com/apple/swift-nio.git", exact: "2.101.3"),
        .package(url: "https://github.com/x-sheep/swift-property-based.git", exact: "2.0.1"),
        .package(url: "https://github.com/HdrHistogram/hdrhistogram-swift.git", exact: "0.2.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", exact: "2.13.0"),
        .package(url: "https://github.com/apple/swift-crypto.git", exact: "3.12.3"),
        // Already in the graph through hummingbird; named for its HTTP types <-> NIO HTTP/1
        // bridge, which our WebSocket upgrade channel uses as hummingbird's own channels do.
        .package(url: "https://github.com/apple/swift-nio-extras.git", exact: "1.35.2"),
        // The metrics API, and its Prometheus backend for `/metrics`.
        .package(url: "https://github.com/apple/swift-metrics.git", exact: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus.git", exact: "2.4.1"),
        // The PostgreSQL store of a cluster: the shared log, and LISTEN/NOTIFY between nodes.
        .package(url: "https://github.com/vapor/postgres-nio.git", exact: "1.33.2"),
        // The webhooks' HTTP client (timeouts, no redirects, TLS with the system's roots); already
        // in the graph through HummingbirdTesting, so the server adds no new package.
        .package(url: "https://github.com/swift-server/async-http-client.git", exact: "1.37.0"),
    ],
    targets: [
        // The domain: pure value types, no I/O, no framework.
        .target(name: "BoardCore", swiftSettings: swiftSettings),
        // The wire: messages, JSON codec, error codes.
        .target(name: "BoardProtocol", dependencies: ["BoardCore"], swiftSettings: swiftSettings),
        // "Drain a queue, then end": the one worker that the store's writer, the rooms and the
        // sessions share, so nothing idle holds a task.
        .target(name: "TimerBoardConcurrency", swiftSettings: swiftSettings),
        // Durable storage: the BoardStore protocol, its SQLite implementation and the stored
        // format, which is its own and not the wire's (so no BoardProtocol here).
        .target(
            name: "BoardStore",
            dependencies: [
                "BoardCore",
                "TimerBoardConcurrency",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                // Only for `ConnectionPoolError`, which postgres-nio's pool throws as it is.
                .product(name: "_ConnectionPoolModule", package: "postgres-nio"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: swiftSettings
        ),
        // The system zlib (Debian's zlib1g-dev), for permessage-deflate.
        .systemLibrary(name: "CZlib", providers: [.apt(["zlib1g-dev"])]),
        // glibc's malloc.h, for `malloc_trim` (the server's `HeapTrimmer`).
        .systemLibrary(name: "CMalloc"),
        // permessage-deflate payloads (RFC 7692): compress a message, inflate one with a limit.
        .target(name: "WebSocketDeflate", dependencies: ["CZlib"], swiftSettings: swiftSettings),
        // WebSocket plumbing, below the rooms: the upgrade, connections as channel handlers (no
        // task per connection), per-connection queues and drains, the heartbeat, inbound
        // assembly, deflate. Knows messages, not boards or sessions.
        .target(
            name: "TimerBoardTransport",
            dependencies: [
                "BoardProtocol",
                "WebSocketDeflate",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "HummingbirdWebSocket", package: "hummingbird-websocket"),
                .product(name: "NIOWebSocket", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                .product(name: "NIOHTTPTypesHTTP1", package: "swift-nio-extras"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                // SHA-1 for the WebSocket handshake's accept key (RFC 6455 4.2.2).
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            swiftSettings: swiftSettings
        ),
        // The server: HTTP routes, WebSocket sessions, board rooms.
        .target(
            name: "TimerBoardServer",
            dependencies: [
                "BoardCore",
                "CMalloc",
                "BoardProtocol",
                "BoardStore",
                "TimerBoardConcurrency",
                "TimerBoardTransport",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdWebSocket", package: "hummingbird-websocket"),
                .product(name: "NIOWebSocket", package: "swift-nio"),
                // Its thread pool, for the static files' blocking file system calls.
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                // SIGTERM and SIGINT for the service group that drains before stopping.
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
                // SHA-256 and HMAC for the boards' link secrets.
                .product(name: "Crypto", package: "swift-crypto"),
                // `/metrics`: swift-metrics objects made by a Prometheus factory per application.
                .product(name: "CoreMetrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                // Webhook deliveries.
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
            ],
            swiftSettings: swiftSettings
        ),
        // Test support: a Swift client of the protocol for the live-server tests (the load
        // generator has its own raw sockets).
        .target(
            name: "TimerBoardTestClient",
            dependencies: [
                "BoardCore",
                "BoardProtocol",
                .product(name: "HummingbirdWSClient", package: "hummingbird-websocket"),
                .product(name: "NIOWebSocket", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Tests/TimerBoardTestClient",
            swiftSettings: swiftSettings
        ),
        // The load generator behind `timerboard-bench`.
        .target(
            name: "TimerBoardBench",
            dependencies: [
                "WebSocketDeflate",
                .product(name: "Histogram", package: "hdrhistogram-swift"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOWebSocket", package: "swift-nio"),
            ],
            swiftSettings: swiftSettings
        ),
        // The executable only wires configuration to the server.
        .executableTarget(
            name: "timerboard",
            dependencies: [
                "TimerBoardServer",
                "BoardProtocol",
                "BoardCore",
                "BoardStore",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "NIOCore", package: "swift-nio"),
            ],
            swiftSettings: swiftSettings
        ),
        // The load generator's own executable: the server's binary then links only what serving
        // needs (the bench's HTTP client pulls in FoundationNetworking and libcurl).
        .executableTarget(
            name: "timerboard-bench",
            dependencies: [
                "TimerBoardBench",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: swiftSettings
        ),
        // What several test targets share (a seeded random generator).
        .target(name: "TestSupport", path: "Tests/TestSupport", swiftSettings: swiftSettings),
        .testTarget(
            name: "BoardCoreTests",
            dependencies: [
                "BoardCore",
                "TestSupport",
                .product(name: "PropertyBased", package: "swift-property-based"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "BoardProtocolTests",
            dependencies: ["BoardProtocol", "TestSupport", .product(name: "PropertyBased", package: "swift-property-based")],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "WebSocketDeflateTests",
            dependencies: [
                "WebSocketDeflate",
                "TestSupport",
                .product(name: "PropertyBased", package: "swift-property-based"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "BoardStoreTests",
            dependencies: [
                "BoardStore",
                "BoardCore",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "TimerBoardTransportTests",
            dependencies: [
                "TimerBoardTransport",
                "WebSocketDeflate",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOEmbedded", package: "swift-nio"),
                .product(name: "NIOWebSocket", package: "swift-nio"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "TimerBoardServerTests",
            dependencies: [
                "TimerBoardServer",
                "TimerBoardConcurrency",
                "TestSupport",
                "TimerBoardTestClient",
                "BoardCore",
                "BoardProtocol",
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "PropertyBased", package: "swift-property-based"),
                // To make the server's real SQLite file refuse writes (StoreFailureTests).
                .product(name: "GRDB", package: "GRDB.swift"),
            ],
            swiftSettings: swiftSettings
        ),
    ]
)
