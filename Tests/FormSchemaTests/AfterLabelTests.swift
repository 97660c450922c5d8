import AttestationKit
import Foundation
import TestSupport
import Testing

@testable import FormSchema

/// A value that continues its label's line (`afterLabel`), as the generators of April–June 2021
/// wrote "Nom et prénom : Camille Dupont" as one text.
@Suite("A value after its label")
struct AfterLabelTests {
    /// The documented example, its first field's value placed after its label.
    static func json(_ change: (inout [String: Any]) -> Void = { _ in }) throws -> [String: Any] {
        var json = try documentedExample()
        editElement(&json, "fields", 0) { field in
            field["label"] = ["text": "Nom et prénom :", "x": 63, "y": 700, "size": 7.92]
            field["afterLabel"] = true
            field["size"] = 7.92
            field["x"] = nil
            field["y"] = nil
            change(&field)
        }
        return json
    }

    @Test func theValueStartsOneSpaceAfterTheLabelOnItsBaseline() throws {
        let form = try FormCatalog.decodeForm(try jsonData(try Self.json()), source: "f.json")
        let slot = form.fields[0]
        let label = try #require(WinAnsiText.encode("Nom et prénom : "))
        #expect(slot.continuesLabel)
        #expect(abs(slot.x - (63 + StandardFont.helvetica.width(label, size: 7.92))) < 0.001, "\(slot.x)")
        #expect(slot.y == 700)
    }

    @Test func xAndYAreNotGivenWithIt() throws {
        let json = try Self.json { $0["x"] = 100 }
        let error = #expect(throws: FormError.self) { try FormCatalog.decodeForm(try jsonData(json), source: "f.json") }
        #expect(try #require(error).path == "fields[0].afterLabel")
    }

    @Test func itNeedsALabel() throws {
        let json = try Self.json { $0["label"] = nil }
        let error = #expect(throws: FormError.self) { try FormCatalog.decodeForm(try jsonData(json), source: "f.json") }
        #expect(try #require(error).path == "fields[0].afterLabel")
    }

    @Test func withoutItXIsStillRequired() throws {
        let json = try Self.json { $0["afterLabel"] = nil }
        let error = #expect(throws: FormError.self) { try FormCatalog.decodeForm(try jsonData(json), source: "f.json") }
        #expect(try #require(error).path == "fields[0].x")
    }

    @Test func theFormWrittenBackKeepsIt() throws {
        let form = try FormCatalog.decodeForm(try jsonData(try Self.json()), source: "f.json")
        let again = try FormCatalog.decodeForm(try JSONEncoder().encode(form), source: "again.json")
        #expect(again.fields[0] == form.fields[0])
    }
}
