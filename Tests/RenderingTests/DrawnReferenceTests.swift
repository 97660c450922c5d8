import AttestationKit
import FormSchema
import Foundation
import TestSupport
import Testing

@testable import Rendering

/// The versions of April–June 2021, which the Ministry's generator drew whole (pdf-lib, Luciole,
/// the logos), against a reference made from the generator's own data at each commit: the
/// facts (`FormSchemaTests/Reference/drawn/FOLDER/facts.json`, from its `*-pdf-data.json` by
/// `derive-facts.py`) drawn by ReportLab for the example person (`example.json`,
/// `draw-references.py`: `reference.pdf`, page 1 without its QR code). Compared by outside tools:
/// pdftotext for every word and its place, zbarimg for both QR codes, pdftoppm and ImageMagick
/// for the pixels, qpdf for the file.
@Suite("Drawn versions of April–June 2021 against their references")
struct DrawnReferenceTests {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../FormSchemaTests/Reference/drawn").standardizedFileURL

    struct Example {
        let form: Form
        let attestation: Attestation
        let facts: [String: Any]
        let printed: [String: String]
        let reasons: [String]
        let exit: (date: String, time: String)
        let created: (date: String, time: String)
        var reference: URL { DrawnReferenceTests.directory.appendingPathComponent("\(form.id)/reference.pdf") }
    }

    /// `example.json`: the person, and for each form the instants and reasons of the example.
    static func exampleFile() -> [String: Any] {
        guard let data = try? Data(contentsOf: directory.appendingPathComponent("example.json")),
            let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any]
        else { return [:] }
        return object
    }

    static let formIDs: [String] = ((exampleFile()["attestations"] as? [String: Any]) ?? [:]).keys.sorted()

    static func example(_ formID: String) throws -> Example {
        let example = exampleFile()
        let attestations = try #require(example["attestations"] as? [String: [String: Any]])
        let entry = try #require(attestations[formID])
        let person = try #require(example["person"] as? [String: String])
        let form = try Fixture.form(formID)
        let factsData = try Data(
            contentsOf: directory.appendingPathComponent("\(try #require(entry["facts"] as? String))/facts.json"))
        let facts = try #require(try JSONSerialization.jsonObject(with: factsData) as? [String: Any])
        func instant(_ key: String) throws -> (date: Date, day: String, time: String) {
            let text = try #require(entry[key] as? String)
            let date = try #require(FormCalendar.Entry.start(parsing: text))
            let local = LocalDateTime(date, in: .paris)
            return (date, local.date.description, local.time)
        }
        let created = try instant("created")
        let exit = try instant("exit")
        let identity = try Identity(
            firstName: person["firstname"]!, lastName: person["lastname"]!, birthDate: person["birthday"]!,
            birthPlace: "", address: person["address"]!, zipCode: person["zipcode"]!, city: person["city"]!,
            today: LocalDateTime(created.date, in: .paris).date, birthPlaceOptional: true)
        let minutes = Int(exit.date.timeIntervalSince(created.date) / 60)
        let reasons = try #require(entry["reasons"] as? [String])
        let attestation = try Attestation(
            identity: identity, form: form, reasonCodes: reasons, exit: .offset(minutes: minutes),
            timeZone: .paris, now: created.date)
        return Example(
            form: form, attestation: attestation, facts: facts,
            printed: try #require(example["printed"] as? [String: String]), reasons: reasons,
            exit: (exit.day, exit.time), created: (created.day, created.time))
    }

    /// Words of page 1 with the top-left corner of each, as `pdftotext -bbox` reads them.
    static func placedWords(_ path: String, in directory: URL) throws -> [(word: String, x: Double, y: Double)] {
        let xhtml = try Tool.run("pdftotext", ["-bbox", "-f", "1", "-l", "1", path, "-"], in: directory).text
        return xhtml.matches(of: /<word xMin="([0-9.]+)" yMin="([0-9.]+)"[^>]*>([^<]*)<\/word>/).map {
            (String($0.3).replacingOccurrences(of: "&amp;", with: "&"), Double($0.1)!, Double($0.2)!)
        }
    }

    /// Every word of the reference is on our page 1, at its place within 1 point: the fixed
    /// text, the values after their labels ("Nom et prénom : Helene Dupre", folded as the
    /// generator printed them), `[x]` for the chosen reasons and `[ ]` for the others.
    @Test(arguments: formIDs)
    func everyWordOfTheReferenceIsAtItsPlace(formID: String) throws {
        let example = try Self.example(formID)
        try withScratchDirectory { directory in
            let ours = try write(try Fixture.renderer().pdf(example.attestation), named: "ours.pdf", in: directory)
            let theirs = try Self.placedWords(example.reference.path, in: directory)
            var available = try Self.placedWords(ours, in: directory)
            #expect(theirs.count > 150, "\(theirs.count) words in the reference")
            var misplaced: [String] = []
            for word in theirs {
                if let index = available.firstIndex(where: {
                    $0.word == word.word && abs($0.x - word.x) <= 1 && abs($0.y - word.y) <= 1
                }) {
                    available.remove(at: index)
                } else {
                    misplaced.append("\(word.word) (\(word.x), \(word.y))")
                }
            }
            #expect(misplaced.isEmpty, "\(formID): not at their place on our page: \(misplaced)")
        }
    }

    /// Both QR codes hold the generator's text (`qrPayload` of the facts, from its
    /// `pdf-util.js`), with the values folded to ASCII as its `toAscii` did, byte for byte.
    @Test(arguments: formIDs)
    func bothQRCodesHoldTheGeneratorsText(formID: String) throws {
        let example = try Self.example(formID)
        let format = try #require(example.facts["qrPayload"] as? [String: Any])
        let lines = try #require(format["lines"] as? [String])
        let person = example.printed
        let values = [
            "creationDate": example.created.date,
            "creationTimeH": example.created.time.replacingOccurrences(of: ":", with: "h"),
            "lastName": person["lastname"]!, "firstName": person["firstname"]!, "birthDate": person["birthday"]!,
            "address": person["address"]!, "zipCode": person["zipcode"]!, "city": person["city"]!,
            "exitDate": example.exit.date, "exitTime": example.exit.time,
            "reasons": example.form.reasons.map(\.code).filter(example.reasons.contains).joined(separator: ", "),
        ]
        var payload = lines.map { line in
            values.reduce(line) { $0.replacingOccurrences(of: "{\($1.key)}", with: $1.value) }
        }.joined(separator: ";\n")
        payload += ";\n"
        #expect(!payload.contains("{"), "every placeholder of the facts filled: \(payload)")
        try withScratchDirectory { directory in
            let path = try write(try Fixture.renderer().pdf(example.attestation), named: "ours.pdf", in: directory)
            let check = try Tool.run("qpdf", ["--check", path], in: directory, accepting: [0, 2, 3])
            #expect(check.status == 0, "qpdf --check: \(check.text)")
            try Tool.run("pdftoppm", ["-r", "200", "-gray", path, "page"], in: directory)
            for page in ["page-1.pgm", "page-2.pgm"] {
                let read = try Tool.run("zbarimg", ["--raw", "-q", page], in: directory).text
                #expect(read == payload + "\n", "\(formID), \(page)")
            }
        }
    }

    /// Page 1 looks like the reference at 100 dpi, the logos and the fonts included: at most
    /// 0.1 % of the pixels (about 970) differ by more than a quarter of black, the rest being
    /// the antialiasing of letters placed to a hundredth of a point here and a thousandth
    /// there. The QR code is left out (the reference has none: zbarimg reads ours above).
    @Test(arguments: formIDs)
    func pageOneMatchesTheReferencePixelForPixel(formID: String) throws {
        let example = try Self.example(formID)
        try withScratchDirectory { directory in
            let path = try write(try Fixture.renderer().pdf(example.attestation), named: "ours.pdf", in: directory)
            let scale = 100.0 / 72
            let height = example.form.page.height
            let hidden = example.form.qrCodes.filter { $0.page == 1 }.flatMap { code in
                [
                    "-draw",
                    "rectangle \(Int(code.x * scale) - 2),\(Int((height - code.y - code.size) * scale) - 2) \(Int((code.x + code.size) * scale) + 2),\(Int((height - code.y) * scale) + 2)",
                ]
            }
            for (name, pdf) in [("ours", path), ("reference", example.reference.path)] {
                try Tool.run(
                    "pdftoppm", ["-r", "100", "-f", "1", "-l", "1", "-gray", pdf, name], in: directory)
            }
            try Tool.run("convert", ["ours-1.pgm", "-fill", "white"] + hidden + ["ours.pgm"], in: directory)
            let compare = try Tool.run(
                "compare", ["-metric", "AE", "-fuzz", "25%", "ours.pgm", "reference-1.pgm", "null:"], in: directory,
                accepting: [0, 1])
            let differing = try #require(Int(compare.stderr.trimmingCharacters(in: .whitespacesAndNewlines)))
            let size = try Tool.run("identify", ["-format", "%w %h", "reference-1.pgm"], in: directory).text
                .split(separator: " ").compactMap { Int($0) }
            #expect(size.count == 2 && differing * 1000 <= size[0] * size[1], "\(formID): \(differing) pixels apart")
        }
    }
}
