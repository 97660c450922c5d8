import Foundation
import TestSupport
import Testing

/// Issue 29, item 4: the files `mint -o`, `paper -o` and `render -o` write hold working links
/// (the sheet, the URLs, the JSON) or a person's identity (the PDFs and images): they were
/// created 0644 under the usual umask, readable by every account of the machine. Now 0600, from
/// the start and when `--force` replaces a file that others could read.
@Suite struct PrivateOutputFileTests {
    /// The admin CLI under the umask most accounts have, whatever the test runner's.
    static func adminUnderUsualUmask(_ arguments: [String], in scratch: Scratch) throws -> ProcessResult {
        try Tool.run(
            URL(fileURLWithPath: "/bin/sh"), ["-c", "umask 022 && exec \"$0\" \"$@\"", Tool.admin.path] + arguments,
            in: scratch.url)
    }

    static func mode(_ path: String) throws -> Int {
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        return try #require((attributes[.posixPermissions] as? NSNumber)?.intValue) & 0o777
    }

    @Test(arguments: ["liens.html", "liens.json", "liens.txt"])
    func mintWritesItsLinksReadableByTheirOwnerOnly(_ name: String) throws {
        let scratch = try initializedSite()
        let result = try Self.adminUnderUsualUmask(
            ["mint"] + personArguments("Camille", "Dupont") + ["-o", name], in: scratch)
        try #require(result.status == 0, "\(result.stderr)")
        #expect(try Self.mode(scratch.path(name)) == 0o600, "\(name)")
    }

    @Test func mintWithForceMakesAFileOthersCouldReadPrivate() throws {
        let scratch = try initializedSite()
        try Data("ancien".utf8).write(to: URL(fileURLWithPath: scratch.path("liens.html")))
        #expect(chmod(scratch.path("liens.html"), 0o644) == 0)
        let result = try Self.adminUnderUsualUmask(
            ["mint"] + personArguments("Camille", "Dupont") + ["-o", "liens.html", "--force"], in: scratch)
        try #require(result.status == 0, "\(result.stderr)")
        #expect(try Self.mode(scratch.path("liens.html")) == 0o600)
    }

    @Test func paperAndRenderWriteIdentitiesReadableByTheirOwnerOnly() throws {
        let scratch = try initializedSite()
        let link = try mintSucceeding(personArguments("Camille", "Dupont"), in: scratch).stdout
            .trimmingCharacters(in: .whitespacesAndNewlines)
        let cases: [(arguments: [String], file: String)] = [
            (["paper", "--link", link, "-o", "papier.pdf"], "papier.pdf"),
            (["render", link, "-o", "attestation.pdf"], "attestation.pdf"),
            (["render", link, "-o", "qr.png"], "qr.png"),
            (["render", link, "--page", "1", "--dpi", "72", "-o", "page.png"], "page.png"),
        ]
        for (arguments, file) in cases {
            let result = try Self.adminUnderUsualUmask(arguments, in: scratch)
            try #require(result.status == 0, "\(arguments): \(result.stderr)")
            #expect(try Self.mode(scratch.path(file)) == 0o600, "\(file)")
        }
    }
}
