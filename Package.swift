// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "attestation-links",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "attestation-admin", targets: ["attestation-admin"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/google/swift-benchmark", from: "0.1.2"),
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

        // The domain, pure Swift.
        .target(
            name: "AttestationKit",
            resources: [
                .embedInCode("Forms/deplacement-2020-11-28.json"),
                .embedInCode("Forms/deplacement-2020-11-02.json"),
            ]),
        // PDF and PNG output: the only module that imports libharu, libqrencode, libpng.
        .target(
            name: "Rendering",
            dependencies: ["AttestationKit", "CHaru", "CQRencode", "CPNG"]),

        .executableTarget(
            name: "attestation-admin",
            dependencies: [
                "AttestationKit", "Rendering",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]),
        .executableTarget(
            name: "attestation-bench",
            dependencies: [
                "AttestationKit", "Rendering",
                .product(name: "Benchmark", package: "swift-benchmark"),
            ],
            path: "Benchmarks/attestation-bench"),

        .testTarget(name: "AttestationKitTests", dependencies: ["AttestationKit"]),
        .testTarget(name: "RenderingTests", dependencies: ["AttestationKit", "Rendering"]),
        .testTarget(name: "AdminCLITests", dependencies: ["AttestationKit"]),
    ]
)
