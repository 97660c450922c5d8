import AttestationKit
import FormSchema
import Foundation
import TestSupport
import Testing

@testable import Rendering

/// A form's PNG pictures (the logos of the generators of April–June 2021), drawn at their
/// place and size in the PDF, as poppler rasterises it, and in the page images.
@Suite("Pictures drawn")
struct PictureTests {
    /// 20 × 10 pixels, RGBA: the left half opaque red, the right half transparent.
    static let halfRed =
        "iVBORw0KGgoAAAANSUhEUgAAABQAAAAKCAYAAAC0VX7mAAAAGUlEQVR4nGP4z8DwnxjMQCwYNXDUwOFoIADSeMc5D5IKoAAAAABJRU5ErkJggg=="

    /// The form of UnknownVersionFormTests, with the picture 100 × 50 points at (400, 700) or
    /// without it.
    static func form(withPicture: Bool = true) throws -> Form {
        let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("UnknownVersion/attestation-2021-05-19.json")
        var json = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any])
        json["id"] = "avec-image"
        if withPicture { json["images"] = [["x": 400, "y": 700, "width": 100, "height": 50, "data": halfRed]] }
        var catalog = FormCatalog.builtIn
        try catalog.add(json: try jsonData(json), source: "avec-image.json")
        return try #require(catalog.form(id: "avec-image"))
    }

    /// At 72 dpi (a pixel a point), the red half is the grey PDF makes of red (0.3 × 255 = 77)
    /// over x = 400 to 450, y = 700 to 750, over whatever the form prints there; where the
    /// picture is transparent, and around it, the page is the page without the picture.
    static func expectPicture(_ image: GrayImage, without: GrayImage, pageHeight: Double, _ what: String) {
        #expect(image.width == without.width && image.height == without.height)
        func pixel(_ picture: GrayImage, _ column: Int, _ row: Int) -> Int {
            Int(picture.pixels[row * picture.width + column])
        }
        let top = Int(pageHeight - 750)
        for row in stride(from: top + 3, to: top + 47, by: 5) {
            for column in stride(from: 403, to: 447, by: 5) {
                #expect(abs(pixel(image, column, row) - 77) <= 12, "\(what): red at \(column), \(row)")
            }
            for column in Array(stride(from: 453, to: 497, by: 5)) + [395, 505] {
                #expect(
                    abs(pixel(image, column, row) - pixel(without, column, row)) <= 12,
                    "\(what): transparent or outside at \(column), \(row)")
            }
        }
        let changed = zip(image.pixels, without.pixels).enumerated().filter { abs(Int($1.0) - Int($1.1)) > 12 }
        #expect(
            changed.allSatisfy {
                (398...452).contains($0.offset % image.width)
                    && ((top - 2)...(top + 52)).contains($0.offset / image.width)
            },
            "\(what): ink changed outside the picture")
    }

    static func attestation(_ form: Form) throws -> Attestation {
        try Attestation(
            identity: try Fixture.camille(), form: form, reasonCodes: [form.reasons[0].code], exit: .now,
            timeZone: .paris, now: Fixture.now)
    }

    @Test func aPNGPictureIsDrawnInThePDFAtItsPlaceAndSize() throws {
        let form = try Self.form()
        #expect(form.awaitingRenderer.isEmpty)
        let pdf = try AttestationRenderer(forms: [form]).pdf(try Self.attestation(form))
        try withScratchDirectory { directory in
            let path = try write(pdf, named: "attestation.pdf", in: directory)
            let list = try Tool.run("pdfimages", ["-list", path], in: directory).text
            // The picture (rgb, with its transparency as a soft mask) beside the QR code's image.
            #expect(list.contains(/\s20\s+10\s+rgb\s/), "\(list)")
            #expect(list.contains(/\ssmask\s+20\s+10\s/), "\(list)")
            try Tool.run("qpdf", ["--check", path], in: directory)
            let plain = try Self.form(withPicture: false)
            let other = try write(
                try AttestationRenderer(forms: [plain]).pdf(try Self.attestation(plain)), named: "plain.pdf",
                in: directory)
            for (file, prefix) in [(path, "p"), (other, "q")] {
                try Tool.run(
                    "pdftoppm",
                    ["-r", "72", "-gray", "-f", "1", "-l", "1", file, directory.appendingPathComponent(prefix).path],
                    in: directory)
            }
            let page = try GrayImage(pgm: Data(contentsOf: directory.appendingPathComponent("p-1.pgm")))
            let without = try GrayImage(pgm: Data(contentsOf: directory.appendingPathComponent("q-1.pgm")))
            Self.expectPicture(page, without: without, pageHeight: form.page.height, "PDF")
        }
    }

    @Test func aPNGPictureIsDrawnInThePageImage() throws {
        let form = try Self.form()
        let png = try AttestationRenderer(forms: [form]).pagePNG(try Self.attestation(form), page: 1, dpi: 72)
        let plain = try Self.form(withPicture: false)
        let plainPNG = try AttestationRenderer(forms: [plain]).pagePNG(try Self.attestation(plain), page: 1, dpi: 72)
        try withScratchDirectory { directory in
            let image = try GrayImage(png: try write(png, named: "page.png", in: directory), in: directory)
            let without = try GrayImage(png: try write(plainPNG, named: "plain.png", in: directory), in: directory)
            Self.expectPicture(image, without: without, pageHeight: form.page.height, "page image")
        }
    }
}
