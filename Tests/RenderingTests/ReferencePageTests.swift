import AttestationKit
import FormSchema
import Foundation
import TestSupport
import Testing

@testable import Rendering

/// The ten official forms of 2020–2021 besides November's, drawn for the example of their
/// facts (the person, instant, exit time and reasons of the Ministry's generator, in
/// FormSchemaTests/Reference/FOLDER/facts.json) and compared with their blank and the
/// generator's facts by outside tools: pdftotext for the words, pdftotext -bbox for the places
/// of the filled values, zbarimg for the QR codes, qpdf for the file.
///
/// A form the renderer cannot draw yet (`Form.awaitingRenderer` not empty, so not in
/// `FormCatalog.builtIn.forms`) is a known issue here, each test turning on by itself when its
/// form is drawn.
@Suite("Reference forms drawn")
struct ReferencePageTests {
    static let folders = ReferenceExample.folders
    static let reference = ReferenceExample.directory

    /// The example of a form's facts: the attestation the Ministry's generator made, its QR
    /// payload, and how it printed the values.
    struct Example {
        let attestation: Attestation
        let form: Form
        let payload: String
        let reference: ReferenceExample
        let facts: [String: Any]
        /// The pages of the Ministry's blank; the generator added one after them.
        var blankPages: Int { reference.blankPages }
    }

    /// Runs `body` with the example of `folder` when its form is drawn; a pending form is a
    /// known issue naming what the renderer lacks.
    static func withDrawnForm(_ folder: String, _ body: (Example) throws -> Void) throws {
        guard let form = FormCatalog.builtIn.form(id: folder) else {
            let pending = try #require(FormCatalog.builtIn.anyForm(id: folder), "built-in form \(folder)")
            withKnownIssue(
                "\(folder) waits for the renderer: \(pending.awaitingRenderer.map(\.description).joined(separator: ", "))"
            ) {
                Issue.record("not drawn yet")
            }
            return
        }
        try body(try example(folder, form: form))
    }

    static func example(_ folder: String, form: Form) throws -> Example {
        let reference = try ReferenceExample(folder: folder, form: form)
        return Example(
            attestation: reference.attestation, form: reference.form, payload: reference.payload,
            reference: reference, facts: reference.facts)
    }

    static func pdf(_ example: Example) throws -> [UInt8] {
        try AttestationRenderer(forms: [example.form]).pdf(example.attestation)
    }

    /// Every word of the blank (blank.txt, `pdftotext -layout` of the Ministry's blank) is on
    /// our pages of the blank (page 1, pages 1–2 for the two-page blank of 23 March 2021) as
    /// pdftotext reads them, at least as often.
    @Test(arguments: folders)
    func everyWordOfTheBlankIsOnTheDrawnPage(folder: String) throws {
        try Self.withDrawnForm(folder) { example in
            let blank = try String(
                contentsOf: Self.reference.appendingPathComponent("\(folder)/blank.txt"), encoding: .utf8)
            let text = try withScratchDirectory { directory in
                let path = try write(try Self.pdf(example), named: "attestation.pdf", in: directory)
                return try Tool.run(
                    "pdftotext", ["-layout", "-f", "1", "-l", "\(example.blankPages)", path, "-"], in: directory
                ).text
            }
            var ours: [String: Int] = [:]
            for word in ReferenceExample.words(text) { ours[word, default: 0] += 1 }
            var theirs: [String: Int] = [:]
            for word in ReferenceExample.words(blank) { theirs[word, default: 0] += 1 }
            let missing = theirs.filter { ours[$0.key, default: 0] < $0.value }.map {
                "\($0.key) ×\($0.value - ours[$0.key, default: 0])"
            }
            #expect(missing.isEmpty, "\(folder): our blank lacks \(missing.sorted().joined(separator: ", "))")
        }
    }

    /// Each filled value and each check mark within 1 pt of where the generator drew it
    /// (facts.json: x and baseline y). pdftotext -bbox gives each word's box: its xMin is
    /// where the text starts; its yMax, counted from the top, is the Helvetica ascender above
    /// the baseline, so the baseline is the page height − yMax + 0.207 × size (Helvetica's
    /// descender, Word.baseline), the size being the box's height / 0.925. Values and marks
    /// are Helvetica in every one of these forms.
    @Test(arguments: folders)
    func filledValuesAndMarksAreWhereTheGeneratorDrewThem(folder: String) throws {
        try Self.withDrawnForm(folder) { example in
            let pdf = try Self.pdf(example)
            let pages = try withScratchDirectory { directory in
                try (1...example.blankPages).map { try BBox.page($0, of: pdf, in: directory) }
            }
            func expectWord(_ text: String, at x: Double, _ y: Double, page number: Int, size: Double?, _ what: String)
            {
                let page = pages[number - 1]
                let candidates = page.words.filter { $0.text == text }
                let nearest = candidates.min {
                    abs($0.xMin - x) + abs($0.baseline(pageHeight: page.height) - y) < abs($1.xMin - x)
                        + abs($1.baseline(pageHeight: page.height) - y)
                }
                guard let word = nearest else {
                    Issue.record("\(folder) \(what): no word «\(text)» on page \(number)")
                    return
                }
                let baseline = word.baseline(pageHeight: page.height)
                #expect(
                    abs(word.xMin - x) <= 1 && abs(baseline - y) <= 1,
                    "\(folder) \(what): «\(text)» starts at (\(word.xMin), \(baseline)), the generator's at (\(x), \(y))"
                )
                if let size {
                    #expect(
                        abs(word.fontSize - size) <= 0.5, "\(folder) \(what): \(word.fontSize) pt, \(size) expected")
                }
            }
            for field in try #require(example.facts["fields"] as? [[String: Any]]) {
                let key = try #require(field["key"] as? String)
                let value = example.reference.printed(try #require(field["value"] as? String))
                let x = try #require(field["x"] as? Double)
                let y = try #require(field["y"] as? Double)
                let first = try #require(value.split(separator: " ").first.map(String.init))
                expectWord(first, at: x, y, page: field["page"] as? Int ?? 1, size: field["size"] as? Double ?? 11, key)
            }
            let reasons = try #require((example.facts["reasons"] as? [String: Any])?["items"] as? [[String: Any]])
            for code in example.attestation.reasons.map(\.code) {
                let item = try #require(reasons.first { $0["code"] as? String == code })
                let check = try #require(item["check"] as? [String: Any])
                expectWord(
                    "x", at: try #require(check["x"] as? Double), try #require(check["y"] as? Double),
                    page: check["page"] as? Int ?? 1, size: check["size"] as? Double, "mark of \(code)")
            }
        }
    }

    /// Both QR codes, read by zbarimg from pdftoppm's pictures of the pages, hold the
    /// generator's payload byte for byte.
    @Test(arguments: folders)
    func bothQRCodesHoldTheGeneratorsPayloadByteForByte(folder: String) throws {
        try Self.withDrawnForm(folder) { example in
            #expect(QRPayload(example.attestation).text == example.payload)
            try withScratchDirectory { directory in
                let path = try write(try Self.pdf(example), named: "attestation.pdf", in: directory)
                try Tool.run(
                    "pdftoppm", ["-r", "150", "-gray", path, directory.appendingPathComponent("page").path],
                    in: directory)
                let pages = try FileManager.default.contentsOfDirectory(atPath: directory.path)
                    .filter { $0.hasPrefix("page-") && $0.hasSuffix(".pgm") }.sorted()
                try #require(pages.count == example.blankPages + 1, "\(folder): pdftoppm made \(pages)")
                // The small code on the blank's last page, the big one on the added page.
                for page in pages.suffix(2) {
                    let decoded = try Tool.run("zbarimg", ["--raw", "-q", page], in: directory, accepting: [0, 4])
                        .stdout
                    #expect(
                        decoded == Data((example.payload + "\n").utf8),
                        "\(folder) \(page): zbarimg read \(String(decoding: decoded, as: UTF8.self).debugDescription)")
                }
            }
        }
    }

    /// The pages' sizes are the blank's and pdf-lib's A4 for the added page, and qpdf finds
    /// nothing wrong with the file.
    @Test(arguments: folders)
    func theFileIsCleanAndItsPagesHaveTheGeneratorsSizes(folder: String) throws {
        try Self.withDrawnForm(folder) { example in
            try withScratchDirectory { directory in
                let path = try write(try Self.pdf(example), named: "attestation.pdf", in: directory)
                let check = try Tool.run("qpdf", ["--check", path], in: directory)
                #expect(
                    check.text.contains("No syntax or stream encoding errors found"),
                    "\(folder): qpdf said \(check.text) \(check.stderr)")
                let added = example.blankPages + 1
                let info = try Tool.run("pdfinfo", ["-f", "1", "-l", "\(added)", path], in: directory).text
                #expect(
                    info.split(separator: "\n").contains { $0.hasPrefix("Pages:") && $0.hasSuffix(" \(added)") },
                    "\(folder): \(info)")
                let blankFacts = try #require(example.facts["blank"] as? [String: Any])
                let blank = try #require(blankFacts["page_size_pt"] as? [Double])
                let big = try #require(
                    ((example.facts["qr"] as? [String: Any])?["big"] as? [String: Any])?["page_size"] as? [Double])
                func points(_ value: Double) -> String { String(format: "%g", value) }
                for (index, size) in (blankFacts["page_sizes_pt"] as? [[Double]] ?? [blank]).enumerated() {
                    #expect(
                        info.contains("Page    \(index + 1) size:  \(points(size[0])) x \(points(size[1])) pts"),
                        "\(folder): \(info)")
                }
                #expect(
                    info.contains("Page    \(added) size:  \(points(big[0])) x \(points(big[1])) pts"),
                    "\(folder): \(info)")
            }
        }
    }
}
