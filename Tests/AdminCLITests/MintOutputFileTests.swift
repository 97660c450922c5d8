import Foundation
import TestSupport
import Testing

@Suite struct MintOutputFileTests {
    @Test func mintSaysWhatItWroteAndRefusesToOverwriteWithoutForce() throws {
        let scratch = try initializedSite()
        let first = try mintSucceeding(personArguments("Camille", "Dupont") + ["-o", "liens.html"], in: scratch)
        #expect(first.stdout.contains("1 lien écrit dans liens.html, 0 refusé"), "\(first.stdout)")
        let before = try Data(contentsOf: URL(fileURLWithPath: scratch.path("liens.html")))
        #expect(String(decoding: before, as: UTF8.self).contains("<!DOCTYPE html>"), "the format follows the extension")

        let again = try Tool.admin(
            ["mint"] + personArguments("Camille", "Dupont") + ["-o", "liens.html"], in: scratch.url)
        #expect(again.status == 73)
        #expect(again.stderr.contains("liens.html existe déjà") && again.stderr.contains("--force"), "\(again.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: scratch.path("liens.html"))) == before, "left as it was")
        #expect(try registerLines(scratch).count == 1, "nothing minted, nothing registered")

        let forced = try mintSucceeding(
            personArguments("Camille", "Dupont") + ["-o", "liens.html", "--force"], in: scratch)
        #expect(forced.stdout.contains("1 lien écrit dans liens.html"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: scratch.path("liens.html"))) != before)
    }
}
