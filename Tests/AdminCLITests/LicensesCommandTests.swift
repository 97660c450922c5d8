import Foundation
import Licenses
import TestSupport
import Testing

@Suite struct LicensesCommandTests {
    /// The full notices: the components first, then every text of the Licenses module once,
    /// byte for byte: the same source as the server's /licenses page.
    @Test func printsEveryComponentThenEveryTextOnce() throws {
        let result = try Tool.admin(["licenses"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.isEmpty)
        let output = result.stdout
        let textsStart = try #require(output.range(of: "\nTextes des licences\n"))
        for component in ThirdPartyNotices.components {
            let at = try #require(output.range(of: "\n\(component.name) : "), "\(component.name) missing")
            #expect(at.lowerBound < textsStart.lowerBound)
        }
        for licence in ThirdPartyNotices.licences {
            #expect(
                output.components(separatedBy: licence.text).count == 2, "\(licence.id) is not printed exactly once")
        }
        if let lgpl = FileManager.default.contents(atPath: "/usr/share/common-licenses/LGPL-2.1"),
            let stored = ThirdPartyNotices.licences.first(where: { $0.id == "LGPL-2.1" })?.text
        {
            // The system's text in the edition the programs embed (Debian 13's is the FSF's later one).
            #expect(FSFEdition.later(stored) == FSFEdition.later(String(decoding: lgpl, as: UTF8.self)))
            #expect(output.components(separatedBy: stored).count == 2, "the full LGPL 2.1, once")
        }
        for needle in ["apt-get source libmicrohttpd", "https://sources.debian.org/src/gnutls28/", "Version liée : "] {
            #expect(output.contains(needle), "\(needle)")
        }
    }

    @Test func listGivesOneLinePerComponentWithTheLinkedVersions() throws {
        let result = try Tool.admin(["licenses", "--list"])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n")
        #expect(lines.count == ThirdPartyNotices.components.count)
        for component in ThirdPartyNotices.components {
            #expect(lines.contains { $0.hasPrefix(component.name + " ") }, "\(component.name) is not listed")
        }
        for name in ["libharu", "libqrencode", "libpng", "zlib"] {
            let line = try #require(lines.first { $0.hasPrefix(name + " ") })
            let version = line.dropFirst(name.count).split(separator: " ").first ?? ""
            #expect(
                version.first?.isNumber == true && version.contains("."), "\(name): no linked version in « \(line) »")
        }
        // The HTTP libraries are the server's alone: this program does not link them.
        for name in ["GNU libmicrohttpd", "GnuTLS"] {
            let line = try #require(lines.first { $0.hasPrefix(name + " ") })
            #expect(line.dropFirst(name.count).split(separator: " ").first == "-", "\(line)")
        }
        #expect(!result.stdout.contains("GNU LESSER GENERAL PUBLIC LICENSE"), "--list prints no licence text")
    }

    /// The administrator's tool links no HTTP server nor TLS library (`ldd`, from the system).
    @Test func theAdminToolLinksNoHTTPLibrary() throws {
        let linked = try Tool.external("ldd", [Tool.admin.path])
        #expect(linked.status == 0, "\(linked.stderr)")
        #expect(linked.stdout.contains("libhpdf"), "ldd lists the PDF library: \(linked.stdout)")
        for library in ["libmicrohttpd", "libgnutls"] {
            #expect(!linked.stdout.contains(library), "attestation-admin links \(library)")
        }
    }

    @Test func helpAndBadOptions() throws {
        let help = try Tool.admin(["licenses", "--help"])
        #expect(help.status == 0)
        #expect(help.stdout.contains("--list"))
        let listed = try Tool.admin(["--help"])
        #expect(listed.stdout.contains("licenses"), "the subcommand is listed")
        let bad = try Tool.admin(["licenses", "--json"])
        #expect(bad.status == 64, "\(bad.stderr)")
    }
}
