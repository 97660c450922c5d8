import Foundation
import TestSupport
import Testing

private let camille = [
    "--first-name", "Camille", "--last-name", "Dupont", "--birth-date", "01/01/1970", "--birth-place", "Lyon",
    "--address", "999 avenue de France", "--zip", "75001", "--city", "Paris",
]

/// A time as printed (`08:15`, `08h15`).
private var timePattern: Regex<Substring> { /[0-9]{1,2} ?[:hH] ?[0-9]{2}/ }

/// A directory with a configuration and key made by `init`.
private func initialized() throws -> Scratch {
    let scratch = try Scratch()
    let result = try Tool.admin(["init", "--base-url", "https://attestation.example.org"], in: scratch.url)
    try #require(result.status == 0, "init failed: \(result.stderr)")
    return scratch
}

/// The text of each page of a PDF, by pdftotext.
private func pageTexts(_ file: String) throws -> [String] {
    let info = try Tool.external("pdfinfo", [file])
    let pages = try #require(info.stdout.firstMatch(of: /Pages: +([0-9]+)/).flatMap { Int($0.1) })
    return try (1...max(pages, 1)).map { page in
        try Tool.external("pdftotext", ["-f", "\(page)", "-l", "\(page)", file, "-"]).stdout
    }
}

/// A people file as a spreadsheet saves it: semicolons, CRLF, French titles, reasons and
/// expiry columns that a paper attestation ignores.
private let peopleRows = [
    "Prénom;Nom;Date de naissance;Lieu de naissance;Adresse;Code postal;Ville;Motifs;Expiration",
    "Hélène;Leroy;01/02/1950;Bourg-en-Bresse;1 rue de la Paix;1000;Bourg-en-Bresse;sante;90d",
    "François;Lefèvre;1/2/1946;Besançon;3 place du Marché;75001;Paris;;",
]

@Suite struct PaperCommandTests {
    @Test func paperFromTheIdentityOptionsPrintsThePersonAndNoTimeNoQRCodeNoCreationDate() throws {
        let scratch = try Scratch()
        let file = scratch.path("papier.pdf")
        let result = try Tool.admin(["paper"] + camille + ["-o", file], in: scratch.url)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("1 attestation papier"))
        let text = try pageTexts(file)
        #expect(text.count == 1, "one page, as the official blank")
        for value in ["Camille Dupont", "01/01/1970", "Lyon", "999 avenue de France 75001 Paris"] {
            #expect(text[0].contains(value), "\(value)")
        }
        #expect(text[0].firstMatch(of: timePattern) == nil, "a time is printed")
        let images = try Tool.external("pdfimages", ["-list", file])
        #expect(images.stdout.split(separator: "\n").count == 2, "no image: \(images.stdout)")
        let info = try Tool.external("pdfinfo", [file])
        #expect(!info.stdout.contains("CreationDate"))
        #expect(try Tool.external("qpdf", ["--check", file]).status == 0)
    }

    @Test(arguments: ["utf8-bom", "windows-1252"])
    func peopleFileTimesCopiesGivesEveryPageInOrder(_ encoding: String) throws {
        let scratch = try Scratch()
        let csv = scratch.path("personnes.csv")
        let text = peopleRows.joined(separator: "\r\n") + "\r\n"
        let bytes =
            encoding == "utf8-bom"
            ? Data([0xEF, 0xBB, 0xBF]) + Data(text.utf8) : try #require(text.data(using: .windowsCP1252))
        try bytes.write(to: URL(fileURLWithPath: csv))
        let file = scratch.path("papiers.pdf")
        let result = try Tool.admin(["paper", "--people", csv, "--copies", "3", "-o", file], in: scratch.url)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("6 attestations papier (2 personnes × 3)"))
        let pages = try pageTexts(file)
        #expect(pages.count == 6)
        for (index, page) in pages.enumerated() {
            let expected = index < 3 ? "Hélène Leroy" : "François Lefèvre"
            #expect(page.contains(expected), "page \(index + 1): \(page.prefix(300))")
        }
        #expect(pages[0].contains("1 rue de la Paix 01000 Bourg-en-Bresse"), "the zip code completed as mint does")
        #expect(pages[3].contains("01/02/1946"))
        #expect(pages.allSatisfy { $0.firstMatch(of: timePattern) == nil })
    }

    /// A file made for paper only: the reasons are ticked by hand, so it needs no such column
    /// (mint, which writes them into links, still asks for it).
    @Test func aPeopleFileWithoutReasonsIsEnoughForPaperButNotForLinks() throws {
        let scratch = try initialized()
        let csv = scratch.path("personnes.csv")
        let rows = [
            "prénom;nom;date de naissance;lieu de naissance;adresse;code postal;ville",
            "Hélène;Leroy;03/04/1941;Besançon;12 rue des Lilas;25000;Besançon",
        ]
        try Data(rows.joined(separator: "\r\n").utf8).write(to: URL(fileURLWithPath: csv))
        let file = scratch.path("papiers.pdf")
        let paper = try Tool.admin(["paper", "--people", csv, "-o", file], in: scratch.url)
        #expect(paper.status == 0, "\(paper.stderr)")
        #expect(try pageTexts(file).first?.contains("Hélène Leroy") == true)
        let mint = try Tool.admin(["mint", "--csv", csv, "-o", scratch.path("liens.html")], in: scratch.url)
        #expect(mint.status == 65)
        #expect(mint.stderr.contains("colonne(s) manquante(s) : motifs"), "\(mint.stderr)")
    }

    @Test func aRefusedLineOfThePeopleFileWritesNothingAndNamesTheLine() throws {
        let scratch = try Scratch()
        let csv = scratch.path("personnes.csv")
        let rows = peopleRows + ["Bob;Faux;31/02/1980;Paris;4 rue Y;75002;Paris;;"]
        try Data(rows.joined(separator: "\n").utf8).write(to: URL(fileURLWithPath: csv))
        let file = scratch.path("papiers.pdf")
        let result = try Tool.admin(["paper", "--people", csv, "-o", file], in: scratch.url)
        #expect(result.status == 65)
        #expect(result.stderr.contains("ligne 4, colonne « Date de naissance », valeur « 31/02/1980 »"))
        #expect(result.stderr.contains("aucune attestation papier écrite"))
        #expect(!FileManager.default.fileExists(atPath: file))
    }

    @Test func aLinkGivesItsPersonAndFormAndARevokedLinkIsRefused() throws {
        let scratch = try initialized()
        let mint = try Tool.admin(
            ["mint"] + camille + ["--reason", "travail", "--form", "deplacement-2020-11-02"], in: scratch.url)
        try #require(mint.status == 0, "\(mint.stderr)")
        let link = mint.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let file = scratch.path("papier.pdf")
        let result = try Tool.admin(["paper", "--link", link, "--copies", "2", "-o", file], in: scratch.url)
        #expect(result.status == 0, "\(result.stderr)")
        let pages = try pageTexts(file)
        #expect(pages.count == 2)
        #expect(pages.allSatisfy { $0.contains("Camille Dupont") })
        // The 2020-11-02 form writes "n°2020-1310", the default 2020-11-28 one "no 2020-1310".
        #expect(pages[0].contains("n°2020-1310"), "the link's form")

        let revoke = try Tool.admin(["revoke", link], in: scratch.url)
        try #require(revoke.status == 0, "\(revoke.stderr)")
        let again = try Tool.admin(["paper", "--link", link, "-o", scratch.path("revoque.pdf")], in: scratch.url)
        #expect(again.status == 65)
        #expect(again.stderr.contains("lien révoqué"))
        #expect(!FileManager.default.fileExists(atPath: scratch.path("revoque.pdf")))
    }

    @Test func theStandardOutputGetsThePDFWithADash() throws {
        let scratch = try Scratch()
        let result = try Tool.admin(["paper"] + camille + ["-o", "-"], in: scratch.url)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.hasPrefix("%PDF-"))
        #expect(result.stderr.contains("1 attestation papier"))
    }

    @Test(
        arguments: [
            (["--copies", "0"], "de 1 à 100 exemplaires", 64),
            (["--copies", "101"], "de 1 à 100 exemplaires", 64),
            (["--copies", "1000"], "de 1 à 100 exemplaires", 64),
            (["--form", "plage-2020"], "formulaire inconnu ; disponibles : deplacement-2020-11-28", 65),
            (["--zip", "7500"], "code postal", 65),
            (["--people", "personnes.csv"], "s’excluent", 64),
        ])
    func refusedOptionsNameWhatIsAccepted(_ change: [String], _ message: String, _ status: Int32) throws {
        let scratch = try Scratch()
        let file = scratch.path("papier.pdf")
        let result = try Tool.admin(["paper"] + camille + change + ["-o", file], in: scratch.url)
        #expect(result.status == status, "\(result.stderr)")
        #expect(result.stderr.contains(message), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: file))
    }

    @Test func anExistingFileIsKeptWithoutForceAndNoPersonIsAUsageError() throws {
        let scratch = try Scratch()
        let file = scratch.path("papier.pdf")
        try Data("garder".utf8).write(to: URL(fileURLWithPath: file))
        let kept = try Tool.admin(["paper"] + camille + ["-o", file], in: scratch.url)
        #expect(kept.status == 73)
        #expect(kept.stderr.contains("existe déjà") && kept.stderr.contains("--force"))
        #expect(try String(contentsOfFile: file, encoding: .utf8) == "garder")
        let forced = try Tool.admin(["paper"] + camille + ["-o", file, "--force"], in: scratch.url)
        #expect(forced.status == 0, "\(forced.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: file)).starts(with: Data("%PDF-".utf8)))

        let nobody = try Tool.admin(["paper", "-o", scratch.path("vide.pdf")], in: scratch.url)
        #expect(nobody.status == 64)
        #expect(nobody.stderr.contains("aucune personne : donnez --link, --people"))
        let png = try Tool.admin(["paper"] + camille + ["-o", scratch.path("papier.png")], in: scratch.url)
        #expect(png.status == 64)
        #expect(png.stderr.contains(".pdf, ou - pour la sortie standard"))
    }

    @Test func helpIsInFrenchWithAnExample() throws {
        let help = try Tool.admin(["paper", "--help"])
        #expect(help.status == 0)
        #expect(help.stdout.contains("UTILISATION : attestation-admin paper"))
        #expect(help.stdout.contains("Exemples :") && help.stdout.contains("--copies"))
        for english in ["USAGE:", "OPTIONS:", "(default:", "Show help"] {
            #expect(!help.stdout.contains(english), "paper --help says « \(english) »")
        }
    }

    /// The sheet `mint` writes links each person's paper attestation, with the same token as
    /// their PDF link, which `paper --link` accepts too.
    @Test func theSheetOfLinksOffersEachPersonsPaperAttestation() throws {
        let scratch = try initialized()
        let sheet = scratch.path("liens.html")
        let mint = try Tool.admin(["mint"] + camille + ["--reason", "travail", "-o", sheet], in: scratch.url)
        try #require(mint.status == 0, "\(mint.stderr)")
        let html = try String(contentsOfFile: sheet, encoding: .utf8)
        let pdf = try #require(
            html.firstMatch(of: /href="https:\/\/attestation.example.org\/attestation.pdf\?t=([^"]+)"/))
        let paper = try #require(
            html.firstMatch(of: /href="(https:\/\/attestation.example.org\/attestation-papier.pdf\?t=([^"]+))"/))
        #expect(paper.2 == pdf.1, "the same link")
        #expect(html.contains("Sans téléphone : la version papier"))
        let file = scratch.path("papier.pdf")
        let result = try Tool.admin(["paper", "--link", String(paper.1), "-o", file], in: scratch.url)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try pageTexts(file).first?.contains("Camille Dupont") == true)
    }
}
