import Foundation
import Testing

@testable import Rendering

@Suite("Library versions")
struct LibraryVersionTests {
    /// The versions the licences page and `attestation-admin licenses` show are the loaded
    /// libraries' own: each is what pkg-config says of the library the build found.
    @Test(
        "the versions Rendering reports are those pkg-config gives for the installed libraries",
        arguments: [
            ("harfbuzz", "harfbuzz"), ("cairo", "cairo"), ("libpng", "libpng"), ("zlib", "zlib"),
            ("libqrencode", "libqrencode"),
        ])
    func reportedVersionIsTheInstalledOne(library: String, pkgConfigModule: String) throws {
        let reported = try #require(AttestationRenderer.libraryVersions[library], "no version for \(library)")
        let installed = try withScratchDirectory { directory in
            try Tool.run("pkg-config", ["--modversion", pkgConfigModule], in: directory).text
                .trimmingCharacters(in: .whitespacesAndNewlines)
        }
        #expect(reported == installed, "\(library): \(reported), pkg-config says \(installed)")
    }
}
