import AttestationKit
import FormSchema
import Foundation
import TestSupport
import Testing

@testable import Rendering

/// A TrueType font given with a form (`fonts`: the Luciole of the generators of April–June
/// 2021, `FormFont/`, CC BY 4.0): measured at load from its file, embedded in the PDF as a
/// subset, drawn in the page images by cairo.
@Suite("Fonts given with a form")
struct FormFontTests {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
        "FormFont")
    static let title = "ATTESTATION DE DÉPLACEMENT DÉROGATOIRE"

    /// The form of UnknownVersionFormTests with its title in Luciole Bold and its reasons and
    /// values in Luciole, read as if it were a file of `FormFont/`.
    static func json(change: (inout [String: Any]) -> Void = { _ in }) throws -> [String: Any] {
        let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("UnknownVersion/attestation-2021-05-19.json")
        var json = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any])
        json["id"] = "avec-luciole"
        json["fonts"] = [
            ["name": "Luciole", "file": "Luciole-Regular.ttf"], ["name": "Luciole-Gras", "file": "Luciole-Bold.ttf"],
        ]
        editObject(&json, "title") { $0["font"] = "Luciole-Gras" }
        editObject(&json, "reasonLayout") { $0["textFont"] = "Luciole" }
        editElement(&json, "fields", 0) { $0["font"] = "Luciole" }
        change(&json)
        return json
    }

    static func form(_ json: [String: Any]) throws -> Form {
        try FormCatalog.decodeForm(try jsonData(json), source: directory.appendingPathComponent("luciole.json").path)
    }

    static func loadError(_ json: [String: Any]) throws -> FormError {
        try #require(throws: FormError.self) { try form(json) }
    }

    static func attestation(_ form: Form) throws -> Attestation {
        try Attestation(
            identity: try Fixture.camille(), form: form, reasonCodes: [form.reasons[0].code], exit: .now,
            timeZone: .paris, now: Fixture.now)
    }

    @Test func aTextInTheFormsFontIsMeasuredWithItsOwnWidths() throws {
        let form = try Self.form(try Self.json())
        guard case .file(let file) = form.title.font else {
            Issue.record("the title's font is \(form.title.font.rawValue)")
            return
        }
        #expect(file.name == "Luciole-Gras" && file.fileName == "Luciole-Bold.ttf")
        // Luciole Bold is wider than Helvetica Bold: the centred line starts further left.
        let bytes = try #require(form.title.font.encode(Self.title))
        let helvetica = TextFont.standard(.helveticaBold).width(bytes, size: 15)
        let luciole = form.title.font.width(bytes, size: 15)
        #expect(luciole > helvetica + 20, "\(luciole) against \(helvetica)")
        let line = form.title.lines[0]
        #expect(abs(line.pieces[0].x - (56 + (483.28 - luciole) / 2)) < 0.01)
    }

    @Test func aLineThatFitsInHelveticaButNotInTheFormsFontIsRefusedAtLoad() throws {
        let bytes = try #require(TextFont.standard(.helveticaBold).encode(Self.title))
        let helvetica = TextFont.standard(.helveticaBold).width(bytes, size: 20)
        let file = try FontFile(
            name: "Luciole-Gras", fileName: "Luciole-Bold.ttf",
            path: Self.directory.appendingPathComponent("Luciole-Bold.ttf").path)
        let luciole = TextFont.file(file).width(bytes, size: 20)
        // Starts where Helvetica ends 5 points inside the page, and Luciole runs off it.
        let x = 595.28 - 5 - helvetica
        try #require(x + luciole > 595.28)
        func titled(_ font: String) throws -> [String: Any] {
            try Self.json {
                $0["title"] = ["text": Self.title, "x": x, "y": 790, "size": 20, "font": font]
            }
        }
        _ = try Self.form(try titled("Helvetica-Bold"))
        let error = try Self.loadError(try titled("Luciole-Gras"))
        #expect(error.path == "title" || error.path.hasPrefix("title."), "\(error)")
        #expect(error.message.contains("sort de la page"), "\(error)")
    }

    @Test func aFontThatIsMissingInAFolderOrNotTrueTypeIsRefusedNamingItsKey() throws {
        for (file, expected) in [
            ("Absente.ttf", "illisible ou absent"), ("../FormFont/Luciole-Regular.ttf", "nom de fichier invalide"),
            ("luciole.json", "nom de fichier invalide"),
        ] {
            let error = try Self.loadError(try Self.json { $0["fonts"] = [["name": "Luciole", "file": file]] })
            #expect(error.path == "fonts[0].file", "\(error)")
            #expect(error.message.contains(expected), "\(error)")
        }
        // A file that is not a font: this test file itself, renamed.
        try withScratchDirectory { directory in
            try Data(contentsOf: URL(fileURLWithPath: #filePath)).write(
                to: directory.appendingPathComponent("faux.ttf"))
            var json = try Self.json()
            json["fonts"] = [["name": "Luciole", "file": "faux.ttf"], ["name": "Luciole-Gras", "file": "faux.ttf"]]
            let error = try #require(throws: FormError.self) {
                try FormCatalog.decodeForm(try jsonData(json), source: directory.appendingPathComponent("f.json").path)
            }
            #expect(error.path == "fonts[0].file" && error.message.contains("pas une police TrueType"), "\(error)")
        }
        let standard = try Self.loadError(
            try Self.json { $0["fonts"] = [["name": "Helvetica", "file": "Luciole-Regular.ttf"]] })
        #expect(standard.path == "fonts[0].name", "\(standard)")
        let unknown = try Self.loadError(try Self.json { editObject(&$0, "title") { $0["font"] = "Lucile" } })
        #expect(unknown.path == "title.font" && unknown.message.contains("Luciole, Luciole-Gras"), "\(unknown)")
    }

    @Test func thePDFsWidthsAreTheOnesTheFormWasMeasuredWithAndHarfBuzzReadsTheSame() throws {
        let form = try Self.form(try Self.json())
        guard case .file(let file) = form.title.font else {
            Issue.record("the title is not in the form's own font")
            return
        }
        let pdf = String(
            decoding: try AttestationRenderer(forms: [form]).pdf(try Self.attestation(form)), as: UTF8.self)
        // The font dictionary as the PDF writes it: /BaseFont /TAG+Luciole-Bold … /Widths [ … ].
        let dictionary = try #require(
            pdf.firstMatch(of: /\/BaseFont \/[A-Z]{6}\+Luciole-Bold\n(?:[^\n]*\n)*?\/Widths \[([^\]]*)\]/),
            "no /Widths for Luciole-Bold")
        let written = dictionary.1.split(whereSeparator: \.isWhitespace).map { Int($0)! }
        #expect(written.count == 224)
        let harfBuzz = try TrueTypeFont.load(file.bytes, path: file.path)
        var compared = 0
        for (offset, width) in written.enumerated() {
            let byte = 32 + offset
            let ours = form.title.font.widths[byte]
            #expect(width == ours, "byte \(byte)")
            guard ours != 0, let scalar = WinAnsiText.decode(UInt8(byte)) else { continue }
            #expect(harfBuzz.width(ofGlyph: harfBuzz.glyph(for: scalar)) == ours, "byte \(byte)")
            compared += 1
        }
        #expect(compared > 200)
    }

    @Test func theFormsFontIsEmbeddedAsASubsetAndItsWordsAreWhereTheLayoutPutThem() throws {
        let form = try Self.form(try Self.json())
        let pdf = try AttestationRenderer(forms: [form]).pdf(try Self.attestation(form))
        try withScratchDirectory { directory in
            let path = try write(pdf, named: "attestation.pdf", in: directory)
            try Tool.run("qpdf", ["--check", path], in: directory)
            let fonts = try Tool.run("pdffonts", [path], in: directory).text
            #expect(fonts.contains(/[A-Z]{6}\+Luciole-Bold\S*\s+TrueType\s+WinAnsi\s+yes\s+yes/), "\(fonts)")
            #expect(fonts.contains(/[A-Z]{6}\+Luciole-Regular\s+TrueType\s+WinAnsi\s+yes\s+yes/), "\(fonts)")
            let text = try Tool.run("pdftotext", [path, "-"], in: directory).text
            #expect(text.contains(Self.title), "\(text)")
            #expect(text.contains("Camille Dupont"))
            #expect(text.contains("1. Déplacements entre le domicile et le lieu d’exercice"))

            // The title's words: the first starts and the last ends where the layout put them.
            let page = try BBox.firstPage(of: pdf, in: directory)
            let line = form.title.lines[0]
            let first = try #require(page.words.first { $0.text == "ATTESTATION" })
            let last = try #require(page.words.first { $0.text == "DÉROGATOIRE" })
            #expect(abs(first.xMin - line.pieces[0].x) < 0.5, "\(first) against \(line.pieces[0].x)")
            #expect(abs(last.xMax - (line.pieces[0].x + line.width)) < 0.5, "\(last) against \(line.width)")
        }
    }

    @Test func thePageImageDrawsTheFormsFontAsPopplerDrawsThePDF() throws {
        let form = try Self.form(try Self.json())
        let renderer = try AttestationRenderer(forms: [form])
        let attestation = try Self.attestation(form)
        try withScratchDirectory { directory in
            let pdfPath = try write(try renderer.pdf(attestation), named: "attestation.pdf", in: directory)
            try Tool.run(
                "pdftoppm", ["-r", "100", "-gray", "-f", "1", "-l", "1", "-singlefile", pdfPath, "reference"],
                in: directory)
            let reference = try GrayImage(pgm: Data(contentsOf: directory.appendingPathComponent("reference.pgm")))
            let image = try GrayImage(
                png: try write(try renderer.pagePNG(attestation, page: 1, dpi: 100), named: "page.png", in: directory),
                in: directory)
            try #require(image.width == reference.width && image.height == reference.height)
            let agreement = PixelAgreement(image.boxBlurred(), reference.boxBlurred(), tolerance: 85)
            #expect(
                agreement.whole >= 0.98 && agreement.inked >= 0.98,
                "\(agreement.whole * 100) % of pixels equal, \(agreement.inked * 100) % of inked ones")
            // The title in Luciole Bold: ink where the PDF has it, across the title's row.
            let rows = Int((841.89 - 790 - 12) * 100 / 72)..<Int((841.89 - 790 + 2) * 100 / 72)
            let inkedImage = rows.reduce(0) { total, row in
                total + (0..<image.width).filter { image.isDark(x: $0, y: row) }.count
            }
            let inkedReference = rows.reduce(0) { total, row in
                total + (0..<reference.width).filter { reference.isDark(x: $0, y: row) }.count
            }
            #expect(inkedImage > 500 && abs(inkedImage - inkedReference) < inkedReference / 20)
        }
    }

    /// A template of a form whose values are in its own font embeds every digit, `/`, `:` and
    /// `h` in that font's subset, which the template's own placeholders (`00/00/0000`) lack:
    /// the page writes any date and time (filled and compared pixel for pixel with the server's
    /// page in OfflineTemplateTests, for the built-in forms of 2021).
    @Test func theOfflineTemplateOfAFormWhoseValuesAreInItsOwnFontHoldsEveryDigit() throws {
        let form = try Self.form(try Self.json())
        let template = try AttestationRenderer(forms: [form]).offlineTemplate(
            identity: try Fixture.camille(), form: form, timeZone: .paris, now: Fixture.now)
        // libharu writes the widths of the bytes it measured only (0 for the others): every
        // character the page may write has its width in the Luciole font's `/Widths`.
        let text = String(decoding: template.pdf, as: UTF8.self)
        let fonts = text.matches(of: /\/FirstChar (\d+)[^\[\]]*\/Widths \[([0-9 \n]*)\]/).map { match in
            (first: Int(match.1)!, widths: match.2.split(whereSeparator: \.isWhitespace).compactMap { Int($0) })
        }
        #expect(!fonts.isEmpty, "no /Widths in the template")
        let written = "0123456789/:h".unicodeScalars.map { Int($0.value) }
        #expect(
            fonts.contains { font in
                written.allSatisfy {
                    $0 >= font.first && $0 - font.first < font.widths.count && font.widths[$0 - font.first] > 0
                }
            }, "a font's /Widths with every digit, / : h")
    }
}
