import Foundation
import TestSupport
import Testing

/// A form that neither prints nor encodes the place of birth (the example of docs/forms.md, as
/// the versions of April–June 2021) does not ask for it: `render` and `mint` work without
/// `--birth-place`; a form that prints it still demands it.
@Suite struct UnprintedBirthPlaceTests {
    static let withoutBirthPlace = [
        "--first-name", "Ana", "--last-name", "Lima", "--birth-date", "02/03/1990", "--address", "1 rue A",
        "--zip", "33000", "--city", "Bordeaux", "--reason", "famille",
    ]

    /// The example form of docs/forms.md in `directory`.
    static func writeExample(in directory: URL) throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let docs = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("docs/forms.md")
        let text = try String(contentsOf: docs, encoding: .utf8)
        let section = try #require(text.range(of: "## A complete example"))
        let start = try #require(text.range(of: "```json\n", range: section.upperBound..<text.endIndex))
        let end = try #require(text.range(of: "\n```", range: start.upperBound..<text.endIndex))
        try String(text[start.upperBound..<end.lowerBound]).write(
            to: directory.appendingPathComponent("sortie.json"), atomically: true, encoding: .utf8)
    }

    @Test func renderDrawsAFormWithoutPlaceOfBirthWithoutAskingForOne() throws {
        let scratch = try Scratch()
        let directory = scratch.url.appendingPathComponent("forms")
        try Self.writeExample(in: directory)
        let pdf = scratch.path("a.pdf")
        let render = try Tool.admin(
            ["render"] + Self.withoutBirthPlace + [
                "--form", "sortie-exemple-2021", "--forms-dir", directory.path, "-o", pdf,
            ])
        #expect(render.status == 0, "\(render.stderr)")
        let payload = try #require(try decodedQRCodes(in: pdf, scratch: scratch).first)
        #expect(payload.contains("Nom: Lima;\nPrenom: Ana;\nNaissance: 02/03/1990;\n"), "\(payload)")

        // The default form prints the place of birth: still demanded, by name.
        let refused = try Tool.admin(
            ["render"] + Self.withoutBirthPlace.dropLast(2) + ["--reason", "travail", "-o", scratch.path("b.pdf")])
        #expect(refused.status == 64, "\(refused.stderr)")
        #expect(refused.stderr.contains("--birth-place manquant(s) ; les sept valeurs d’identité"), "\(refused.stderr)")
    }

    @Test func mintMakesALinkWithoutPlaceOfBirthForSuchAForm() throws {
        let scratch = try initializedSite()
        try Self.writeExample(in: scratch.url.appendingPathComponent("forms"))
        let minted = try mintSucceeding(Self.withoutBirthPlace + ["--form", "sortie-exemple-2021"], in: scratch)
        #expect(minted.stdout.contains("https://attestation.example.org/"), "\(minted.stdout)")
        let line = try #require(try registerLines(scratch).last)
        #expect(line["form"] as? String == "sortie-exemple-2021")

        let refused = try Tool.admin(
            ["mint"] + Self.withoutBirthPlace.dropLast(2) + [
                "--reason", "travail", "--form", "deplacement-2021-03-23-couvre-feu",
            ], in: scratch.url)
        #expect(refused.status == 64, "\(refused.stderr)")
        #expect(refused.stderr.contains("--birth-place"), "\(refused.stderr)")

        // A link that follows the calendar needs what the version in force prints: since
        // 3 April 2021, no place of birth.
        let following = try mintSucceeding(Self.withoutBirthPlace.dropLast(2) + ["--reason", "travail"], in: scratch)
        #expect(following.stdout.contains("https://attestation.example.org/"), "\(following.stdout)")
    }
}
