import Foundation
import Licenses
import TestSupport
import Testing

/// Each stored text against the file it was copied from, read again on this machine: a text
/// edited by hand, or a package updated upstream, fails here. A group whose files this machine
/// lacks (a Debian package, the toolchain) is skipped, and says so; the Ministry's notice is a
/// file of the repository, never skipped.
@Suite struct AuthoritativeTextsTests {
    static let commonLicences = "/usr/share/common-licenses"
    static let debianPackages = [
        "libmicrohttpd12", "libgnutls30", "libnettle8", "libgmp10", "libtasn1-6", "libidn2-0",
        "libunistring2", "libp11-kit0", "libffi8", "libhpdf-2.3.0", "libqrencode4", "libpng16-16",
        "zlib1g", "fonts-dejavu-core", "libcairo2", "libpixman-1-0", "libfontconfig1", "libexpat1",
        "libx11-6", "libxext6", "libxrender1", "libxcb1", "libxau6", "libxdmcp6", "libbsd0", "libmd0",
        "fonts-urw-base35",
    ]
    static let nodeLicense = "/usr/share/doc/nodejs/LICENSE"
    /// The package's root, from this file's path.
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    /// The MIT notice of the Ministry's generator, as the repository keeps it (ReferenceFile).
    static let ministryLicence = ReferenceFile.path("official-LICENCE.txt")
    /// The texts as update-licences wrote them, one `ID.txt` each.
    static let textsFolder = packageRoot.appendingPathComponent("Sources/Licenses/Texts")

    /// The SwiftPM checkouts of this build: the test binary is in SCRATCH/TRIPLE/CONFIG/.
    static let checkouts: URL? = {
        var directory = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
        for _ in 0..<4 {
            let candidate = directory.appendingPathComponent("checkouts")
            if FileManager.default.fileExists(atPath: candidate.appendingPathComponent("swift-log").path) {
                return candidate
            }
            directory.deleteLastPathComponent()
        }
        return nil
    }()

    /// The toolchain's LICENSE.txt, beside the `swift` on PATH or in /opt/swift.
    static let toolchainLicence: String? = {
        var candidates = ["/opt/swift/usr/share/swift/LICENSE.txt"]
        for directory in (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":") {
            let bin = URL(fileURLWithPath: String(directory))
            if FileManager.default.fileExists(atPath: bin.appendingPathComponent("swift").path) {
                candidates.append(
                    bin.deletingLastPathComponent().appendingPathComponent("share/swift/LICENSE.txt").path)
            }
        }
        return candidates.first { FileManager.default.fileExists(atPath: $0) }
    }()

    static func stored(_ id: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
        try #require(ThirdPartyNotices.licence(id: id), "no text \(id)", sourceLocation: sourceLocation).text
    }

    static func file(_ path: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
        let data = try #require(
            FileManager.default.contents(atPath: path), "cannot read \(path)", sourceLocation: sourceLocation)
        return try #require(String(data: data, encoding: .utf8), "\(path) is not UTF-8", sourceLocation: sourceLocation)
    }

    static func expectSame(_ id: String, _ path: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let text = try stored(id, sourceLocation: sourceLocation)
        let original = try file(path, sourceLocation: sourceLocation)
        #expect(
            text == original,
            "\(id) differs from \(path) (\(text.utf8.count) bytes stored, \(original.utf8.count) there)",
            sourceLocation: sourceLocation)
    }

    /// The build plugin compiles each file of Texts/ into the module: every text is its file,
    /// byte for byte, and every file is a text.
    @Test func everyTextIsItsFileInTextsByteForByte() throws {
        let files = Set(try FileManager.default.contentsOfDirectory(atPath: Self.textsFolder.path))
        let named = Set(ThirdPartyNotices.licences.map { "\($0.id).txt" })
        #expect(
            files.subtracting(named).isEmpty,
            "in Texts/ but no text of Licences.swift: \(files.subtracting(named).sorted())")
        #expect(
            named.subtracting(files).isEmpty,
            "a text of Licences.swift without its file: \(named.subtracting(files).sorted())")
        for licence in ThirdPartyNotices.licences {
            let path = Self.textsFolder.appendingPathComponent("\(licence.id).txt").path
            guard let bytes = FileManager.default.contents(atPath: path) else { continue }
            #expect(
                Array(licence.text.utf8) == Array(bytes), "\(licence.id) is not Texts/\(licence.id).txt as embedded")
        }
    }

    @Test(
        .enabled(
            if: FileManager.default.fileExists(atPath: commonLicences + "/LGPL-2.1"),
            "/usr/share/common-licenses is absent: not a Debian system"))
    func commonLicencesAreTheSystemsOwn() throws {
        for id in ["LGPL-2", "LGPL-2.1", "LGPL-3", "GPL-2", "GPL-3", "Apache-2.0"] {
            let path = "\(Self.commonLicences)/\(id)"
            let text = try Self.stored(id)
            let original = try Self.file(path)
            // Debian 13 ships the FSF's later edition of the same licences (see FSFEdition).
            #expect(
                FSFEdition.later(text) == FSFEdition.later(original),
                "\(id) differs from \(path) beyond the FSF's editions (\(text.utf8.count) bytes stored, \(original.utf8.count) there)"
            )
        }
    }

    @Test(
        .enabled(
            if: FileManager.default.fileExists(atPath: "/usr/share/doc/libmicrohttpd12/copyright"),
            "the Debian packages' copyright files are absent: install libmicrohttpd12 and the others (scripts/install-deps.sh)"
        ))
    func debianCopyrightFilesAreTheInstalledOnes() throws {
        for package in Self.debianPackages {
            try Self.expectSame("Debian-\(package)", "/usr/share/doc/\(package)/copyright")
        }
        // libxcb-render0 and libxcb-shm0 come from libxcb's source package and carry its file.
        for package in ["libxcb-render0", "libxcb-shm0"]
        where FileManager.default.fileExists(atPath: "/usr/share/doc/\(package)/copyright") {
            try Self.expectSame("Debian-libxcb1", "/usr/share/doc/\(package)/copyright")
        }
        // libhogweed6 comes from the same source package and carries the same file.
        if FileManager.default.fileExists(atPath: "/usr/share/doc/libhogweed6/copyright") {
            try Self.expectSame("Debian-libnettle8", "/usr/share/doc/libhogweed6/copyright")
        }
    }

    @Test(.enabled(if: toolchainLicence != nil, "the Swift toolchain's share/swift/LICENSE.txt is not found"))
    func swiftRuntimeLicenceIsTheToolchains() throws {
        try Self.expectSame("Apache-2.0-Swift", try #require(Self.toolchainLicence))
    }

    @Test(.enabled(if: checkouts != nil, "no SwiftPM checkouts beside the test binary"))
    func swiftPackageTextsAreTheirCheckoutsOwn() throws {
        let checkouts = try #require(Self.checkouts)
        func path(_ relative: String) -> String { checkouts.appendingPathComponent(relative).path }
        for package in ["swift-argument-parser", "swift-atomics"] {
            try Self.expectSame("Apache-2.0-Swift", path("\(package)/LICENSE.txt"))
        }
        for package in ["swift-log", "swift-metrics"] {
            try Self.expectSame("Apache-2.0", path("\(package)/LICENSE.txt"))
        }
        // This copy differs from Debian's only by a blank line at one end.
        let apache = try Self.stored("Apache-2.0").trimmingCharacters(in: .newlines)
        let prometheus = try Self.file(path("swift-prometheus/LICENSE.txt")).trimmingCharacters(in: .newlines)
        #expect(prometheus == apache, "swift-prometheus's LICENSE.txt is not the Apache License 2.0 text")
        for package in ["swift-log", "swift-metrics"] {
            try Self.expectSame("NOTICE-\(package)", path("\(package)/NOTICE.txt"))
        }
        try Self.expectSame("MIT-SwiftCSV", path("SwiftCSV/LICENSE"))
    }

    /// ICU's licence as Node.js reproduces it, indented by four spaces, between two `"""` lines.
    @Test(
        .enabled(
            if: FileManager.default.fileExists(atPath: nodeLicense), "\(nodeLicense) is absent (nodejs not installed)"))
    func icuLicenceIsNodesCopyWithoutItsIndent() throws {
        let lines = try Self.file(Self.nodeLicense).components(separatedBy: "\n")
        let start = try #require(lines.firstIndex(of: "- ICU, located at deps/icu-small, is licensed as follows:"))
        #expect(lines[start + 1] == "  \"\"\"")
        let body = lines[(start + 2)...].prefix { $0 != "  \"\"\"" }
        let text = body.map { $0.isEmpty ? $0 : String($0.dropFirst(4)) }.joined(separator: "\n") + "\n"
        #expect(try Self.stored("ICU") == text)
    }

    /// Luciole's licence: the CC BY 4.0 paragraph of a Debian copyright file that holds it whole,
    /// without Debian's one-space indent and its " ." blank lines.
    @Test(
        .enabled(
            if: FileManager.default.fileExists(atPath: "/usr/share/doc/fonts-urw-base35/copyright"),
            "fonts-urw-base35 is not installed"))
    func creativeCommonsByIsDebiansCopyOfIt() throws {
        let copyright = try Self.file("/usr/share/doc/fonts-urw-base35/copyright")
        let start = try #require(
            copyright.range(of: " Creative Commons Attribution 4.0 International Public License\n"))
        var lines: [String] = []
        for line in copyright[start.lowerBound...].split(separator: "\n", omittingEmptySubsequences: false).dropLast() {
            if line.first?.isLetter == true { break }
            lines.append(line == " ." ? "" : String(line.dropFirst()))
        }
        #expect(try Self.stored("CC-BY-4.0") == lines.joined(separator: "\n") + "\n")
    }

    /// The repository holds the reference copy: missing, it fails, it is not skipped.
    @Test func ministryNoticeIsTheReferenceCopy() throws {
        try Self.expectSame("MIT-formulaire", Self.ministryLicence)
    }
}
