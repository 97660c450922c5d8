import AttestationKit
import Foundation
import TestSupport
import Testing

/// The worked example of docs/forms.md, as its file.
private func documentedExample() throws -> String {
    let docs = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("docs/forms.md")
    let text = try String(contentsOf: docs, encoding: .utf8)
    let section = try #require(text.range(of: "## A complete example"))
    let start = try #require(text.range(of: "```json\n", range: section.upperBound..<text.endIndex))
    let end = try #require(text.range(of: "\n```", range: start.upperBound..<text.endIndex))
    return String(text[start.upperBound..<end.lowerBound]) + "\n"
}

@Suite struct FormCheckCommandTests {
    /// Done when a form written from docs/forms.md alone loads and renders (issue 17).
    @Test func theDocumentedExampleIsCheckedPreviewedAndRendered() throws {
        let scratch = try Scratch()
        let directory = scratch.url.appendingPathComponent("forms")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let file = directory.appendingPathComponent("sortie.json")
        try documentedExample().write(to: file, atomically: true, encoding: .utf8)

        let check = try Tool.admin(["forms", "check", file.path])
        #expect(check.status == 0, "\(check.stderr)")
        #expect(check.stdout.contains("sortie-exemple-2021 : "))
        #expect(check.stdout.contains("motifs (3, un seul par attestation) : travail, sante, famille"))
        #expect(check.stdout.contains("non imprimé : lieu de naissance"))
        #expect(check.stdout.contains("valide ; le serveur l’acceptera."))

        let preview = scratch.path("essai.pdf")
        let drawn = try Tool.admin(["forms", "preview", file.path, "-o", preview])
        #expect(drawn.status == 0, "\(drawn.stderr)")
        let text = try Tool.run(URL(fileURLWithPath: "/usr/bin/pdftotext"), ["-layout", preview, "-"]).stdout
        for expected in [
            "ATTESTATION DE SORTIE", "Camille Exemple", "75001 Paris", "1. Déplacements entre le domicile",
        ] {
            #expect(text.contains(expected), "\(expected) in \(text)")
        }
        let payload = try #require(try decodedQRCodes(in: preview, scratch: scratch).first)
        #expect(payload.hasSuffix("Motifs: travail;\n"))

        let pdf = scratch.path("a.pdf")
        let render = try Tool.admin([
            "render", "--first-name", "Ana", "--last-name", "Lima", "--birth-date", "02/03/1990",
            "--birth-place", "Porto", "--address", "1 rue A", "--zip", "33000", "--city", "Bordeaux",
            "--form", "sortie-exemple-2021", "--reason", "famille", "--forms-dir", directory.path, "-o", pdf,
        ])
        #expect(render.status == 0, "\(render.stderr)")
        #expect(
            try decodedQRCodes(in: pdf, scratch: scratch).first?.contains("Adresse: 1 rue A 33000 Bordeaux;\n") == true)
    }

    @Test func aTrailingCommaIsNamedWithItsLineAndColumn() throws {
        let scratch = try Scratch()
        let text = try documentedExample().replacingOccurrences(
            of: "\"size\": 300 }\n  ]", with: "\"size\": 300 },\n  ]")
        let file = scratch.path("virgule.json")
        try text.write(toFile: file, atomically: true, encoding: .utf8)
        let result = try Tool.admin(["forms", "check", file])
        #expect(result.status == 65)
        let line = text.split(separator: "\n", omittingEmptySubsequences: false).firstIndex { $0 == "  ]" }.map {
            $0 + 1
        }
        #expect(result.stderr.contains("virgule.json, qrCodes : virgule en trop avant « ] »"), "\(result.stderr)")
        #expect(result.stderr.contains("(ligne \(line ?? 0), colonne 3)"), "\(result.stderr)")
    }

    /// A valid form the renderer does not draw yet: check says what it lacks; preview and the
    /// server refuse it.
    @Test func aFormThisServerDoesNotDrawYetIsRefusedWithWhatItLacks() throws {
        let scratch = try Scratch()
        let text = try documentedExample().replacingOccurrences(
            of: "\"font\": \"Helvetica-Bold\"", with: "\"font\": \"Symbol\"")
        let file = scratch.path("symbol.json")
        try text.write(toFile: file, atomically: true, encoding: .utf8)
        let check = try Tool.admin(["forms", "check", file])
        #expect(check.status == 65)
        #expect(
            check.stderr.contains("pas encore dessiné par ce serveur : police Symbol (title.font)"), "\(check.stderr)")
        let preview = try Tool.admin(["forms", "preview", file, "-o", scratch.path("x.pdf")])
        #expect(preview.status == 65)
        let listing = try Tool.admin(["forms", "--forms-dir", scratch.url.path])
        #expect(listing.status == 65)
        #expect(
            listing.stderr.contains("symbol.json, title.font : police Symbol : pas encore dessiné par ce serveur"),
            "\(listing.stderr)")
    }

    /// The form of 23 March 2021 for the "mesures renforcées" departments has three pages (its
    /// blank's two, then the big QR code's): `forms check` lists the three, and the values it
    /// writes on page 2 as on page 2.
    @Test func checkingAThreePageFormListsEveryPage() throws {
        let forms = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Sources/FormSchema/Forms")
        let official = try String(
            contentsOf: forms.appendingPathComponent("deplacement-2021-03-23-mesures-renforcees.json"), encoding: .utf8)
        // Under an id of its own: the built-in one is taken.
        let scratch = try Scratch()
        let file = scratch.path("trois-pages.json")
        try official.replacingOccurrences(
            of: "\"id\": \"deplacement-2021-03-23-mesures-renforcees\"", with: "\"id\": \"essai-trois-pages\""
        ).write(toFile: file, atomically: true, encoding: .utf8)
        let check = try Tool.admin(["forms", "check", file])
        #expect(check.status == 0, "\(check.stderr)")
        #expect(
            check.stdout.contains(
                "  pages : page 1 595.32 × 841.92 pt, page 2 595.32 × 841.92 pt, page 3 595.28 × 841.89 pt\n"),
            "\(check.stdout)")
        #expect(check.stdout.contains("Fait à {city} en (72, 99) page 2"), "\(check.stdout)")
    }

    /// The official forms of 2020–2021 are all drawn: listed as any other, and links can ask
    /// for them.
    @Test func theOtherOfficialFormsAreListedAndDrawn() throws {
        let scratch = try Scratch()
        let result = try Tool.admin(["forms"])
        #expect(result.status == 0)
        #expect(!result.stdout.contains("à venir"))
        for id in ReferenceExample.folders {
            #expect(result.stdout.contains("\n\(id) : "), "\(id)")
        }
        let output = scratch.path("couvre-feu.pdf")
        let render = try Tool.admin([
            "render", "--first-name", "A", "--last-name", "B", "--birth-date", "01/01/1970",
            "--birth-place", "C", "--address", "D", "--zip", "75001", "--city", "Paris",
            "--form", "couvre-feu-2021-01-25", "--reason", "travail", "-o", output,
        ])
        #expect(render.status == 0, "\(render.stderr)")
        #expect(FileManager.default.contents(atPath: output)?.starts(with: Array("%PDF-".utf8)) == true)
    }
}
