import AttestationKit
import FormSchema
import Foundation
import Testing

@testable import Rendering

/// The form schema grew a version 2 (issue 17); the forms written in version 1, the built-in
/// ones first, must still draw exactly as before. The PDFs in `Compatibility/` were rendered by
/// main's `attestation-admin render` before the schema changed, for the same people, reasons
/// (travail, sante) and instant (`TZ=UTC faketime '@2020-11-28 07:15:00'`, 08:15 in Paris).
/// Written again since, when the QR code's image went from CCITT to deflate, and when deflate
/// got a window the size of its input: only compressed streams and their lengths changed.
///
/// What is compared is what the documents hold, not their bytes: every object with its streams
/// decoded (`qpdf --qdf --stream-data=uncompress`), so that another zlib's deflate passes. Two
/// things are left out, each the work of a library of the system rather than of Rendering: the
/// file identifier (a digest of the bytes), and in the embedded Unicode font the `head` table's
/// checksums and dates, which HarfBuzz's subsetter writes otherwise in Debian 13's HarfBuzz 10
/// than in Debian 12's 6 (every other table of the subset is the same, glyphs included).
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

    @Test("a built-in form of version 1 draws the same objects as before version 2", arguments: cases)
    func aVersionOneFormDrawsTheSameObjectsAsBefore(name: String) throws {
        let person = try #require(Self.people.first { name.hasSuffix("-\($0.name)") })
        let formID = String(name.dropLast(person.name.count + 1))
        let pdf = try Fixture.renderer().pdf(try Fixture.attestation(try person.make(), formID: formID))
        let expected = try [UInt8](Data(contentsOf: Self.directory.appendingPathComponent("\(name).pdf")))
        try withScratchDirectory { directory in
            let now = try Self.objects(of: pdf, in: directory)
            let before = try Self.objects(of: expected, in: directory)
            #expect(now.count == before.count, "\(name): \(now.count) objects, \(before.count) before")
            for (index, (object, old)) in zip(now, before).enumerated() where object != old {
                Issue.record("\(name): object \(index + 1) differs once decoded: \(Self.head(object)) …")
            }
        }
    }

    @Test("the comparison sees a change of one drawn character, and a font table changed")
    func theComparisonSeesAChange() throws {
        let person = try Fixture.identity(first: "Łukasz", last: "Wałęsa", city: "Kraków")
        let renderer = try Fixture.renderer()
        let pdf = try renderer.pdf(try Fixture.attestation(person, formID: "deplacement-2020-11-28"))
        let other = try renderer.pdf(
            try Fixture.attestation(
                try Fixture.identity(first: "Łukasz", last: "Wałęsb", city: "Kraków"), formID: "deplacement-2020-11-28")
        )
        try withScratchDirectory { directory in
            let objects = try Self.objects(of: pdf, in: directory)
            #expect(objects == (try Self.objects(of: pdf, in: directory)))
            #expect(objects != (try Self.objects(of: other, in: directory)))
            // A byte of the font's glyphs, outside the head table, changes the decoded font.
            let font = try #require(objects.firstIndex { $0.contains(Array("/Length1".utf8)) })
            var changed = objects
            changed[font][changed[font].count - 40] ^= 0xFF
            #expect(changed != objects)
        }
    }

    /// The document's objects as qpdf decodes them, each from its `%% Original object ID`
    /// comment, less the file identifier, with the embedded font's `head` checksums and dates
    /// zeroed.
    static func objects(of pdf: [UInt8], in directory: URL) throws -> [[UInt8]] {
        let input = try write(pdf, named: "compared.pdf", in: directory)
        try Tool.run(
            "qpdf", ["--qdf", "--object-streams=disable", "--stream-data=uncompress", input, "decoded.pdf"],
            in: directory)
        let decoded = try [UInt8](Data(contentsOf: directory.appendingPathComponent("decoded.pdf")))
        let marker = Array("\n%% Original object ID:".utf8)
        var objects: [[UInt8]] = []
        var start = 0
        var index = 0
        while index + marker.count <= decoded.count {
            if decoded[index..<index + marker.count].elementsEqual(marker) {
                objects.append(Array(decoded[start..<index]))
                start = index
                index += marker.count
            } else {
                index += 1
            }
        }
        objects.append(Array(decoded[start...]))
        return objects.map { object in
            var lines = object.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).map(Array.init)
            lines.removeAll { $0.starts(with: Array("  /ID [".utf8)) }
            var result = Array(lines.joined(separator: [UInt8(ascii: "\n")]))
            if result.contains(Array("/Length1".utf8)) { zeroHeadChecksumsAndDates(in: &result) }
            return result
        }
    }

    /// In the TrueType program of a font object: the table directory's checksum of `head`, and
    /// in `head` the checksum adjustment and the created and modified dates (OpenType `head`).
    static func zeroHeadChecksumsAndDates(in object: inout [UInt8]) {
        let begin = Array("stream\n".utf8)
        guard
            let at = (0...(object.count - begin.count)).first(where: {
                object[$0..<$0 + begin.count].elementsEqual(begin)
            })
        else { return }
        let font = at + begin.count
        func u16(_ offset: Int) -> Int { Int(object[font + offset]) << 8 | Int(object[font + offset + 1]) }
        func u32(_ offset: Int) -> Int { u16(offset) << 16 | u16(offset + 2) }
        guard object.count > font + 12 else { return }
        for table in 0..<u16(4) where object.count >= font + 12 + 16 * (table + 1) {
            let entry = 12 + 16 * table
            guard object[(font + entry)..<(font + entry + 4)].elementsEqual(Array("head".utf8)) else { continue }
            let head = u32(entry + 8)
            guard object.count >= font + head + 36 else { return }
            for offset in Array(entry + 4..<entry + 8) + Array(head + 8..<head + 12) + Array(head + 20..<head + 36) {
                object[font + offset] = 0
            }
        }
    }

    static func head(_ object: [UInt8]) -> String {
        String(decoding: object.prefix(160), as: UTF8.self).replacingOccurrences(of: "\n", with: " ")
    }
}
