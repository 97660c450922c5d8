import AttestationKit
import FormSchema
import Foundation
import TestSupport
import Testing

@testable import Rendering

/// A mark that replaces a reason's box text (`markReplacesBox`): the generators of April–June
/// 2021 wrote `[x]` in place of `[ ]`, where a mark drawn over the box gives `[x]]`.
@Suite("A mark replacing the box")
struct ReplacingMarkTests {
    /// The form of UnknownVersionFormTests, its boxes `[ ]` and its mark `[x]` at the box's place.
    static func form(replacing: Bool = true) throws -> Form {
        let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("UnknownVersion/attestation-2021-05-19.json")
        var json = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any])
        json["id"] = "marque-remplace"
        editObject(&json, "reasonLayout") { layout in
            layout["markText"] = "[x]"
            layout["markFont"] = "Times-Roman"
            layout["markSize"] = 12
            layout["markX"] = 56
            layout["markReplacesBox"] = replacing
        }
        var catalog = FormCatalog.builtIn
        try catalog.add(json: try jsonData(json), source: "marque-remplace.json")
        return try #require(catalog.form(id: "marque-remplace"))
    }

    static func text(of form: Form, reasons: [String]) throws -> String {
        let attestation = try Attestation(
            identity: try Fixture.camille(), form: form, reasonCodes: reasons, exit: .now, timeZone: .paris,
            now: Fixture.now)
        let pdf = try AttestationRenderer(forms: [form]).pdf(attestation)
        return try withScratchDirectory { directory in
            let path = try write(pdf, named: "attestation.pdf", in: directory)
            return try Tool.run("pdftotext", ["-raw", path, "-"], in: directory).text
        }
    }

    @Test func aChosenReasonShowsTheMarkAndTheOthersTheirBox() throws {
        let form = try Self.form()
        #expect(form.reasonLayout.markReplacesBox)
        let codes = [form.reasons[0].code, form.reasons[2].code]
        let text = try Self.text(of: form, reasons: codes)
        #expect(text.components(separatedBy: "[x]").count - 1 == 2, "\(text)")
        #expect(text.components(separatedBy: "[ ]").count - 1 == form.printedReasons.count - 2, "\(text)")
        #expect(!text.contains("[x]]") && !text.contains("[[x]"), "\(text)")
        // One bracket pair a printed reason, no more.
        #expect(text.filter { $0 == "]" }.count == form.printedReasons.count, "\(text)")
    }

    @Test func withoutItTheMarkIsDrawnOverTheBox() throws {
        let form = try Self.form(replacing: false)
        let text = try Self.text(of: form, reasons: ["travail"])
        // The box and the mark both on the page, one over the other: what the key is for.
        #expect(text.filter { $0 == "]" }.count == form.printedReasons.count + 1, "\(text)")
    }

    @Test func theKeyNeedsATextBox() throws {
        let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("UnknownVersion/attestation-2021-05-19.json")
        var json = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any])
        editObject(&json, "reasonLayout") { layout in
            layout["box"] = "square"
            layout["boxText"] = nil
            layout["boxFont"] = nil
            layout["markReplacesBox"] = true
        }
        let error = #expect(throws: FormError.self) {
            try FormCatalog.decodeForm(try jsonData(json), source: "f.json")
        }
        #expect(try #require(error).path == "reasonLayout.markReplacesBox")
    }

    /// The page turns each mark and each box on or off (filled and compared pixel for pixel
    /// with the server's page in OfflineTemplateTests, for the built-in forms of 2021).
    @Test func theOfflineTemplateOfSuchAFormHasAMarkAndABoxForEachReason() throws {
        let form = try Self.form()
        let template = try AttestationRenderer(forms: [form]).offlineTemplate(
            identity: try Fixture.camille(), form: form, timeZone: .paris, now: Fixture.now)
        #expect(template.marks.map(\.code) == form.reasons.map(\.code))
        #expect(template.boxes.map(\.code) == form.reasons.map(\.code))
        for box in template.boxes { #expect(template.pdf[box.offset] == UInt8(ascii: "%"), "every reason chosen") }
    }
}
