import AttestationKit
import FormSchema
import Foundation
import TestSupport
import Testing

private let builtInJSON = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Sources/FormSchema/Forms/deplacement-2020-11-28.json")

private let administrationPage = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("docs/administration.md")

/// A copy of the default form (deplacement-2020-11-28) under another id, with one change applied to its JSON object.
private func derivedForm(id: String, change: (inout [String: Any]) -> Void = { _ in }) throws -> Data {
    var object = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: builtInJSON)) as? [String: Any])
    object["id"] = id
    change(&object)
    return try JSONSerialization.data(withJSONObject: object)
}

@Suite struct FormsCommandTests {
    /// `render` and `mint` without `--form`, their `--help` and docs/administration.md name the
    /// same default form: the catalog's.
    @Test func theHelpAndTheDocsNameTheDefaultForm() throws {
        let id = FormCatalog.builtIn.defaultFormID
        for command in ["render", "mint"] {
            let help = try Tool.admin([command, "--help"])
            #expect(help.status == 0)
            #expect(help.stdout.contains("par défaut \(id)"), "\(command) --help: \(help.stdout)")
        }
        let page = try String(contentsOf: administrationPage, encoding: .utf8)
        #expect(page.contains("`--form ID` (default `\(id)`)"), "docs/administration.md, render's options")
    }

    @Test func listsBothOfficialFormsWithTheirCodes() throws {
        let result = try Tool.admin(["forms"])
        #expect(result.status == 0)
        #expect(result.stdout.contains("deplacement-2020-11-28 (par défaut)"))
        #expect(result.stdout.contains("deplacement-2020-11-02 :"))
        for code in ["travail", "achats_culturel_cultuel", "achats", "sport_animaux", "enfants"] {
            #expect(result.stdout.contains("  \(code) "), "code \(code) listed")
        }
    }

    @Test func jsonListingIsMachineReadable() throws {
        let result = try Tool.admin(["forms", "--json"])
        #expect(result.status == 0)
        let all = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]])
        let forms = all.filter { $0["ready"] as? Bool == true }
        #expect(
            forms.map { $0["id"] as? String } == [
                "deplacement-2020-11-28", "deplacement-2020-11-02", "deplacement-2021-03-17-couvre-feu",
                "deplacement-2021-03-17-week-end",
                "deplacement-2021-03-01", "couvre-feu-2021-01-25", "deplacement-2020-10-30", "couvre-feu-2020-10-17",
            ])
        #expect(forms.map { $0["isDefault"] as? Bool } == [true] + Array(repeating: false, count: 7))
        // Every official form is drawn: none waits for the renderer.
        #expect(all.count == forms.count)
        #expect(all.allSatisfy { (($0["awaiting"] as? [String]) ?? ["?"]).isEmpty })
        let reasons = try #require(forms[1]["reasons"] as? [[String: Any]])
        #expect(reasons.map { $0["code"] as? String }.prefix(2) == ["travail", "achats"])
        #expect(reasons.allSatisfy { !(($0["label"] as? String) ?? "\n").contains("\n") })
    }

    @Test func aThirdFormIsAddedFromAJSONFileWithoutRecompiling() throws {
        let scratch = try Scratch()
        let directory = scratch.url.appendingPathComponent("forms")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try derivedForm(id: "couvre-feu-2021") { object in
            var reasons = object["reasons"] as! [[String: Any]]
            reasons[0]["code"] = "activite_pro"
            object["reasons"] = reasons
        }.write(to: directory.appendingPathComponent("couvre-feu.json"))

        let listing = try Tool.admin(["forms", "--forms-dir", directory.path])
        #expect(listing.status == 0, "\(listing.stderr)")
        #expect(listing.stdout.contains("couvre-feu-2021 :"))
        #expect(listing.stdout.contains("  activite_pro "))

        let file = scratch.path("a.pdf")
        let render = try Tool.admin([
            "render", "--first-name", "Ana", "--last-name", "Lima", "--birth-date", "02/03/1990",
            "--birth-place", "Porto", "--address", "1 rue A", "--zip", "33000", "--city", "Bordeaux",
            "--form", "couvre-feu-2021", "--reason", "activite_pro", "--forms-dir", directory.path, "-o", file,
        ])
        #expect(render.status == 0, "\(render.stderr)")
        let payload = try #require(try decodedQRCodes(in: file, scratch: scratch).first)
        #expect(payload.hasSuffix("Motifs: activite_pro;\n"))
    }

    @Test func aBrokenFormFileIsNamedWithItsJSONPath() throws {
        let scratch = try Scratch()
        try derivedForm(id: "faute-de-frappe") { object in
            var reasons = object["reasons"] as! [[String: Any]]
            reasons[2]["lable"] = reasons[2]["label"]
            object["reasons"] = reasons
        }.write(to: URL(fileURLWithPath: scratch.path("broken.json")))
        let result = try Tool.admin(["forms", "--forms-dir", scratch.url.path])
        #expect(result.status == 65)
        #expect(result.stderr.contains("broken.json, reasons[2].lable : clé inconnue"), "\(result.stderr)")
    }
}

/// The worked example of docs/forms.md, as its file.
private func documentedExample() throws -> String {
    let docs = builtInJSON.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("docs/forms.md")
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

    /// The official forms of 2020–2021 are all drawn: listed as any other, and links can ask
    /// for them.
    @Test func theOtherOfficialFormsAreListedAndDrawn() throws {
        let scratch = try Scratch()
        let result = try Tool.admin(["forms"])
        #expect(result.status == 0)
        #expect(!result.stdout.contains("à venir"))
        for id in [
            "couvre-feu-2020-10-17", "deplacement-2020-10-30", "couvre-feu-2021-01-25", "deplacement-2021-03-01",
            "deplacement-2021-03-17-couvre-feu", "deplacement-2021-03-17-week-end",
        ] {
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
