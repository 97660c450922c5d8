import AttestationKit
import Foundation
import Testing

@testable import Rendering

/// The form schema grew a version 2 (issue 17); the forms written in version 1, the built-in
/// ones first, must still draw exactly as before. The PDFs in `Compatibility/` were rendered by
/// main's `attestation-admin render` before the schema changed, for the same people, reasons
/// (travail, sante) and instant (`TZ=UTC faketime '@2020-11-28 07:15:00'`, 08:15 in Paris).
/// Written again since, when the QR code's image went from CCITT to deflate, and when deflate
/// got a window the size of its input: only compressed streams and their lengths changed, each
/// stream decoding to the same bytes (`qpdf --show-object --filtered-stream-data` of every
/// object), both pages at 150 dpi the same pixels (`pdftoppm`, ImageMagick `compare`).
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

    @Test("a built-in form of version 1 draws the same bytes as before version 2", arguments: cases)
    func aVersionOneFormDrawsTheSameBytesAsBefore(name: String) throws {
        let person = try #require(Self.people.first { name.hasSuffix("-\($0.name)") })
        let formID = String(name.dropLast(person.name.count + 1))
        let pdf = try Fixture.renderer().pdf(try Fixture.attestation(try person.make(), formID: formID))
        let expected = try [UInt8](Data(contentsOf: Self.directory.appendingPathComponent("\(name).pdf")))
        #expect(pdf == expected, "\(name): \(pdf.count) bytes, \(expected.count) before")
    }
}
