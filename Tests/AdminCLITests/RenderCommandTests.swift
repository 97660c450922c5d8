import Foundation
import TestSupport
import Testing

private let person = [
    "--first-name", "Camille", "--last-name", "Dupont", "--birth-date", "01/01/1970", "--birth-place", "Lyon",
    "--address", "999 avenue de France", "--zip", "75001", "--city", "Paris",
]

/// Parses "DD/MM/YYYY a HHhMM" or "DD/MM/YYYY a HH:MM" from a payload line, as minutes since an epoch.
private func minutes(_ line: Substring) throws -> Int {
    let digits = line.split(whereSeparator: { !$0.isNumber }).compactMap { Int($0) }
    try #require(digits.count == 5, "no date and time in \(line)")
    var parts = DateComponents()
    (parts.day, parts.month, parts.year, parts.hour, parts.minute) = (
        digits[0], digits[1], digits[2], digits[3], digits[4]
    )
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = TimeZone(identifier: "Europe/Paris")!
    let date = try #require(calendar.date(from: parts))
    return Int(date.timeIntervalSince1970 / 60)
}

private func line(_ prefix: String, in payload: String) throws -> Substring {
    try #require(payload.split(separator: "\n").first { $0.hasPrefix(prefix) }, "no \(prefix) line in \(payload)")
}

@Suite struct RenderCommandTests {
    @Test func pdfHoldsThePersonAndAnExitTwentyMinutesBeforeCreation() throws {
        let scratch = try Scratch()
        let file = scratch.path("attestation.pdf")
        let result = try Tool.admin(
            ["render"] + person + ["--reason", "sante", "--reason", "travail", "--offset", "-20", "-o", file])
        #expect(result.status == 0, "\(result.stderr)")
        let codes = try decodedQRCodes(in: file, scratch: scratch)
        #expect(codes.count == 2, "one QR code on each page")
        for payload in codes {
            #expect(payload.contains("Nom: Dupont;\nPrenom: Camille;\nNaissance: 01/01/1970 a Lyon;\n"))
            #expect(payload.contains("Adresse: 999 avenue de France 75001 Paris;\n"))
            #expect(payload.contains("Motifs: travail, sante;\n"), "reasons in form order")
            let created = try minutes(line("Cree le:", in: payload))
            let exit = try minutes(line("Sortie:", in: payload))
            #expect(created - exit == 20)
            #expect(abs(created - Int(Date().timeIntervalSince1970 / 60)) <= 2, "created now")
        }
        let text = try Tool.external("pdftotext", [file, "-"])
        #expect(text.stdout.contains("Camille Dupont"))
    }

    @Test func pngHoldsTheSamePayload() throws {
        let scratch = try Scratch()
        let file = scratch.path("qr.png")
        let result = try Tool.admin(
            ["render"] + person + ["--reason", "famille", "--at", "00:00", "--size", "300", "-o", file])
        // 00:00 today is more than 180 minutes ago except just after midnight: accept either outcome,
        // but a refusal must be the bounds error and leave no file.
        if result.status == 0 {
            let payload = try #require(try decodedQRCodes(in: file, scratch: scratch).first)
            #expect(payload.contains("Sortie: ") && payload.contains(" a 00:00;\n"))
        } else {
            #expect(result.status == 65)
            #expect(result.stderr.contains("at hors limites"))
            #expect(!FileManager.default.fileExists(atPath: file))
        }
        let now = try Tool.admin(["render"] + person + ["--reason", "famille", "--size", "300", "-o", file])
        #expect(now.status == 0, "\(now.stderr)")
        let bytes = try Data(contentsOf: URL(fileURLWithPath: file))
        #expect(bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]), "a PNG file")
        let payload = try #require(try decodedQRCodes(in: file, scratch: scratch).first)
        #expect(payload.hasSuffix("Motifs: famille;\n"))
    }

    @Test(
        arguments: [
            (["--zip", "7500"], "code postal", 65),
            (["--birth-date", "31/04/1970"], "date de naissance", 65),
            (["--first-name", "  "], "prénom", 65),
            (["--reason", "plage"], "travail, achats_culturel_cultuel, sante", 65),
            (["--offset", "-500"], "de -180 à +1440", 65),
            (["--offset", "vingt"], "nombre entier de minutes", 65),
            (["--at", "25:00"], "HH:MM", 65),
            (["--time-zone", "Europe/Lutece"], "IANA", 65),
            (["--form", "deplacement-1940"], "deplacement-2020-11-28, deplacement-2020-11-02", 65),
            (["--offset", "5", "--at", "10:00"], "s’excluent", 64),
            (["--size", "10"], "taille de PNG invalide", 64),
            (["--page", "9"], "de 1 (le formulaire rempli) à 8", 64),
            (["--page", "3"], "page 3 inexistante ; de 1 à 2", 65),
            (["--page", "1", "--dpi", "301"], "de 72 à 300 points par pouce", 64),
            (["--page", "1", "--size", "400"], "--dpi", 64),
            (["--dpi", "150"], "--page 1 ou --page 2", 64),
        ] as [([String], String, Int32)])
    func badInputIsRefusedWithoutTouchingTheOutput(change: [String], message: String, status: Int32) throws {
        let scratch = try Scratch()
        let png = change.contains("--size") || change.contains("--page") || change.contains("--dpi")
        let file = scratch.path(png ? "kept.png" : "kept.pdf")
        try Data("previous".utf8).write(to: URL(fileURLWithPath: file))
        var arguments = ["render"] + person
        // A later option replaces an earlier one for single values; reasons are added.
        if !change.contains("--reason") { arguments += ["--reason", "travail"] }
        arguments += change + ["-o", file]
        let result = try Tool.admin(arguments)
        #expect(result.status == status, "\(result.stderr)")
        #expect(result.stderr.contains(message), "\(result.stderr)")
        #expect(result.stderr.hasPrefix("attestation-admin : "), "French message after the program name")
        #expect(try String(contentsOfFile: file, encoding: .utf8) == "previous", "an existing file is left as it was")
    }

    @Test func pageOneAsPNGHoldsThePayloadAtTheResolutionAsked() throws {
        let scratch = try Scratch()
        for (page, dpi, width) in [(1, nil, 1241), (2, 72, 596)] as [(Int, Int?, Int)] {
            let file = scratch.path("page\(page).png")
            let result = try Tool.admin(
                ["render"] + person + ["--reason", "sante", "-o", file, "--page", "\(page)"]
                    + (dpi.map { ["--dpi", "\($0)"] } ?? []))
            #expect(result.status == 0, "\(result.stderr)")
            let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: file)))
            #expect(bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]), "a PNG file")
            #expect(bytes.count > 24 && bytes[16..<20].reduce(0) { $0 << 8 | Int($1) } == width, "page \(page)")
            let payload = try #require(try decodedQRCodes(in: file, scratch: scratch).first)
            #expect(payload.contains("Nom: Dupont;\nPrenom: Camille;\n"))
            #expect(payload.hasSuffix("Motifs: sante;\n"))
        }
        let onPDF = try Tool.admin(
            ["render"] + person + ["--reason", "sante", "-o", scratch.path("a.pdf"), "--page", "1"])
        #expect(onPDF.status == 64)
        #expect(onPDF.stderr.contains(".png"), "\(onPDF.stderr)")
    }

    @Test func unwritableOutputAndUnknownExtension() throws {
        let scratch = try Scratch()
        let missingDirectory = scratch.path("no/such/dir/a.pdf")
        let unwritable = try Tool.admin(["render"] + person + ["--reason", "travail", "-o", missingDirectory])
        #expect(unwritable.status == 73)
        #expect(unwritable.stderr.contains("impossible d’écrire"))

        let wrongType = try Tool.admin(["render"] + person + ["--reason", "travail", "-o", scratch.path("a.jpg")])
        #expect(wrongType.status == 64)
        #expect(wrongType.stderr.contains(".pdf ou .png"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.url.path).isEmpty, "no partial file")
    }

    @Test func helpShowsAnExample() throws {
        let help = try Tool.admin(["render", "--help"])
        #expect(help.status == 0)
        #expect(help.stdout.contains("Exemple"))
        #expect(help.stdout.contains("--offset <MINUTES>"))
    }
}
