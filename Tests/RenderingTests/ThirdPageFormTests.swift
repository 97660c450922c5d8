import AttestationKit
import FormSchema
import Foundation
import TestSupport
import Testing

@testable import Rendering

/// A form written from docs/forms.md alone with a third page: ThirdPage/
/// deplacement-2021-03-20-trois-pages.json.
///
/// What it is based on: the Ministry's generator of 22 March 2021
/// (LAB-MI/attestation-deplacement-derogatoire-covid-19 @ 6d316f6, src/js/pdf-util.js) drew its
/// week-end context on a blank of two pages, then `pdfDoc.addPage()` put the big QR code and
/// its white text on page 3 (300 pt at (50, height − 390)). That two-page blank is not among
/// the reference folders; so page 1 here is the blank of 17 March 2021
/// (reference folder deplacement-2021-03-17-week-end, whose facts give the person, the values'
/// places and the payload), page 2 a framed notice (rules on page 2, vertical ones, a
/// thickness), and page 3 the big QR code and its white text as that generator placed them.
/// The reference checks of ReferencePageTests then run on it: every word of the blank on
/// page 1, the values and marks within 1 pt, both QR codes byte for byte, and the big one on
/// page 3 at its place.
@Suite("A form with a third page")
struct ThirdPageFormTests {
    static let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("ThirdPage/deplacement-2021-03-20-trois-pages.json")
    static let folder = "deplacement-2021-03-17-week-end"
    /// Where the generator put the big code on page 3: (50, height − 390), 300 pt a side.
    static let bigCode = (x: 50.0, y: 841.89 - 390, size: 300.0)

    static func reference() throws -> ReferenceExample {
        var catalog = FormCatalog.builtIn
        try catalog.add(json: try Data(contentsOf: file), source: file.lastPathComponent)
        let form = try #require(catalog.form(id: "deplacement-2021-03-20-trois-pages"))
        return try ReferenceExample(folder: folder, form: form)
    }

    static func pdf(_ reference: ReferenceExample) throws -> [UInt8] {
        try AttestationRenderer(forms: [reference.form]).pdf(reference.attestation)
    }

    @Test func itLoadsAsTheServerLoadsAFileAndHasThreePagesOfTheGeneratorsSizes() throws {
        let reference = try Self.reference()
        try withScratchDirectory { directory in
            let path = try write(try Self.pdf(reference), named: "attestation.pdf", in: directory)
            let check = try Tool.run("qpdf", ["--check", path], in: directory)
            #expect(check.text.contains("No syntax or stream encoding errors found"), "qpdf: \(check.text)")
            let info = try Tool.run("pdfinfo", ["-f", "1", "-l", "3", path], in: directory).text
            #expect(info.contains(/Pages: +3\n/), "\(info)")
            #expect(info.contains("Page    1 size:  595.32 x 841.92 pts"), "\(info)")
            #expect(info.contains("Page    3 size:  595.28 x 841.89 pts"), "\(info)")
        }
    }

    @Test func everyWordOfTheBlankIsOnPageOne() throws {
        let reference = try Self.reference()
        let blank = try String(
            contentsOf: ReferenceExample.directory.appendingPathComponent("\(Self.folder)/blank.txt"), encoding: .utf8)
        let text = try withScratchDirectory { directory in
            let path = try write(try Self.pdf(reference), named: "attestation.pdf", in: directory)
            return try Tool.run("pdftotext", ["-layout", "-f", "1", "-l", "1", path, "-"], in: directory).text
        }
        var ours: [String: Int] = [:]
        for word in ReferenceExample.words(text) { ours[word, default: 0] += 1 }
        var theirs: [String: Int] = [:]
        for word in ReferenceExample.words(blank) { theirs[word, default: 0] += 1 }
        let missing = theirs.filter { ours[$0.key, default: 0] < $0.value }.map { "\($0.key) ×\($0.value)" }
        #expect(missing.isEmpty, "page 1 lacks \(missing.sorted().joined(separator: ", "))")
    }

    @Test func theValuesAndMarksAreWithinOnePointOfTheGenerators() throws {
        let reference = try Self.reference()
        let page = try withScratchDirectory { try BBox.firstPage(of: try Self.pdf(reference), in: $0) }
        let values = [
            "name": "Camille", "birthday": "01/01/1970", "placeofbirth": "Paris", "address": "999",
            "fait_a_city": "Paris", "exit_date": reference.exitDate, "exit_time": reference.exitTime,
        ]
        var expected: [(text: String, x: Double, y: Double, what: String)] = []
        for field in try #require(reference.facts["fields"] as? [[String: Any]]) {
            let key = try #require(field["key"] as? String)
            let text = try #require(values[key], "no example value for \(key)")
            expected.append((text, try #require(field["x"] as? Double), try #require(field["y"] as? Double), key))
        }
        let reasons = try #require((reference.facts["reasons"] as? [String: Any])?["items"] as? [[String: Any]])
        for code in reference.attestation.reasons.map(\.code) {
            let check = try #require(reasons.first { $0["code"] as? String == code }?["check"] as? [String: Any])
            expected.append(("x", try #require(check["x"] as? Double), try #require(check["y"] as? Double), code))
        }
        for (text, x, y, what) in expected {
            let nearest = page.words.filter { $0.text == text }.min {
                abs($0.xMin - x) + abs($0.baseline(pageHeight: page.height) - y)
                    < abs($1.xMin - x) + abs($1.baseline(pageHeight: page.height) - y)
            }
            let word = try #require(nearest, "\(what): no «\(text)» on page 1")
            let baseline = word.baseline(pageHeight: page.height)
            #expect(
                abs(word.xMin - x) <= 1 && abs(baseline - y) <= 1,
                "\(what): «\(text)» at (\(word.xMin), \(baseline)), the generator's at (\(x), \(y))")
        }
    }

    /// zbarimg reads the payload byte for byte on pages 1 and 3 and nothing on page 2; on
    /// page 3 the code is inside its square (read from that square alone) and nowhere else
    /// (the page with the square painted white holds no code).
    @Test func bothQRCodesHoldThePayloadAndTheBigOneIsOnPageThreeAtItsPlace() throws {
        let reference = try Self.reference()
        #expect(QRPayload(reference.attestation).text == reference.payload)
        try withScratchDirectory { directory in
            let path = try write(try Self.pdf(reference), named: "attestation.pdf", in: directory)
            try Tool.run(
                "pdftoppm", ["-r", "150", "-gray", path, directory.appendingPathComponent("page").path], in: directory)
            let pages = try FileManager.default.contentsOfDirectory(atPath: directory.path)
                .filter { $0.hasPrefix("page-") && $0.hasSuffix(".pgm") }.sorted()
            try #require(pages == ["page-1.pgm", "page-2.pgm", "page-3.pgm"], "pdftoppm made \(pages)")
            func read(_ image: String) throws -> String {
                let output = try Tool.run("zbarimg", ["--raw", "-q", image], in: directory, accepting: [0, 4]).stdout
                return String(decoding: output, as: UTF8.self)
            }
            let payload = reference.payload + "\n"
            #expect(try read("page-1.pgm") == payload)
            #expect(try read("page-2.pgm") == "")
            #expect(try read("page-3.pgm") == payload)
            // The square in pixels at 150 dpi, from the top of the page.
            let code = Self.bigCode
            func pixels(_ points: Double) -> Int { Int((points * 150 / 72).rounded()) }
            let (left, top, side) = (pixels(code.x), pixels(841.89 - code.y - code.size), pixels(code.size))
            let square = "\(side)x\(side)+\(left)+\(top)"
            try Tool.run(
                "convert",
                ["page-3.pgm", "-crop", square, "+repage", "-bordercolor", "white", "-border", "40", "square.png"],
                in: directory)
            #expect(try read("square.png") == payload)
            let corners = "rectangle \(left),\(top) \(left + side),\(top + side)"
            try Tool.run("convert", ["page-3.pgm", "-fill", "white", "-draw", corners, "elsewhere.png"], in: directory)
            #expect(try read("elsewhere.png") == "")
        }
    }
}
