// swift-tools-version:6.1
import PackageDescription

let package = Package(
    name: "attestation-links",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "attestation-admin", targets: ["attestation-admin"]),
        .executable(name: "attestation-server", targets: ["attestation-server"]),
    ],
    // Exact versions: the ones this machine's package copies provide (Package.resolved cannot be
    // kept: those copies have commit ids of their own). How to move one: CONTRIBUTING.md.
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", exact: "1.8.2"),
        .package(url: "https://github.com/google/swift-benchmark", exact: "0.1.2"),
        .package(url: "https://github.com/x-sheep/swift-property-based", exact: "2.0.1"),
        .package(url: "https://github.com/swiftcsv/SwiftCSV", exact: "0.10.0"),
        .package(url: "https://github.com/apple/swift-log", exact: "1.16.2"),
        .package(url: "https://github.com/apple/swift-metrics", exact: "2.13.0"),
        // 2.4: the registry writes `# HELP` lines, and takes help texts through MetricNameDescriptor.
        .package(url: "https://github.com/swift-server/swift-prometheus", exact: "2.4.1"),
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
        // cairo with its FreeType font faces, for the page images; fontconfig only to hand cairo
        // a font file (cairo_ft_font_face_create_for_pattern).
        .systemLibrary(
            name: "CCairo", pkgConfig: "cairo",
            providers: [.apt(["libcairo2-dev"])]),
        // Nettle's Ed25519 (libhogweed), which GnuTLS links in anyway; see LinkTokens/Ed25519.swift.
        .systemLibrary(
            name: "CNettle", pkgConfig: "hogweed",
            providers: [.apt(["nettle-dev"])]),
        // libharu's own compressor, called directly to deflate a form's fixed content once.
        .systemLibrary(
            name: "CZlib", pkgConfig: "zlib",
            providers: [.apt(["zlib1g-dev"])]),

        // The third-party components and their licences, pure Swift: the /licenses page and
        // `attestation-admin licenses` render the same data. The licence texts are plain files
        // (Texts/, written by scripts/upkeep/update-licences.py) compiled into the module as string literals
        // by the EmbedLicenceTexts plugin, so the binaries need no file beside them (a container
        // copies only them). Not `.embedInCode`: its byte-array literals took a clean debug build
        // of this module from 14 s to 69 s (the plugin: 18 s), and a release one from 11 s to
        // over 120 s (the plugin: 30 s); see Sources/embed-licence-texts.
        .target(name: "Licenses", plugins: ["EmbedLicenceTexts"]),
        .plugin(
            name: "EmbedLicenceTexts", capability: .buildTool(), dependencies: ["embed-licence-texts"],
            path: "Sources/EmbedLicenceTexts"),
        .executableTarget(name: "embed-licence-texts"),
        // The attestation's rules, pure Swift: the person, the reasons, the exit time, the QR payload.
        .target(name: "AttestationKit"),
        // The form schema, pure Swift: a form's JSON (strict loading, both schema versions), its
        // checks, text layout and the standard fonts' metrics.
        .target(
            name: "FormSchema",
            dependencies: ["AttestationKit"],
            // Its forms (Forms/), the standard fonts' widths (Fonts/, scripts/upkeep/generate-font-metrics.py,
            // to refuse at load time the text that would run off the page), and the fonts and logos
            // the built-in forms of April–June 2021 name (Files/), compiled in by EmbedFiles: the
            // binaries need no file beside them.
            plugins: ["EmbedFiles"]),
        // Every file of a module's folder that is not Swift, compiled in as base64 string literals
        // (`EmbeddedFiles`): `.embedInCode`'s byte-array literals cost each build of make test about
        // a minute of CPU for FormSchema and PublicSite (Sources/embed-licence-texts).
        .plugin(
            name: "EmbedFiles", capability: .buildTool(), dependencies: ["embed-licence-texts"],
            path: "Sources/EmbedFiles"),
        // PDF and PNG output: the only module that imports libharu, libqrencode, libpng, zlib,
        // HarfBuzz, cairo.
        .target(
            name: "Rendering",
            dependencies: [
                "AttestationKit", "FormSchema", "CHaru", "CQRencode", "CPNG", "CZlib", "CHarfBuzz", "CCairo",
            ]),

        // Signed links: the only module that imports Nettle.
        .target(name: "LinkTokens", dependencies: ["AttestationKit", "CNettle"]),
        // HTTP over libmicrohttpd: the only module that imports it; knows nothing of attestations.
        .target(name: "HTTPServer", dependencies: ["CMicroHTTPD"]),
        // The configuration (config.json, its defaults, and what it names: keys, revocation list,
        // forms) and a link turned into an attestation with it; shared by the server and the
        // admin CLI, so the CLI links no HTTP library.
        .target(name: "AttestationConfiguration", dependencies: ["AttestationKit", "FormSchema", "LinkTokens"]),
        // The static site (Public/), embedded: the personal page needs no file beside the binary.
        .target(name: "PublicSite", plugins: ["EmbedFiles"]),
        // The routes: a request turned into a response, over one loaded configuration.
        .target(
            name: "AttestationService",
            dependencies: [
                "AttestationKit", "FormSchema", "AttestationConfiguration", "LinkTokens", "Rendering", "HTTPServer",
                "Licenses",
                "PublicSite",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
            ],
            // The French error page a browser gets from the attestation routes: a template, not a Swift literal.
            plugins: ["EmbedFiles"]),

        // swift-argument-parser's own English (headings, parsing errors) in French, for both programs.
        .target(
            name: "FrenchCommandLine",
            dependencies: [.product(name: "ArgumentParser", package: "swift-argument-parser")]),
        .executableTarget(
            name: "attestation-admin",
            dependencies: [
                "AttestationKit", "FormSchema", "Rendering", "LinkTokens", "AttestationConfiguration", "Licenses",
                "FrenchCommandLine",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "SwiftCSV", package: "SwiftCSV"),
            ],
            // The HTML sheet of `mint --format html` is a template, data rather than a Swift literal.
            plugins: ["EmbedFiles"]),
        .executableTarget(
            name: "attestation-server",
            // FormSchema: its summary reads the forms' ids; without the dependency an incremental
            // build kept code compiled against an older `Form` and crashed (--check-config, SIGSEGV).
            dependencies: [
                "AttestationService", "AttestationConfiguration", "FormSchema", "HTTPServer", "CMalloc",
                "FrenchCommandLine",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
            ]),
        .executableTarget(
            name: "attestation-bench",
            dependencies: [
                "AttestationKit", "FormSchema", "Rendering", "LinkTokens",
                .product(name: "Benchmark", package: "swift-benchmark"),
            ],
            path: "Benchmarks/attestation-bench"),
        // libFuzzer targets over the parsers that read what others send: link tokens, query
        // strings and form JSON. A plain build replays corpus files; scripts/stress/fuzz.sh builds it with
        // coverage, the address sanitizer, libFuzzer and -DFUZZING (see its header).
        .systemLibrary(name: "CLibFuzzer"),
        // glibc's <malloc.h> (mallopt), which the Glibc module does not export.
        .systemLibrary(name: "CMalloc"),
        .executableTarget(
            name: "attestation-fuzz",
            dependencies: [
                "AttestationKit", "FormSchema", "LinkTokens", "AttestationConfiguration", "AttestationService",
                "HTTPServer",
                "Rendering",
                "CLibFuzzer",
                .product(name: "Logging", package: "swift-log"),
            ]),

        // Reference/: what the tests compare the built-in forms with, copied from
        // ../shared/reference/forms/ (facts.json and blank.txt of each version).
        .testTarget(name: "AttestationKitTests", dependencies: ["AttestationKit", "FormSchema", "TestSupport"]),
        .testTarget(
            name: "FormSchemaTests", dependencies: ["AttestationKit", "FormSchema", "TestSupport"],
            exclude: ["Reference"]),
        .testTarget(name: "PublicSiteTests", dependencies: ["PublicSite"]),
        .testTarget(name: "LicensesTests", dependencies: ["Licenses", "AttestationService", "TestSupport"]),
        // Compatibility/: PDFs of the version 1 forms as drawn before schema version 2.
        // ThirdPage/: a form with a third page, written from docs/forms.md (ThirdPageFormTests).
        .testTarget(
            name: "RenderingTests", dependencies: ["AttestationKit", "FormSchema", "Rendering", "TestSupport"],
            exclude: ["Compatibility", "UnknownVersion", "ThirdPage", "FormFont"]),
        .testTarget(name: "HTTPServerTests", dependencies: ["HTTPServer", "TestSupport"]),
        // Helpers shared by the tests that run the built executables: processes, a server on a
        // free port, a raw TCP connection, QR codes read back.
        .target(
            name: "TestSupport", dependencies: ["AttestationKit", "FormSchema", "LinkTokens"], path: "Tests/TestSupport"
        ),
        // config.example.json against the real loader, the defaults and the README.
        .testTarget(
            name: "ConfigurationTests",
            dependencies: [
                "AttestationKit", "FormSchema", "AttestationConfiguration", "AttestationService", "LinkTokens",
                "TestSupport",
            ]),
        .testTarget(name: "AdminCLITests", dependencies: ["AttestationKit", "FormSchema", "TestSupport", "Licenses"]),
        // End to end: the built attestation-server answering real requests made with curl; and
        // its configuration watcher alone (@testable), with intervals no test could wait for.
        .testTarget(
            name: "ServerTests",
            dependencies: [
                "TestSupport", "AttestationKit", "FormSchema", "LinkTokens", "Licenses", "HTTPServer",
                "attestation-server", "AttestationService", "AttestationConfiguration",
                .product(name: "Logging", package: "swift-log"),
            ]),
        .testTarget(
            name: "LinkTokensTests",
            dependencies: [
                "LinkTokens", "AttestationKit", "FormSchema", "TestSupport",
                .product(name: "PropertyBased", package: "swift-property-based"),
            ]),
    ]
)
