import AttestationKit
import Foundation
import TestSupport
import Testing

@testable import Rendering

/// The QR codes, read back by a real decoder (zbarimg) from the PDF pages and from the PNG.
@Suite("QR codes read back")
struct QRCodeTests {
    /// zbarimg --raw prints the decoded text followed by one newline.
    private func decode(_ imagePath: String, in directory: URL) throws -> String {
        // Status 4: no symbol found; let the comparison report it with what was printed.
        let result = try Tool.run("zbarimg", ["--raw", "-q", imagePath], in: directory, accepting: [0, 4])
        return result.text
    }

    @Test(
        "both PDF pages hold a QR code that decodes to exactly the payload",
        arguments: builtInFormIDs, ["camille", "latin1", "widest"])
    func pdfQRCodes(formID: String, person: String) throws {
        let identity =
            switch person {
            case "camille": try Fixture.camille()
            case "latin1": try Fixture.latin1Person()
            default: try Fixture.widestPerson()  // the largest code, still read at 150 dpi
            }
        let attestation = try Fixture.attestation(identity, formID: formID)
        let payload = QRPayload(attestation).text
        // The fixed clock is really used: created at 08:15 Paris time, exit now.
        #expect(payload.hasPrefix("Cree le: 28/11/2020 a 08h15;\n"))
        #expect(payload.contains("Sortie: 28/11/2020 a 08:15;\n"))

        let pdf = try Fixture.renderer().pdf(attestation)
        try withScratchDirectory { directory in
            let path = try write(pdf, named: "attestation.pdf", in: directory)
            try Tool.run(
                "pdftoppm", ["-r", "150", "-gray", path, directory.appendingPathComponent("page").path], in: directory)
            let pages = try FileManager.default.contentsOfDirectory(atPath: directory.path)
                .filter { $0.hasPrefix("page-") && $0.hasSuffix(".pgm") }.sorted()
            try #require(pages.count == 2, "pdftoppm produced \(pages) for a PDF that should have 2 pages")
            for page in pages {
                let decoded = try decode(page, in: directory)
                #expect(
                    decoded == payload + "\n",
                    "\(formID), \(page): zbarimg read \(decoded.debugDescription), expected \(payload.debugDescription) + newline"
                )
            }
        }
    }

    @Test(
        "the PNG decodes to the payload, is at most `size` wide, whole pixels per module",
        arguments: builtInFormIDs)
    func png(formID: String) throws {
        let attestation = try Fixture.attestation(try Fixture.camille(), formID: formID)
        let payload = QRPayload(attestation)
        let renderer = try Fixture.renderer()
        let modules = try QRMatrix(encoding: payload.bytes).width + 2 * 4

        for size in [185, 200, 255, 400, 1000, 2048, 4096] {
            let png = try renderer.qrPNG(attestation, size: size)
            let (width, height) = try pngDimensions(png)
            #expect(width == height, "size \(size): PNG is \(width) × \(height), not square")
            #expect(width <= size, "size \(size): PNG is \(width) px wide, more than asked")
            #expect(
                width % modules == 0,
                "size \(size): \(width) px is not a multiple of \(modules) modules (code + 2 × 4 quiet)")
            // Whole pixels per module, and as many as fit: one more per module would exceed size.
            #expect(width + modules > size, "size \(size): \(width) px leaves room for a larger scale")
        }

        let defaultPNG = try renderer.qrPNG(attestation)
        #expect(try pngDimensions(defaultPNG).width == 400 / modules * modules, "default size is 400")

        try withScratchDirectory { directory in
            for size in [400, 1000] {
                let path = try write(
                    try renderer.qrPNG(attestation, size: size), named: "qr-\(size).png", in: directory)
                let decoded = try decode(path, in: directory)
                #expect(decoded == payload.text + "\n", "size \(size): zbarimg read \(decoded.debugDescription)")
            }
        }
    }

    /// The longest identity makes a larger code: the PNG must still respect `size`, down to the
    /// smallest accepted one (185, the largest code at one pixel a module), as `qrPNG` promises.
    @Test("the PNG of the longest identity is never wider than `size`", arguments: builtInFormIDs)
    func pngOfLongestIdentity(formID: String) throws {
        let attestation = try Fixture.attestation(try Fixture.widestPerson(), formID: formID)
        let payload = QRPayload(attestation)
        let renderer = try Fixture.renderer()
        let modules = try QRMatrix(encoding: payload.bytes).width + 2 * 4
        for size in [AttestationRenderer.pngSizes.lowerBound, 186, 200, 250, 400] {
            let png = try renderer.qrPNG(attestation, size: size)
            let width = try pngDimensions(png).width
            #expect(
                width <= size,
                "size \(size): the PNG is \(width) px wide (code of \(modules) modules with its quiet zone)")
            #expect(width % modules == 0)
        }
        try withScratchDirectory { directory in
            let path = try write(try renderer.qrPNG(attestation, size: 800), named: "qr.png", in: directory)
            let decoded = try decode(path, in: directory)
            #expect(decoded == payload.text + "\n")
        }
    }

    @Test("sizes outside 185…4096 are refused with .pngSize")
    func pngSizeOutOfRange() throws {
        let attestation = try Fixture.attestation(try Fixture.camille(), formID: builtInFormIDs[0])
        let renderer = try Fixture.renderer()
        #expect(AttestationRenderer.pngSizes == 185...4096)
        for size in [-1, 0, 1, 64, 184, 4097, 10_000] {
            #expect(throws: RenderingError.pngSize(size, AttestationRenderer.pngSizes)) {
                _ = try renderer.qrPNG(attestation, size: size)
            }
        }
        // The bounds themselves are accepted.
        #expect(throws: Never.self) { _ = try renderer.qrPNG(attestation, size: 185) }
        #expect(throws: Never.self) { _ = try renderer.qrPNG(attestation, size: 4096) }
    }

    /// The code is one image that both pages draw: 1 bit a pixel, two pixels a module, deflated
    /// compressed, and explicitly not to be smoothed by readers that enlarge it.
    @Test("both pages draw one shared 1-bit image of the code, with /Interpolate false", arguments: builtInFormIDs)
    func sharedImage(formID: String) throws {
        let attestation = try Fixture.attestation(try Fixture.camille(), formID: formID)
        let modules = try QRMatrix(encoding: QRPayload(attestation).bytes).width
        let pdf = try Fixture.renderer().pdf(attestation)
        try withScratchDirectory { directory in
            let path = try write(pdf, named: "image.pdf", in: directory)
            // page num type width height color comp bpc enc interp object ID …
            let rows = try Tool.run("pdfimages", ["-list", path], in: directory).text.split(separator: "\n").dropFirst(
                2
            )
            .map { $0.split(separator: " ", omittingEmptySubsequences: true).map(String.init) }
            try #require(rows.count == 2 && rows.allSatisfy { $0.count >= 12 }, "pdfimages listed \(rows)")
            #expect(rows.map { $0[0] } == ["1", "2"])
            let side = String(modules * QRMatrix.imagePixelsPerModule)
            for row in rows {
                #expect(row[3] == side && row[4] == side, "\(formID): image \(row[3]) × \(row[4]), expected \(side)")
                #expect(row[7] == "1" && row[8] == "image" && row[9] == "no", "\(formID): \(row)")
            }
            #expect(
                rows[0][10] == rows[1][10],
                "\(formID): the pages draw different image objects \(rows[0][10]), \(rows[1][10])")
            let object = try Tool.run("qpdf", ["--show-object=\(rows[0][10])", path], in: directory).text
            #expect(object.contains("/Interpolate false"), "\(formID): \(object)")
        }
    }

    /// README §4: page 1 holds the code in 92 × 92 pt at (page width − 156, 25), page 2 in
    /// 300 × 300 pt at (50, page height − 390), each including a quiet zone of one module.
    @Test("the QR codes are where and as large as the official ones", arguments: builtInFormIDs)
    func qrPlacement(formID: String) throws {
        let form = try Fixture.form(formID)
        let attestation = try Fixture.attestation(try Fixture.camille(), formID: formID)
        let modules = try QRMatrix(encoding: QRPayload(attestation).bytes).width
        let pdf = try Fixture.renderer().pdf(attestation)
        let dpi = 144.0
        let scale = dpi / 72

        try withScratchDirectory { directory in
            let path = try write(pdf, named: "attestation.pdf", in: directory)
            for (page, x, y, side) in [
                (1, form.page.width - 156, 25.0, 92.0), (2, 50.0, form.page.height - 390, 300.0),
            ] {
                let prefix = directory.appendingPathComponent("page\(page)").path
                try Tool.run(
                    "pdftoppm",
                    ["-gray", "-r", "\(Int(dpi))", "-f", "\(page)", "-l", "\(page)", "-singlefile", path, prefix],
                    in: directory)
                let image = try GrayImage(pgm: try Data(contentsOf: URL(fileURLWithPath: prefix + ".pgm")))
                // Pixel rows count from the top; the region is the code's square and 8 pt around,
                // kept below the dotted rule over "Fait à" on page 1 of the 2020-11-02 form.
                let top = form.page.height - (y + side)
                let xs = Int((x - 8) * scale)..<Int((x + side + 8) * scale)
                let ys = Int((top - (page == 1 ? 1 : 8)) * scale)..<Int((top + side + 8) * scale)
                let bounds = try #require(
                    image.darkBounds(xs: xs, ys: ys), "page \(page): no dark pixel where the QR code belongs")
                // Dark modules start one module (the quiet zone) inside the square.
                let module = side / Double(modules + 2)
                let expected = (
                    minX: x + module, maxX: x + side - module, minY: top + module, maxY: top + side - module
                )
                let tolerance = 1.5  // points
                let found = (
                    minX: Double(bounds.minX) / scale, maxX: Double(bounds.maxX + 1) / scale,
                    minY: Double(bounds.minY) / scale, maxY: Double(bounds.maxY + 1) / scale
                )
                let edges = [
                    ("left", found.minX, expected.minX), ("right", found.maxX, expected.maxX),
                    ("top", found.minY, expected.minY), ("bottom", found.maxY, expected.maxY),
                ]
                for (edge, value, wanted) in edges {
                    #expect(abs(value - wanted) <= tolerance, "page \(page): \(edge) edge \(value), expected \(wanted)")
                }
            }
        }
    }
}
