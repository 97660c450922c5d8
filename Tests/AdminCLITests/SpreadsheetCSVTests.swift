import Foundation
import TestSupport
import Testing

/// A sheet as a French office worker keeps it: French titles, birth dates as date cells (two
/// display formats), one typed as ISO text, zip codes as numbers (so 01000 is the number 1000,
/// as a spreadsheet stores it), reasons separated as people type them, and one bad row.
private let sheet = """
    <?xml version="1.0" encoding="UTF-8"?>
    <office:document xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0"
     xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0"
     xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0"
     xmlns:style="urn:oasis:names:tc:opendocument:xmlns:style:1.0"
     xmlns:number="urn:oasis:names:tc:opendocument:xmlns:datastyle:1.0"
     office:version="1.2" office:mimetype="application/vnd.oasis.opendocument.spreadsheet">
     <office:automatic-styles>
      <number:date-style style:name="jj-mm-aaaa"><number:day number:style="long"/><number:text>/</number:text><number:month number:style="long"/><number:text>/</number:text><number:year number:style="long"/></number:date-style>
      <number:date-style style:name="j-m-aaaa"><number:day/><number:text>/</number:text><number:month/><number:text>/</number:text><number:year number:style="long"/></number:date-style>
      <style:style style:name="date-longue" style:family="table-cell" style:data-style-name="jj-mm-aaaa"/>
      <style:style style:name="date-courte" style:family="table-cell" style:data-style-name="j-m-aaaa"/>
     </office:automatic-styles>
     <office:body><office:spreadsheet><table:table table:name="Personnes">
    \(row(["Prénom", "Nom", "Date de naissance", "Lieu de naissance", "Adresse", "Code postal", "Ville", "Motifs"].map(text)))
    \(row([text("Hélène"), text("Leroy"), date("1950-02-01", style: "date-longue"), text("Bourg-en-Bresse"),
           text("1 rue de la Paix"), number(1000), text("Bourg-en-Bresse"), text("travail,sante")]))
    \(row([text("Zoé"), text("Œuvray"), date("1950-02-01", style: "date-courte"), text("Nantes"),
           text("2 rue Z; bât. B"), number(44000), text("Nantes"), text("sante famille")]))
    \(row([text("François"), text("N’Diaye"), text("1950-02-01"), text("Dakar"),
           text("3 place du Marché"), number(75001), text("Paris"), text("achats_culturel_cultuel|enfants")]))
    \(row([text("Bob"), text("Faux"), text("31/02/1980"), text("Paris"),
           text("4 rue Y"), number(75002), text("Paris"), text("travail")]))
    \(row([text("Inès"), text("Martin"), date("1988-02-29", style: "date-longue"), text("Lyon"),
           text("5 cours Z"), number(69003), text("Lyon"), text("Travail;Santé")]))
     </table:table></office:spreadsheet></office:body></office:document>
    """

private func text(_ value: String) -> String {
    "<table:table-cell office:value-type=\"string\"><text:p>\(value)</text:p></table:table-cell>"
}

private func number(_ value: Int) -> String {
    "<table:table-cell office:value-type=\"float\" office:value=\"\(value)\"><text:p>\(value)</text:p></table:table-cell>"
}

private func date(_ iso: String, style: String) -> String {
    "<table:table-cell table:style-name=\"\(style)\" office:value-type=\"date\" office:date-value=\"\(iso)\"><text:p>\(iso)</text:p></table:table-cell>"
}

private func row(_ cells: [String]) -> String { "<table:table-row>\(cells.joined())</table:table-row>" }

/// The sheet saved as CSV by LibreOffice itself (headless soffice), separator `;`, in UTF-8 and
/// in Windows-1252: once for the whole suite, soffice being slow to start.
private enum Converted {
    /// Filter options: separator 59 (;), text delimiter 34 ("), character set (76 UTF-8,
    /// 1 Windows-1252 "Western Europe"), data from line 1.
    static let encodings = ["utf8": "76", "cp1252": "1"]

    /// Bytes, not `Data`: LeakSanitizer does not follow `Data`'s packed references from a global.
    static let files: Result<[String: [UInt8]], ConversionFailure> = {
        do {
            let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("tableur-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: scratch) }
            let source = scratch.appendingPathComponent("personnes.fods")
            try Data(sheet.utf8).write(to: source)
            var files: [String: [UInt8]] = [:]
            for (name, charset) in encodings {
                let output = scratch.appendingPathComponent(name)
                let result = try Tool.external(
                    "soffice",
                    [
                        "-env:UserInstallation=file://\(scratch.path)/profil", "--headless", "--norestore",
                        "--convert-to", "csv:Text - txt - csv (StarCalc):59,34,\(charset),1", "--outdir", output.path,
                        source.path,
                    ], timeout: 300)
                guard
                    let data = FileManager.default.contents(atPath: output.appendingPathComponent("personnes.csv").path)
                else {
                    return .failure(
                        ConversionFailure(
                            description: "soffice wrote no CSV (\(result.status)): \(result.stdout) \(result.stderr)"))
                }
                files[name] = [UInt8](data)
            }
            return .success(files)
        } catch {
            return .failure(ConversionFailure(description: "\(error)"))
        }
    }()

    struct ConversionFailure: Error, CustomStringConvertible { let description: String }
}

@Suite struct SpreadsheetCSVTests {
    @Test(arguments: ["utf8", "cp1252"])
    func aSheetSavedByLibreOfficeMintsItsPeopleAndNamesTheBadRow(encoding: String) throws {
        let data = Data(try Converted.files.get()[encoding]!)
        if encoding == "cp1252" {
            #expect(
                String(validating: [UInt8](data), as: UTF8.self) == nil, "LibreOffice wrote Windows-1252, not UTF-8")
            #expect(data.contains(0x8C) && data.contains(0x92), "Œ and ’, which Windows-1252 has and Latin-1 has not")
        }
        let scratch = try initializedSite()
        try data.write(to: URL(fileURLWithPath: scratch.path("personnes.csv")))
        let result = try Tool.admin(["mint", "--csv", "personnes.csv", "-o", "liens.json"], in: scratch.url)
        #expect(result.status == 65, "one bad row: \(result.stderr)")
        // The bad row: its line, its column as the sheet titles it, its value, what is accepted.
        #expect(
            result.stderr.contains(
                "personnes.csv, ligne 5, colonne « Date de naissance », valeur « 31/02/1980 » : date invalide ; une date réelle est attendue : "
                    + "JJ/MM/AAAA, J/M/AAAA ou AAAA-MM-JJ"), "\(result.stderr)")
        // The zip code the spreadsheet ate a zero of: padded back, with a warning naming its line.
        #expect(
            result.stderr.contains(
                "personnes.csv, ligne 2, colonne « Code postal » : code postal « 1000 » complété en « 01000 »"),
            "\(result.stderr)")
        #expect(result.stderr.contains("4 liens écrits dans liens.json, 1 refusé (ligne 5)"), "\(result.stderr)")
        #expect(result.stderr.contains("lu en Windows-1252") == (encoding == "cp1252"), "\(result.stderr)")

        let links = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: scratch.path("liens.json"))))
                as? [[String: Any]])
        #expect(
            links.map { $0["name"] as? String } == ["Hélène Leroy", "Zoé Œuvray", "François N’Diaye", "Inès Martin"])
        let expected = [
            (
                "né(e) le 01/02/1950 à Bourg-en-Bresse", "adresse : 1 rue de la Paix 01000 Bourg-en-Bresse",
                "motifs : travail, sante"
            ),
            ("né(e) le 01/02/1950 à Nantes", "adresse : 2 rue Z; bât. B 44000 Nantes", "motifs : sante, famille"),
            (
                "né(e) le 01/02/1950 à Dakar", "adresse : 3 place du Marché 75001 Paris",
                "motifs : achats_culturel_cultuel, enfants"
            ),
            ("né(e) le 29/02/1988 à Lyon", "adresse : 5 cours Z 69003 Lyon", "motifs : travail, sante"),
        ]
        for (link, (born, address, reasons)) in zip(links, expected) {
            let shown = try Tool.admin(["inspect", try #require(link["url"] as? String)], in: scratch.url)
            #expect(shown.status == 0, "\(shown.stderr)")
            #expect(shown.stdout.contains(born), "\(shown.stdout)")
            #expect(shown.stdout.contains(address), "\(shown.stdout)")
            #expect(shown.stdout.contains(reasons), "\(shown.stdout)")
        }
    }

    /// Excel's "CSV UTF-8": a byte order mark, CRLF line ends, English titles in its own case.
    @Test func utf8WithAByteOrderMarkAndEnglishTitlesInAnyCase() throws {
        let scratch = try initializedSite()
        let csv =
            "First Name,LAST NAME,Birth date,Birth Place,Address,Zip Code,City,Reasons,Lock reasons\r\n"
            + "Anaïs,Noël,01/02/1950,Brest,1 quai A,29200,Brest,travail,oui\r\n"
        try (Data([0xEF, 0xBB, 0xBF]) + Data(csv.utf8)).write(to: URL(fileURLWithPath: scratch.path("excel.csv")))
        let result = try Tool.admin(["mint", "--csv", "excel.csv", "--format", "json"], in: scratch.url)
        #expect(result.status == 0, "\(result.stderr)")
        let link = try #require(
            (try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]])?.first)
        #expect(link["name"] as? String == "Anaïs Noël", "no byte order mark in the first name")
        let shown = try Tool.admin(["inspect", try #require(link["url"] as? String)], in: scratch.url)
        #expect(shown.stdout.contains("motifs : travail (imposés)"), "\(shown.stdout)")
    }

    /// Excel's "Unicode text": UTF-16 with a byte order mark, tab separated.
    @Test func utf16WithAByteOrderMarkTabSeparated() throws {
        let scratch = try initializedSite()
        let csv =
            "prénom\tnom\tdate de naissance\tlieu de naissance\tadresse\tcode postal\tville\tmotifs\n"
            + "Léa\tGuérin\t1950-02-01\tMetz\t1 rue B\t57000\tMetz\tsport_animaux\n"
        try (Data([0xFF, 0xFE]) + csv.data(using: .utf16LittleEndian)!).write(
            to: URL(fileURLWithPath: scratch.path("unicode.txt")))
        let result = try Tool.admin(["mint", "--csv", "unicode.txt", "--format", "json"], in: scratch.url)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("\"name\" : \"Léa Guérin\""), "\(result.stdout)")
    }

    @Test func aFileInNeitherEncodingSaysHowToSaveAsUTF8() throws {
        let scratch = try initializedSite()
        // 0x81 is unassigned in Windows-1252 and not UTF-8: neither encoding.
        let bytes = Data("prénom;nom\n".utf8) + Data([0x81, 0x41, 0x0A])
        try bytes.write(to: URL(fileURLWithPath: scratch.path("inconnu.csv")))
        let result = try Tool.admin(["mint", "--csv", "inconnu.csv"], in: scratch.url)
        #expect(result.status == 65)
        #expect(result.stderr.contains("ni UTF-8 ni Windows-1252"), "\(result.stderr)")
        #expect(
            result.stderr.contains("« Unicode (UTF-8) »") && result.stderr.contains("CSV UTF-8"),
            "the way, in both programs")
    }

    @Test(arguments: [
        ("1/2/50", "année à deux chiffres"),
        ("", "vide : une valeur est attendue"),
        ("01/02/2999", "hors limites"),
    ])
    func aBirthDateRefusalNamesLineColumnValueAndWhatIsAccepted(value: String, problem: String) throws {
        let scratch = try initializedSite()
        let csv =
            "prénom;nom;né le;lieu de naissance;adresse;cp;ville;motifs\n"
            + "Ana;Lima;01/01/1980;Porto;1 rue A;33000;Bordeaux;travail\n"
            + "Rui;Lima;\(value);Porto;1 rue A;33000;Bordeaux;travail\n"
        try Data(csv.utf8).write(to: URL(fileURLWithPath: scratch.path("p.csv")))
        let result = try Tool.admin(["mint", "--csv", "p.csv"], in: scratch.url)
        #expect(result.status == 65)
        let column =
            value.isEmpty
            ? "p.csv, ligne 3, colonne « né le », vide" : "p.csv, ligne 3, colonne « né le », valeur « \(value) »"
        #expect(result.stderr.contains(column), "\(result.stderr)")
        #expect(result.stderr.contains(problem), "\(result.stderr)")
        #expect(result.stdout.split(separator: "\n").count == 1, "the good row is still minted")
    }

    @Test func aZipCodeRefusalSaysWhatIsAccepted() throws {
        let scratch = try initializedSite()
        let csv =
            "prénom;nom;date de naissance;lieu de naissance;adresse;code postal;ville;motifs\n"
            + "Ana;Lima;01/01/1980;Porto;1 rue A;330;Bordeaux;travail\n"
        try Data(csv.utf8).write(to: URL(fileURLWithPath: scratch.path("p.csv")))
        let result = try Tool.admin(["mint", "--csv", "p.csv"], in: scratch.url)
        #expect(result.status == 65)
        #expect(
            result.stderr.contains(
                "p.csv, ligne 2, colonne « code postal », valeur « 330 » : invalide ; 5 chiffres attendus"),
            "\(result.stderr)")
    }

    @Test func aDuplicatedColumnIsRefusedNamingBothTitles() throws {
        let scratch = try initializedSite()
        try Data("Prénom;First name;nom\nA;B;C\n".utf8).write(to: URL(fileURLWithPath: scratch.path("p.csv")))
        let result = try Tool.admin(["mint", "--csv", "p.csv"], in: scratch.url)
        #expect(result.status == 65)
        #expect(result.stderr.contains("colonnes « Prénom » et « First name » en double"), "\(result.stderr)")
    }

    @Test func csvMintsTheGoodRowsAndNamesTheBadOnes() throws {
        let scratch = try initializedSite()
        let csv = """
            first_name;last_name;birth_date;birth_place;address;zip;city;reasons;lock_reasons
            Anna;Kowalska;02/03/1980;Łódź;3 rue X;69001;Lyon;sante|famille;non
            Bob;Bad;31/02/1980;Paris;1 rue Y;75001;Paris;travail;
            Élodie;Martin;05/06/1990;Nantes;2 rue Z;44000;Nantes;plage;
            Zoé;Durand;05/06/1990;Nantes;"2 rue Z; bât. B";01000;Nantes;sport_animaux;oui

            """
        try Data(csv.utf8).write(to: URL(fileURLWithPath: scratch.path("people.csv")))
        let output = scratch.path("links.json")
        let result = try Tool.admin(["mint", "--csv", "people.csv", "--format", "json", "-o", output], in: scratch.url)
        #expect(result.status == 65, "some rows failed")
        #expect(
            result.stderr.contains(
                "people.csv, ligne 3, colonne « birth_date », valeur « 31/02/1980 » : date invalide"),
            "\(result.stderr)")
        #expect(
            result.stderr.contains(
                "people.csv, ligne 4, colonne « reasons », valeur « plage » : motif « plage » inconnu"))
        #expect(result.stderr.contains("2 liens écrits dans \(output), 2 refusés (lignes 3, 4)"), "\(result.stderr)")
        let links = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: output))) as? [[String: Any]])
        #expect(links.map { $0["name"] as? String } == ["Anna Kowalska", "Zoé Durand"])

        let zoe = try #require(links.last?["url"] as? String)
        let inspect = try Tool.admin(["inspect", zoe], in: scratch.url)
        #expect(inspect.stdout.contains("adresse : 2 rue Z; bât. B 01000 Nantes"), "quoted cell and leading zero kept")
        #expect(inspect.stdout.contains("motifs : sport_animaux (imposés)"))

        let header = try Tool.admin(["mint", "--csv", "missing.csv"], in: scratch.url)
        #expect(header.status == 65)
        try Data("prenom,nom,naissance\nA,B,C\n".utf8).write(to: URL(fileURLWithPath: scratch.path("bad.csv")))
        let columns = try Tool.admin(["mint", "--csv", "bad.csv"], in: scratch.url)
        #expect(columns.status == 65)
        #expect(
            columns.stderr.contains(
                "bad.csv, ligne 1 : colonne(s) inconnue(s) : « naissance » ; colonne(s) manquante(s) : date de naissance, lieu de naissance, adresse, code postal, ville, motifs"
            ), "\(columns.stderr)")
    }
}
