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
    /// `render` without `--form`, its `--help` and docs/administration.md name the same default
    /// form: the catalog's; `mint --help` says a link follows the calendar.
    @Test func theHelpAndTheDocsNameTheDefaultForm() throws {
        let id = FormCatalog.builtIn.defaultFormID
        let render = try Tool.admin(["render", "--help"])
        #expect(render.status == 0)
        #expect(render.stdout.contains("par défaut \(id)"), "render --help: \(render.stdout)")
        let mint = try Tool.admin(["mint", "--help"])
        let words = mint.stdout.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(words.contains("sans --form, le lien suit le calendrier"), "mint --help: \(mint.stdout)")
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

    /// Reason 12 of the mesures-renforcées form has its title as a fixed text and an empty
    /// label: it is listed by its short label, not as « 12.  (suite de transits) » (issue 40).
    @Test func aReasonWhoseTitleIsAFixedTextIsListedByItsShortLabel() throws {
        let result = try Tool.admin(["forms"])
        #expect(
            result.stdout.contains("12. Déplacement de transit vers les gares et les aéroports (suite de transits)"),
            "\(result.stdout)")
        #expect(!result.stdout.contains("12.  ("), "\(result.stdout)")
        let json = try Tool.admin(["forms", "--json"])
        let forms = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]])
        let labels = forms.flatMap { ($0["reasons"] as? [[String: Any]]) ?? [] }.map { $0["label"] as? String }
        #expect(labels.allSatisfy { $0?.isEmpty == false }, "every reason has a label")
    }

    @Test func jsonListingIsMachineReadable() throws {
        let result = try Tool.admin(["forms", "--json"])
        #expect(result.status == 0)
        let all = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]])
        let forms = all.filter { $0["ready"] as? Bool == true }
        #expect(
            forms.map { $0["id"] as? String } == [
                "deplacement-2020-11-28", "deplacement-2020-11-02", "deplacement-2021-06-10", "deplacement-2021-05-23",
                "deplacement-2021-05-04", "deplacement-2021-04-07-couvre-feu", "deplacement-2021-04-07-journee",
                "deplacement-2021-03-23-couvre-feu",
                "deplacement-2021-03-23-mesures-renforcees", "deplacement-2021-03-17-couvre-feu",
                "deplacement-2021-03-17-week-end", "deplacement-2021-03-01", "couvre-feu-2021-01-25",
                "couvre-feu-2021-01-04", "couvre-feu-2020-12-15", "deplacement-2020-10-30", "couvre-feu-2020-10-17",
            ])
        #expect(forms.map { $0["isDefault"] as? Bool } == [true] + Array(repeating: false, count: 16))
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
