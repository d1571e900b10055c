// Appended to Package.swift by deploy/Dockerfile, before `swift package resolve`: every package
// the build resolves that Package.swift does not name itself, at the exact version the project
// is built and tested with. Package.swift pins its own dependencies (`exact:`), but theirs ask
// for ranges (`from:`), so an image built later would get newer versions of these.
//
// Why not Package.resolved: the machines this project is developed on build from a local copy of
// these packages whose commit ids are not GitHub's, so a Package.resolved from here would not
// check out anywhere else (and git ignores it here). Versions work on both.
// Why not in Package.swift itself: SwiftPM warns on every build about each package no target of
// ours uses directly ("dependency ... is not used by any target"); in the image build it warns
// once. tests/test_deploy_files.py checks that these and Package.swift's own dependencies are
// exactly what the build resolves. After changing a version in Package.swift: `swift package
// update`, then copy the new versions from Package.resolved here (the test names any that differ).
package.dependencies += [
    .package(url: "https://github.com/adam-fowler/compress-nio.git", exact: "1.5.0"),
    .package(url: "https://github.com/apple/swift-algorithms.git", exact: "1.2.1"),
    .package(url: "https://github.com/apple/swift-asn1.git", exact: "1.7.4"),
    .package(url: "https://github.com/apple/swift-async-algorithms.git", exact: "1.1.4"),
    .package(url: "https://github.com/apple/swift-atomics.git", exact: "1.3.0"),
    .package(url: "https://github.com/apple/swift-certificates.git", exact: "1.21.1"),
    .package(url: "https://github.com/apple/swift-collections.git", exact: "1.6.0"),
    .package(url: "https://github.com/apple/swift-configuration.git", exact: "1.4.0"),
    .package(url: "https://github.com/apple/swift-distributed-tracing.git", exact: "1.7.3"),
    .package(url: "https://github.com/apple/swift-http-structured-headers.git", exact: "1.7.0"),
    .package(url: "https://github.com/apple/swift-http-types.git", exact: "1.8.0"),
    .package(url: "https://github.com/apple/swift-nio-http2.git", exact: "1.46.0"),
    .package(url: "https://github.com/apple/swift-nio-ssl.git", exact: "2.37.6"),
    .package(url: "https://github.com/apple/swift-nio-transport-services.git", exact: "1.28.0"),
    .package(url: "https://github.com/apple/swift-numerics", exact: "1.1.1"),
    .package(url: "https://github.com/apple/swift-service-context.git", exact: "1.5.1"),
    .package(url: "https://github.com/apple/swift-system.git", exact: "1.8.1"),
    .package(url: "https://github.com/hummingbird-project/swift-websocket.git", exact: "1.6.2"),
]
