// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "attestation-links",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "attestation-admin", targets: ["attestation-admin"]),
        .executable(name: "attestation-server", targets: ["attestation-server"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/google/swift-benchmark", from: "0.1.2"),
        .package(url: "https://github.com/apple/swift-crypto", from: "3.12.0"),
        .package(url: "https://github.com/x-sheep/swift-property-based", from: "2.0.0"),
        .package(url: "https://github.com/swiftcsv/SwiftCSV", from: "0.10.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.6.0"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.5.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.1.0"),
    ],
    targets: [
        // Thin system-library targets: module maps over the Debian -dev packages.
        .systemLibrary(
            name: "CMicroHTTPD", pkgConfig: "libmicrohttpd",
            providers: [.apt(["libmicrohttpd-dev"])]),
        .systemLibrary(name: "CHaru", providers: [.apt(["libhpdf-dev"])]),
        .systemLibrary(
            name: "CQRencode", pkgConfig: "libqrencode",
            providers: [.apt(["libqrencode-dev"])]),
        .systemLibrary(
            name: "CPNG", pkgConfig: "libpng",
            providers: [.apt(["libpng-dev"])]),
        // HarfBuzz's subsetter (hb-subset): the glyphs of a name outside WinAnsi, embedded.
        .systemLibrary(
            name: "CHarfBuzz", pkgConfig: "harfbuzz-subset",
            providers: [.apt(["libharfbuzz-dev"])]),
        // libharu's own compressor, called directly to deflate a form's fixed content once.
        .systemLibrary(
            name: "CZlib", pkgConfig: "zlib",
            providers: [.apt(["zlib1g-dev"])]),

        // The third-party components and their licences, pure Swift: the /licenses page and
        // `attestation-admin licenses` render the same data.
        .target(name: "Licenses"),
        // The domain, pure Swift.
        .target(
            name: "AttestationKit",
            resources: [
                .embedInCode("Forms/deplacement-2020-11-28.json"),
                .embedInCode("Forms/deplacement-2020-11-02.json"),
            ]),
        // PDF and PNG output: the only module that imports libharu, libqrencode, libpng, zlib,
        // HarfBuzz.
        .target(
            name: "Rendering",
            dependencies: ["AttestationKit", "CHaru", "CQRencode", "CPNG", "CZlib", "CHarfBuzz"]),

        // Signed links: the only module that imports swift-crypto.
        .target(
            name: "LinkTokens",
            dependencies: ["AttestationKit", .product(name: "Crypto", package: "swift-crypto")]),
        // HTTP over libmicrohttpd: the only module that imports it; knows nothing of attestations.
        .target(name: "HTTPServer", dependencies: ["CMicroHTTPD"]),
        // Configuration, and the routes: a link with its parameters turned into an attestation.
        .target(
            name: "AttestationService",
            dependencies: [
                "AttestationKit", "LinkTokens", "Rendering", "HTTPServer", "Licenses",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
            ]),

        .executableTarget(
            name: "attestation-admin",
            dependencies: [
                "AttestationKit", "Rendering", "LinkTokens", "AttestationService", "Licenses",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "SwiftCSV", package: "SwiftCSV"),
            ]),
        .executableTarget(
            name: "attestation-server",
            dependencies: [
                "AttestationService", "HTTPServer",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
            ]),
        .executableTarget(
            name: "attestation-bench",
            dependencies: [
                "AttestationKit", "Rendering", "LinkTokens",
                .product(name: "Benchmark", package: "swift-benchmark"),
            ],
            path: "Benchmarks/attestation-bench"),
        // libFuzzer targets over the parsers that read what others send: link tokens, query
        // strings and form JSON. A plain build replays corpus files; scripts/fuzz builds it with
        // coverage, the address sanitizer, libFuzzer and -DFUZZING (see its header).
        .systemLibrary(name: "CLibFuzzer"),
        .executableTarget(
            name: "attestation-fuzz",
            dependencies: [
                "AttestationKit", "LinkTokens", "AttestationService", "HTTPServer", "Rendering", "CLibFuzzer",
                .product(name: "Logging", package: "swift-log"),
                // To sign payloads LinkTokens would never write, so the decoder behind the
                // signature check is fuzzed too.
                .product(name: "Crypto", package: "swift-crypto"),
            ]),

        .testTarget(name: "AttestationKitTests", dependencies: ["AttestationKit"]),
        .testTarget(name: "LicensesTests", dependencies: ["Licenses", "AttestationService"]),
        .testTarget(name: "RenderingTests", dependencies: ["AttestationKit", "Rendering"]),
        .testTarget(name: "HTTPServerTests", dependencies: ["HTTPServer", "TestSupport"]),
        // Helpers shared by the tests that run the built executables: processes, a server on a
        // free port, QR codes read back.
        .target(name: "TestSupport", path: "Tests/TestSupport"),
        // config.example.json against the real loader, the defaults and the README.
        .testTarget(name: "ConfigurationTests", dependencies: ["AttestationKit", "AttestationService", "TestSupport"]),
        .testTarget(name: "AdminCLITests", dependencies: ["AttestationKit", "TestSupport", "Licenses"]),
        // End to end: the built attestation-server answering real requests made with curl.
        .testTarget(name: "ServerTests", dependencies: ["TestSupport", "AttestationKit", "LinkTokens", "Licenses"]),
        .testTarget(
            name: "LinkTokensTests",
            dependencies: [
                "LinkTokens", "AttestationKit", "AttestationService",
                .product(name: "PropertyBased", package: "swift-property-based"),
            ]),
    ]
)
