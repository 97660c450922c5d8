import AttestationKit
import FormSchema
import Foundation
import TestSupport
import Testing

@testable import Rendering

/// A form for a version none of the other tests knows (an invented "19 May 2021" curfew
/// form), written from docs/forms.md alone: UnknownVersion/attestation-2021-05-19.json. It
/// uses what the official forms need and more: Times in three styles and Courier, justified,
/// right-aligned and centred text, superscripts and runs in another font, grey and white text,
/// text and a field on a landscape page 2, `[ ]` text boxes with a bold `X` mark, per-reason
/// offsets, numbered reasons with a note, a reason printed but not offered, a dotted rule.
/// It must load as the server loads a file (FormCatalog.add, which refuses what the renderer
/// cannot draw), and its pages must hold its texts as pdftotext reads them, in both backends.
@Suite("A form of an unknown version")
struct UnknownVersionFormTests {
    static let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("UnknownVersion/attestation-2021-05-19.json")

    static func form() throws -> Form {
        var catalog = FormCatalog.builtIn
        try catalog.add(json: try Data(contentsOf: file), source: file.lastPathComponent)
        return try #require(catalog.form(id: "attestation-2021-05-19"))
    }

    static func attestation() throws -> Attestation {
        try Attestation(
            identity: try Fixture.latin1Person(), form: try form(), reasonCodes: ["travail", "famille"], exit: .now,
            timeZone: .paris, now: Fixture.now)
    }

    /// The words of every fixed text on its page, and of the values, as pdftotext reads each
    /// page (`-layout`), at least as often as the form prints them.
    @Test func itLoadsAsTheServerLoadsAFileAndItsPagesHoldItsTexts() throws {
        let form = try Self.form()
        #expect(form.reasons.map(\.code) == ["travail", "sante", "famille", "animaux"])
        #expect(form.printedReasons.count == 5)
        let attestation = try Self.attestation()
        var expected: [[String: Int]] = [[:], [:]]
        func count(_ text: String, page: Int) {
            for word in ReferenceExample.words(text) { expected[page - 1][word, default: 0] += 1 }
        }
        for (_, block) in form.textBlocks { count(block.text, page: block.page) }
        for reason in form.printedReasons {
            let (label, note) = form.reasonLayout.textBlocks(of: reason)
            count(label.text, page: reason.page)
            if let note { count(note.text, page: reason.page) }
        }
        for slot in form.fields { count(attestation.text(of: slot), page: slot.page) }
        try withScratchDirectory { directory in
            let path = try write(
                try AttestationRenderer(forms: [form]).pdf(attestation), named: "attestation.pdf", in: directory)
            for page in 1...2 {
                let text = try Tool.run(
                    "pdftotext", ["-layout", "-f", "\(page)", "-l", "\(page)", path, "-"], in: directory
                ).text
                var found: [String: Int] = [:]
                for word in ReferenceExample.words(text) { found[word, default: 0] += 1 }
                let missing = expected[page - 1].filter { found[$0.key, default: 0] < $0.value }.map(\.key).sorted()
                #expect(missing.isEmpty, "page \(page) lacks \(missing)")
            }
            let info = try Tool.run("pdfinfo", ["-f", "1", "-l", "2", path], in: directory).text
            #expect(info.contains("Page    1 size:  595.28 x 841.89 pts"), "\(info)")
            #expect(info.contains("Page    2 size:  841.89 x 595.28 pts"), "\(info)")
            let check = try Tool.run("qpdf", ["--check", path], in: directory)
            #expect(check.text.contains("No syntax or stream encoding errors found"), "\(check.text)")
        }
    }

    /// The fonts the file names, and only those, are in the PDF: the standard ones by name,
    /// nothing embedded (the person's values are all in Windows-1252).
    @Test func itsStandardFontsAreNamedAndNotEmbedded() throws {
        try withScratchDirectory { directory in
            let path = try write(
                try AttestationRenderer(forms: [try Self.form()]).pdf(try Self.attestation()), named: "a.pdf",
                in: directory)
            let fonts = try Tool.run("pdffonts", [path], in: directory).text
            for name in [
                "Times-Bold", "Times-Roman", "Times-Italic", "Helvetica", "Helvetica-Bold", "Helvetica-Oblique",
                "Courier",
            ] {
                #expect(fonts.contains("\n\(name) "), "\(name) in \(fonts)")
            }
            #expect(!fonts.contains(" yes "), "nothing embedded: \(fonts)")
        }
    }

    /// Each page's picture (cairo) is the PDF's page as pdftoppm draws it, and both QR codes
    /// are read from both.
    @Test func itsPageImagesAreThePDFsPages() throws {
        let form = try Self.form()
        let attestation = try Self.attestation()
        let renderer = try AttestationRenderer(forms: [form])
        let payload = QRPayload(attestation).bytes
        try withScratchDirectory { directory in
            let pdfPath = try write(try renderer.pdf(attestation), named: "attestation.pdf", in: directory)
            for page in 1...2 {
                let pngPath = try write(
                    try renderer.pagePNG(attestation, page: page, dpi: 150), named: "page\(page).png", in: directory)
                try Tool.run(
                    "pdftoppm",
                    [
                        "-r", "150", "-gray", "-f", "\(page)", "-l", "\(page)", "-singlefile", pdfPath,
                        "reference\(page)",
                    ],
                    in: directory)
                let reference = try GrayImage(
                    pgm: Data(contentsOf: directory.appendingPathComponent("reference\(page).pgm")))
                let image = try GrayImage(png: pngPath, in: directory)
                try #require(image.width == reference.width && image.height == reference.height, "page \(page)")
                let agreement = PixelAgreement(image.boxBlurred(), reference.boxBlurred(), tolerance: 85)
                #expect(
                    agreement.whole >= 0.98 && agreement.inked >= 0.98,
                    "page \(page): \(agreement.whole * 100) % of pixels equal, \(agreement.inked * 100) % of inked ones"
                )
                for path in [pngPath, "reference\(page).pgm"] {
                    let decoded = try Tool.run(
                        "zbarimg", ["--raw", "-q", "-Sbinary", path], in: directory, accepting: [0, 4]
                    ).stdout
                    #expect([UInt8](decoded) == payload, "page \(page), \(path)")
                }
            }
        }
    }
}
