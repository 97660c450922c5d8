import AttestationKit
import FormSchema
import Foundation
import TestSupport
import Testing

@testable import Rendering

/// The form schema grew a version 2 (issue 17); the forms written in version 1, the built-in
/// ones first, must still read and look as before. The PDFs in `Compatibility/` were rendered by
/// main's `attestation-admin render` before the schema changed, for the same people, reasons
/// (travail, sante) and instant (`TZ=UTC faketime '@2020-11-28 07:15:00'`, 08:15 in Paris).
///
/// What is compared is what a reader gets, not how the file is written, so the renderer may
/// write its operators, objects and compression as it sees fit: the words of every page and
/// their boxes (`pdftotext -bbox`, within 0.05 pt), the fonts (`pdffonts`: name, type,
/// encoding, embedded, subset, ToUnicode), and every page drawn by `pdftoppm` at 100 dpi in
/// grey, pixel for pixel (ImageMagick's `compare -metric AE`: no pixel differs).
///
/// When a change of what these forms show is meant, render the references again with the
/// change and look at what moved before committing them:
///
///     ATTESTATION_UPDATE_COMPATIBILITY=1 swift test --filter FormSchemaCompatibilityTests
///     for f in Tests/RenderingTests/Compatibility/*.pdf; do pdftoppm -r 100 -png "$f" "/tmp/$(basename "$f" .pdf)"; done
///
/// (the first writes today's rendering of each case over its reference instead of comparing;
/// `git show HEAD:<file>` gives the old one to draw beside it).
@Suite("Form schema version 1 compatibility")
struct FormSchemaCompatibilityTests {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
        "Compatibility")

    static let people: [(name: String, make: @Sendable () throws -> Identity)] = [
        ("camille", { try Fixture.camille() }),
        ("latin1", { try Fixture.latin1Person() }),
        ("unicode", { try Fixture.identity(first: "Łukasz", last: "Wałęsa", city: "Kraków") }),
    ]

    static let cases: [String] = builtInFormIDs.flatMap { id in people.map { "\(id)-\($0.name)" } }

    /// Words farther than this from where they were have moved (pdftotext writes 6 decimals).
    static let positionTolerance = 0.05

    @Test("a built-in form of version 1 reads and looks the same as before version 2", arguments: cases)
    func aVersionOneFormReadsAndLooksTheSameAsBefore(name: String) throws {
        let person = try #require(Self.people.first { name.hasSuffix("-\($0.name)") })
        let formID = String(name.dropLast(person.name.count + 1))
        let pdf = try Fixture.renderer().pdf(try Fixture.attestation(try person.make(), formID: formID))
        let reference = Self.directory.appendingPathComponent("\(name).pdf")
        if ProcessInfo.processInfo.environment["ATTESTATION_UPDATE_COMPATIBILITY"] == "1" {
            try Data(pdf).write(to: reference)
            return
        }
        let expected = try [UInt8](Data(contentsOf: reference))
        try withScratchDirectory { directory in
            for difference in try Self.differences(pdf, from: expected, in: directory) {
                Issue.record("\(name): \(difference)")
            }
        }
    }

    @Test("the comparison sees a field moved by 2 points, and one character changed")
    func theComparisonSeesAMovedFieldAndAChangedCharacter() throws {
        let formID = builtInFormIDs[0]
        let person = try Fixture.identity(first: "Łukasz", last: "Wałęsa", city: "Kraków")
        let expected = try [UInt8](
            Data(contentsOf: Self.directory.appendingPathComponent("\(formID)-unicode.pdf")))

        // The built-in form's own file, a version 1 form, with the birth date 2 points to the right.
        let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Sources/FormSchema/Forms/\(formID).json")
        var json = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any])
        var fields = try #require(json["fields"] as? [String: Any])
        var birthDate = try #require(fields["birthDate"] as? [String: Any])
        birthDate["x"] = try #require((birthDate["x"] as? NSNumber)?.doubleValue) + 2
        fields["birthDate"] = birthDate
        json["fields"] = fields
        let moved = try FormCatalog.decodeForm(
            try JSONSerialization.data(withJSONObject: json), source: "\(formID)-moved.json")
        let movedPDF = try AttestationRenderer(forms: [moved]).pdf(
            try Attestation(
                identity: person, form: moved, reasonCodes: [moved.reasons[0].code, moved.reasons[2].code],
                exit: .now, timeZone: .paris, now: Fixture.now))
        let renamedPDF = try Fixture.renderer().pdf(
            try Fixture.attestation(
                try Fixture.identity(first: "Łukasz", last: "Wałęsb", city: "Kraków"), formID: formID))

        try withScratchDirectory { directory in
            let movedDifferences = try Self.differences(movedPDF, from: expected, in: directory)
            #expect(movedDifferences.contains { $0.contains("moved") }, "\(movedDifferences)")
            #expect(movedDifferences.contains { $0.contains("pixels differ") }, "\(movedDifferences)")
            let renamedDifferences = try Self.differences(renamedPDF, from: expected, in: directory)
            #expect(renamedDifferences.contains { $0.contains("«Wałęsb»") }, "\(renamedDifferences)")
            #expect(renamedDifferences.contains { $0.contains("pixels differ") }, "\(renamedDifferences)")
        }
    }

    /// What a reader would find changed from `reference` to `pdf`, as sentences; none when they
    /// read and look the same.
    static func differences(_ pdf: [UInt8], from reference: [UInt8], in directory: URL) throws -> [String] {
        let now = try write(pdf, named: "now.pdf", in: directory)
        let before = try write(reference, named: "before.pdf", in: directory)
        var found: [String] = []

        let pagesNow = try BBox.parse(try Tool.run("pdftotext", ["-bbox", now, "-"], in: directory).text)
        let pagesBefore = try BBox.parse(try Tool.run("pdftotext", ["-bbox", before, "-"], in: directory).text)
        if pagesNow.count != pagesBefore.count { found.append("\(pagesNow.count) pages, \(pagesBefore.count) before") }
        for (index, (page, old)) in zip(pagesNow, pagesBefore).enumerated() {
            let number = index + 1
            if abs(page.width - old.width) > positionTolerance || abs(page.height - old.height) > positionTolerance {
                found.append("page \(number) is \(page.width) × \(page.height) pt, \(old.width) × \(old.height) before")
            }
            if page.words.map(\.text) != old.words.map(\.text) {
                let added = page.words.map(\.text).filter { !old.words.map(\.text).contains($0) }
                let removed = old.words.map(\.text).filter { !page.words.map(\.text).contains($0) }
                found.append(
                    "page \(number): words «\(added.joined(separator: "» «"))» instead of «\(removed.joined(separator: "» «"))»"
                )
                continue
            }
            for (word, oldWord) in zip(page.words, old.words) {
                let shift = [
                    word.xMin - oldWord.xMin, word.yMin - oldWord.yMin, word.xMax - oldWord.xMax,
                    word.yMax - oldWord.yMax,
                ]
                if shift.contains(where: { abs($0) > positionTolerance }) {
                    found.append("page \(number): \(word) moved from \(oldWord)")
                }
            }
        }

        let fontsNow = try fonts(now, in: directory)
        let fontsBefore = try fonts(before, in: directory)
        if fontsNow != fontsBefore { found.append("fonts \(fontsNow), \(fontsBefore) before") }

        try Tool.run("pdftoppm", ["-r", "100", "-gray", now, "now"], in: directory)
        try Tool.run("pdftoppm", ["-r", "100", "-gray", before, "before"], in: directory)
        let images = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        let imagesNow = images.filter { $0.hasPrefix("now-") && $0.hasSuffix(".pgm") }.sorted()
        let imagesBefore = images.filter { $0.hasPrefix("before-") && $0.hasSuffix(".pgm") }.sorted()
        if imagesNow.count != imagesBefore.count {
            found.append("\(imagesNow.count) page images, \(imagesBefore.count) before")
        }
        for (image, old) in zip(imagesNow, imagesBefore) {
            // compare exits 1 when the pictures differ, and writes the count on stderr.
            let result = try Tool.run(
                "compare", ["-metric", "AE", image, old, "null:"], in: directory, accepting: [0, 1])
            let count = Double(result.stderr.trimmingCharacters(in: .whitespacesAndNewlines))
            if count != 0 { found.append("\(image): \(result.stderr) pixels differ from \(old)") }
        }
        for file in images where file.hasSuffix(".pgm") {
            try FileManager.default.removeItem(at: directory.appendingPathComponent(file))
        }
        return found
    }

    /// pdffonts' rows without the object numbers, which say where a font is written, not what it is.
    static func fonts(_ path: String, in directory: URL) throws -> [String] {
        let lines = try Tool.run("pdffonts", [path], in: directory).text.split(separator: "\n")
        try #require(lines.count >= 2 && lines[1].hasPrefix("---"), "unexpected pdffonts output: \(lines)")
        return lines.dropFirst(2).map { line in
            line.split(separator: " ", omittingEmptySubsequences: true).dropLast(2).joined(separator: " ")
        }
    }
}
