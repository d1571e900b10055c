// swift-tools-version:6.1
import PackageDescription

// Micro-benchmarks of BoardCore and BoardProtocol, run with `swift package benchmark`
// (scripts/microbench). A package of its own so that the main build and its tests never
// resolve or build the benchmark harness.
let package = Package(
    name: "timerboard-benchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "timerboard", path: ".."),
        // Only the malloc interposer: the Linux ARC runtime interposer is left out, so there
        // are no retain/release counts, and one dependency less to fetch.
        .package(url: "https://github.com/ordo-one/benchmark", exact: "1.38.1", traits: ["MallocInterposer"]),
    ],
    targets: [
        .executableTarget(
            name: "BoardBenchmarks",
            dependencies: [
                .product(name: "BoardCore", package: "timerboard"),
                .product(name: "BoardProtocol", package: "timerboard"),
                .product(name: "Benchmark", package: "benchmark"),
            ],
            path: "Benchmarks/BoardBenchmarks",
            swiftSettings: [.enableUpcomingFeature("ExistentialAny")],
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        )
    ]
)
