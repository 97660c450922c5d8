import AttestationKit
import FormSchema
import Foundation
import TestSupport
import Testing

@testable import Rendering

/// Pages beyond the second and rules of any page, orientation and thickness, as poppler reads
/// the PDF and as the page images show them. The form: the one of UnknownVersionFormTests
/// (written from docs/forms.md), with its big QR code moved to page 3 and a frame of rules.
@Suite("Later pages and rules drawn")
struct LaterPagesAndRulesTests {
    static let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("UnknownVersion/attestation-2021-05-19.json")

    /// A vertical rule 2 points thick on page 2 at x = 40 from y = 100 to 400, a horizontal one
    /// 1 point thick on page 3 at y = 60 from x = 100 to 300; the big code on page 3.
    static func form() throws -> Form {
        var json = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any])
        json["id"] = "regles-et-pages"
        json["rules"] = [
            ["page": 2, "x": 40, "y": 100, "length": 300, "vertical": true, "thickness": 2],
            ["page": 3, "x": 100, "y": 60, "length": 200, "thickness": 1],
        ]
        var codes = try #require(json["qrCodes"] as? [[String: Any]])
        for index in codes.indices where codes[index]["page"] as? Int == 2 { codes[index]["page"] = 3 }
        json["qrCodes"] = codes
        var catalog = FormCatalog.builtIn
        try catalog.add(json: try jsonData(json), source: "regles-et-pages.json")
        return try #require(catalog.form(id: "regles-et-pages"))
    }

    static func attestation(_ form: Form) throws -> Attestation {
        try Attestation(
            identity: try Fixture.camille(), form: form, reasonCodes: [form.reasons[0].code], exit: .now,
            timeZone: .paris, now: Fixture.now)
    }

    /// At 144 dpi (2 pixels a point), the rule's ink is where its thickness centred on its
    /// path puts it: the 2-point vertical rule at x = 40 covers pixels 78 to 81, not 77 or 82.
    static func expectRules(page2: GrayImage, page3: GrayImage, pageHeight: Double, _ what: String) {
        let rows = Int((pageHeight - 390) * 2)..<Int((pageHeight - 110) * 2)
        for row in rows.striding(by: 40) {
            #expect((78...81).allSatisfy { page2.isInk($0, row) }, "\(what): page 2 row \(row) inside the rule")
            #expect(!page2.isInk(76, row) && !page2.isInk(83, row), "\(what): page 2 row \(row) beside the rule")
        }
        // The 1-point horizontal rule at y = 60 covers 59.5 to 60.5: 2 pixel rows about
        // 2 × (height − 60), the one across that line wholly inked, none 2 rows off.
        let middle = Int((pageHeight - 60) * 2)
        for column in stride(from: 210, to: 590, by: 40) {
            #expect(page3.isInk(column, middle), "\(what): page 3 column \(column) on the rule")
            #expect(!page3.isInk(column, middle - 3) && !page3.isInk(column, middle + 3), "\(what): column \(column)")
        }
    }

    @Test func thePDFHasThreePagesAndItsRulesWhereTheFormPutsThem() throws {
        let form = try Self.form()
        #expect(form.pageCount == 3)
        let pdf = try AttestationRenderer(forms: [form]).pdf(try Self.attestation(form))
        try withScratchDirectory { directory in
            let path = try write(pdf, named: "attestation.pdf", in: directory)
            let info = try Tool.run("pdfinfo", [path], in: directory).text
            #expect(info.contains(/Pages: +3\n/), "\(info)")
            try Tool.run(
                "pdftoppm",
                ["-r", "144", "-gray", "-f", "2", "-l", "3", path, directory.appendingPathComponent("p").path],
                in: directory)
            let page2 = try GrayImage(pgm: Data(contentsOf: directory.appendingPathComponent("p-2.pgm")))
            let page3 = try GrayImage(pgm: Data(contentsOf: directory.appendingPathComponent("p-3.pgm")))
            Self.expectRules(page2: page2, page3: page3, pageHeight: form.size(ofPage: 3).height, "PDF")
            try Tool.run("pdftoppm", ["-r", "72", "-gray", "-f", "3", "-l", "3", path, "q"], in: directory)
            let decoded = try Tool.run("zbarimg", ["--raw", "-q", "q-3.pgm"], in: directory).text
            #expect(decoded == QRPayload(try Self.attestation(form)).text + "\n")
        }
    }

    /// A value written on page 2 in the font and size of the last text of page 1 (the reasons'
    /// mark, Helvetica-Bold 11): libharu forgets the font at each new page, so the renderer must
    /// select it again there (it failed with 0x1025).
    @Test func aValueOnALaterPageIsWrittenInTheFontOfPageOne() throws {
        var json = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: Self.file)) as? [String: Any])
        json["id"] = "valeur-page-2"
        var fields = try #require(json["fields"] as? [[String: Any]])
        var moved = fields[fields.count - 1]
        moved["page"] = 2
        moved["y"] = 500
        moved["font"] = "Helvetica-Bold"
        moved["size"] = 11
        fields[fields.count - 1] = moved
        json["fields"] = fields
        var catalog = FormCatalog.builtIn
        try catalog.add(json: try jsonData(json), source: "valeur-page-2.json")
        let form = try #require(catalog.form(id: "valeur-page-2"))
        let attestation = try Self.attestation(form)
        let pdf = try AttestationRenderer(forms: [form]).pdf(attestation)
        let value = attestation.text(of: try #require(form.fields.last))
        try withScratchDirectory { directory in
            let path = try write(pdf, named: "attestation.pdf", in: directory)
            let page2 = try Tool.run("pdftotext", ["-f", "2", "-l", "2", path, "-"], in: directory).text
            #expect(page2.contains(value), "page 2 reads « \(page2) », not « \(value) »")
        }
    }

    @Test func thePageImagesOfPagesTwoAndThreeDrawTheSameRules() throws {
        let form = try Self.form()
        let renderer = try AttestationRenderer(forms: [form])
        let attestation = try Self.attestation(form)
        try withScratchDirectory { directory in
            var pages: [GrayImage] = []
            for page in 2...3 {
                let png = try renderer.pagePNG(attestation, page: page, dpi: 144)
                _ = try write(png, named: "page\(page).png", in: directory)
                try Tool.run("convert", ["page\(page).png", "-depth", "8", "pgm:page\(page).pgm"], in: directory)
                pages.append(try GrayImage(pgm: Data(contentsOf: directory.appendingPathComponent("page\(page).pgm"))))
            }
            Self.expectRules(page2: pages[0], page3: pages[1], pageHeight: form.size(ofPage: 3).height, "PNG")
            #expect(throws: RenderingError.pageNumber(4, pages: 3)) {
                try renderer.pagePNG(attestation, page: 4, dpi: 72)
            }
        }
    }

    /// The offline template of a three-page form: one QR image, shown on pages 1 and 3, whose
    /// bits the personal page overwrites.
    @Test func theOfflineTemplateOfAThreePageFormShowsItsCodeOnPagesOneAndThree() throws {
        let form = try Self.form()
        let template = try AttestationRenderer(forms: [form]).offlineTemplate(
            identity: try Fixture.camille(), form: form, timeZone: .paris, now: Fixture.now)
        try withScratchDirectory { directory in
            let path = try write(template.pdf, named: "modele.pdf", in: directory)
            let images = try Tool.run("pdfimages", ["-list", path], in: directory).text
            let pages = images.split(separator: "\n").dropFirst(2).compactMap { Int($0.split(separator: " ")[0]) }
            #expect(pages == [1, 3], "\(images)")
        }
    }
}

extension Range where Bound == Int {
    fileprivate func striding(by step: Int) -> StrideTo<Int> { stride(from: lowerBound, to: upperBound, by: step) }
}

extension GrayImage {
    fileprivate func isInk(_ x: Int, _ y: Int) -> Bool { pixels[y * width + x] < 128 }
}
