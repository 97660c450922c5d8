import Foundation
import TestSupport
import Testing

/// A person's values are refused where they enter (`mint`, its CSV, `render`) when the form
/// cannot write them: a character its PDF's fonts cannot draw (it printed as an empty box), or a
/// value its QR code, in Latin letters, would leave empty (`Prenom: ;`). Issue 22: `mint` took
/// a first name of emoji.
@Suite struct WritableValuesTests {
    static let person: [String: String] = [
        "--first-name": "Camille", "--last-name": "Dupont", "--birth-date": "01/01/1970", "--birth-place": "Lyon",
        "--address": "999 avenue de France", "--zip": "75001", "--city": "Paris",
    ]

    /// The options of `person` with `changes`, in a fixed order.
    static func options(_ changes: [String: String]) -> [String] {
        let values = person.merging(changes) { $1 }
        return ["--first-name", "--last-name", "--birth-date", "--birth-place", "--address", "--zip", "--city"]
            .flatMap { [$0, values[$0]!] }
    }

    static func site() throws -> Scratch {
        let scratch = try Scratch()
        let result = try Tool.admin(["init", "--base-url", "https://attestation.example.org"], in: scratch.url)
        try #require(result.status == 0, "init failed: \(result.stderr)")
        return scratch
    }

    @Test(arguments: [
        // DejaVu Sans draws 😀 and ☺, but neither has a Latin-letter form: the QR code's field would be empty.
        ("--first-name", "😀😀", "prénom : « 😀 » (U+1F600)", "QR code"),
        ("--first-name", "☺", "prénom : « ☺ » (U+263A)", "QR code"),
        // No font of the form has these: an empty box on the page.
        ("--last-name", "Dupont 漢字", "nom : « 漢 » (U+6F22)", "polices"),
        ("--city", "Paris 🦄", "ville : « 🦄 » (U+1F984)", "polices"),
        ("--address", "1 rue 👍", "adresse : « 👍 » (U+1F44D)", "polices"),
    ])
    func mintRefusesWhatTheFormCannotWrite(option: String, value: String, named: String, why: String) throws {
        let scratch = try Self.site()
        for form in [[], ["--form", "deplacement-2020-10-30"]] {
            let result = try Tool.admin(
                ["mint"] + Self.options([option: value]) + ["--reason", "travail"] + form, in: scratch.url)
            #expect(result.status == 65, "\(value) \(form): \(result.status) \(result.stdout)")
            #expect(result.stderr.contains("\(option) : \(named)"), "\(value): \(result.stderr)")
            #expect(result.stderr.contains(why), "\(value): \(result.stderr)")
            #expect(result.stdout.isEmpty, "no link")
        }
        let register = (try? String(contentsOfFile: scratch.path("links.jsonl"), encoding: .utf8)) ?? ""
        #expect(register.isEmpty, "nothing registered: \(register)")
    }

    /// Per form: `¤` is Windows-1252, written as typed by the forms whose QR code keeps the
    /// values as typed (October 2020), and folded to nothing by the others.
    @Test func theQRCodeOfEachFormDecides() throws {
        let scratch = try Self.site()
        let folded = try Tool.admin(
            ["mint"] + Self.options(["--first-name": "¤"]) + ["--reason", "travail"], in: scratch.url)
        #expect(folded.status == 65, "\(folded.stdout)")
        #expect(folded.stderr.contains("--first-name : prénom : « ¤ » (U+00A4)"), "\(folded.stderr)")
        #expect(folded.stderr.contains("deplacement-2021-"), "the form in force is named: \(folded.stderr)")
        let typed = try Tool.admin(
            ["mint"] + Self.options(["--first-name": "¤"]) + [
                "--reason", "travail", "--form", "deplacement-2020-10-30",
            ],
            in: scratch.url)
        #expect(typed.status == 0, "\(typed.stderr)")
    }

    /// Accents, ligatures and other alphabets the fonts draw are minted, and the PDF holds them.
    @Test func namesTheFontsDrawAreMinted() throws {
        let scratch = try Self.site()
        let changes = [
            "--first-name": "Éloïse-Noëlle", "--last-name": "Œuvray Straße", "--birth-place": "Łódź",
            "--address": "3 rue Ωμέγα", "--city": "L’Haÿ-les-Roses",
        ]
        // A version that prints the values as typed (those of April 2021 fold them to ASCII).
        let result = try Tool.admin(
            ["mint"] + Self.options(changes) + ["--reason", "travail", "--form", "deplacement-2021-03-23-couvre-feu"],
            in: scratch.url)
        try #require(result.status == 0, "\(result.stderr)")
        let file = scratch.path("a.pdf")
        let render = try Tool.admin(
            ["render", result.stdout.trimmingCharacters(in: .whitespacesAndNewlines), "-o", file], in: scratch.url)
        try #require(render.status == 0, "\(render.stderr)")
        let text = try Tool.external("pdftotext", [file, "-"]).stdout
        for value in changes.values {
            #expect(text.contains(value), "\(value) not in the PDF: \(text.prefix(600))")
        }
    }

    @Test func csvRowsWithWhatTheFormCannotWriteAreRefusedByLine() throws {
        let scratch = try Self.site()
        let csv = """
            prénom;nom;date de naissance;lieu de naissance;adresse;code postal;ville;motifs
            Zoé;Durand;05/06/1990;Nantes;2 rue Zola;44000;Nantes;sport_animaux
            😀😀;Durand;05/06/1990;Nantes;2 rue Zola;44000;Nantes;sport_animaux
            Hélène;Leroy 漢;01/02/1950;Bourg-en-Bresse;1 rue de la Paix;01000;Bourg-en-Bresse;travail

            """
        try Data(csv.utf8).write(to: URL(fileURLWithPath: scratch.path("people.csv")))
        let result = try Tool.admin(["mint", "--csv", "people.csv"], in: scratch.url)
        #expect(result.status == 65, "\(result.stderr)")
        #expect(
            result.stderr.contains("people.csv, ligne 3, colonne « prénom », valeur « 😀😀 » : « 😀 » (U+1F600)"),
            "\(result.stderr)")
        #expect(
            result.stderr.contains("people.csv, ligne 4, colonne « nom », valeur « Leroy 漢 » : « 漢 » (U+6F22)"),
            "\(result.stderr)")
        #expect(result.stdout.split(separator: "\n").count == 1, "Zoé's link only: \(result.stdout)")
    }

    @Test func renderRefusesWhatTheFormCannotWrite() throws {
        let scratch = try Self.site()
        let file = scratch.path("a.pdf")
        for (option, value, named) in [
            ("--first-name", "😀😀", "prénom : « 😀 » (U+1F600)"), ("--city", "Paris 🦄", "ville : « 🦄 » (U+1F984)"),
        ] {
            let result = try Tool.admin(
                ["render"] + Self.options([option: value]) + ["--reason", "travail", "-o", file], in: scratch.url)
            #expect(result.status == 65, "\(value): \(result.status) \(result.stderr)")
            #expect(result.stderr.contains("\(option) : \(named)"), "\(value): \(result.stderr)")
            #expect(!FileManager.default.fileExists(atPath: file))
        }
    }
}
