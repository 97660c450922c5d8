import AttestationKit
import Foundation
import TestSupport
import Testing

@testable import FormSchema

/// What a form written from docs/forms.md needs beyond two pages: pages 3 to 8 and their
/// sizes, rules on any page, vertical and of any thickness, a reason's box inline with its
/// label, values printed folded to ASCII, `\n` inside runs. All on the documented example.
@Suite("Pages, rules and inline boxes")
struct PagesRulesAndInlineBoxesTests {
    static func load(_ change: (inout [String: Any]) -> Void) throws -> Form {
        var json = try documentedExample()
        change(&json)
        return try FormCatalog.decodeForm(try jsonData(json), source: "sortie.json")
    }

    static func refusal(_ change: (inout [String: Any]) -> Void) throws -> FormError {
        try #require(throws: FormError.self) { _ = try load(change) }
    }

    @Test func thingsOnPageThreeMakeAThreePageForm() throws {
        let form = try Self.load { json in
            editElement(&json, "qrCodes", 1) { $0["page"] = 3 }
            editElement(&json, "texts", 0) { $0["page"] = 2 }
        }
        #expect(form.pageCount == 3)
        #expect(form.qrCodes.map(\.page) == [1, 3])
        #expect(try Self.load { _ in }.pageCount == 2)
    }

    @Test(arguments: ["texts[0]", "fields[0]", "reasons[0]", "qrCodes[1]", "rules[0]"])
    func aPageBeyondTheEighthIsRefusedNamingItsPathAndTheRange(element: String) throws {
        let key = String(element.prefix { $0 != "[" })
        let index = Int(element.dropFirst(key.count + 1).dropLast())!
        let error = try Self.refusal { json in
            json["rules"] = [["x": 56, "y": 300, "length": 100]]
            editElement(&json, key, index) { $0["page"] = 9 }
        }
        #expect(error.path == "\(element).page")
        #expect(error.message.contains("de 1 à 8"), "\(error.message)")
    }

    @Test func laterPagesSizeEachPageAndTheLastSizeGoesOn() throws {
        let a5 = ["width": 419.53, "height": 595.28]
        let letter = ["width": 612.0, "height": 792.0]
        let form = try Self.load { json in
            json["laterPages"] = [a5, letter]
            editElement(&json, "qrCodes", 1) { $0["page"] = 4 }
        }
        #expect(form.size(ofPage: 1).width == 595.28)
        #expect(form.size(ofPage: 2).width == 419.53)
        #expect(form.size(ofPage: 3).width == 612)
        #expect(form.size(ofPage: 4).width == 612)
        #expect(form.pageCount == 4)
        let both = try Self.refusal { json in
            json["laterPages"] = [a5]
            json["secondPage"] = a5
        }
        #expect(both.path == "laterPages")
        let tooMany = try Self.refusal { json in json["laterPages"] = Array(repeating: a5, count: 8) }
        #expect(tooMany.path == "laterPages")
        #expect(tooMany.message.contains("de 1 à 7"), "\(tooMany.message)")
        // The big QR code, 300 points from y = 451.89, does not fit a page 2 of A5 (595 high).
        let offPage = try Self.refusal { json in json["laterPages"] = [a5] }
        #expect(offPage.path == "qrCodes[1]")
    }

    @Test func aRuleHasAPageAnOrientationAndAThickness() throws {
        let form = try Self.load { json in
            json["rules"] = [
                ["x": 56, "y": 300, "length": 100],
                ["page": 2, "x": 40, "y": 100, "length": 700, "vertical": true, "thickness": 2],
            ]
        }
        let rules = try #require(form.rules)
        #expect(rules[0].page == 1 && !rules[0].vertical && rules[0].thickness == 0.6)
        #expect(rules[1].page == 2 && rules[1].vertical && rules[1].thickness == 2)
        #expect(rules[1].end.x == 40 && rules[1].end.y == 800)
        let tooHigh = try Self.refusal { json in
            json["rules"] = [["x": 40, "y": 200, "length": 700, "vertical": true]]
        }
        #expect(tooHigh.path == "rules[0].length")
        #expect(tooHigh.message.contains("vers le haut"), "\(tooHigh.message)")
        for thickness in [0, 21] {
            let error = try Self.refusal { json in
                json["rules"] = [["x": 40, "y": 200, "length": 100, "thickness": thickness]]
            }
            #expect(error.path == "rules[0].thickness")
            #expect(error.message.contains("20"), "\(error.message)")
        }
    }

    /// The label's first line starts at textX after the box; the next lines come back to
    /// boxX and end where the first does, at textX + textWidth.
    @Test func anInlineBoxSitsAtTheStartOfItsLabelsFirstLine() throws {
        let form = try Self.load { json in
            editObject(&json, "reasonLayout") {
                $0["boxInline"] = true
                $0["textWidth"] = 250
            }
        }
        let layout = form.reasonLayout
        let reason = try #require(form.reason(code: "famille"))
        let (label, note) = layout.textBlocks(of: reason)
        let lines = label.lines
        try #require(lines.count >= 2, "the label wraps: \(lines.map(\.text))")
        #expect(lines[0].pieces[0].x == layout.textX)
        #expect(lines[1].pieces[0].x == layout.boxX)
        #expect(lines.allSatisfy { $0.pieces[0].x + $0.width <= layout.textX + layout.textWidth + 0.01 })
        // The same text without the box inline is narrower after its first line: more lines.
        let column = try Self.load { json in editObject(&json, "reasonLayout") { $0["textWidth"] = 250 } }
        let columnLines = column.reasonLayout.textBlocks(of: try #require(column.reason(code: "famille"))).label.lines
        #expect(columnLines[1].pieces[0].x == layout.textX)
        #expect(try #require(note).x == layout.boxX)
        let noBox = try Self.refusal { json in
            editObject(&json, "reasonLayout") {
                $0["boxInline"] = true
                $0["box"] = "none"
            }
        }
        #expect(noBox.path == "reasonLayout.boxInline")
    }

    @Test func aLineBreakInsideARunStartsANewLineInThatRunsFont() throws {
        let form = try Self.load { json in
            editElement(&json, "texts", 0) {
                $0["text"] = ["Fait le", ["text": " 17 mars\n2021", "font": "Helvetica-Bold"], " à Paris"]
            }
        }
        let lines = form.texts[0].lines
        #expect(lines.map(\.text) == ["Fait le 17 mars", "2021 à Paris"])
        #expect(lines[1].pieces.map(\.font) == [.standard(.helveticaBold), .helvetica])
        #expect(lines[1].pieces[0].x == form.texts[0].x)
        #expect(lines[1].baseline == form.texts[0].y - form.texts[0].lineHeight)
    }

    @Test func foldedPrintedValuesLoseTheirAccentsButNotTheFormsText() throws {
        let identity = try Identity(
            firstName: "Hélène", lastName: "Łukasiewicz", birthDate: "01/01/1970", birthPlace: "Besançon",
            address: "12 rue de l’Église", zipCode: "42000", city: "Saint-Étienne", today: Fixture.today)
        let folded = try Self.load { json in
            json["foldPrintedValues"] = true
            editElement(&json, "fields", 4) { $0["value"] = "Fait à {city}" }
        }
        let asTyped = try Self.load { json in editElement(&json, "fields", 4) { $0["value"] = "Fait à {city}" } }
        #expect(folded.foldsPrintedValues && !asTyped.foldsPrintedValues)
        func printed(_ form: Form) throws -> [String] {
            let attestation = try Attestation(
                identity: identity, form: form, reasonCodes: ["travail"],
                now: Date(timeIntervalSince1970: 1_606_554_000))
            return form.fields.map { attestation.text(of: $0) }
        }
        #expect(try printed(folded)[0] == "Helene Lukasiewicz")
        #expect(try printed(folded)[4] == "Fait à Saint-Etienne")
        #expect(try printed(asTyped)[0] == "Hélène Łukasiewicz")
    }

    /// Issue 29, item 11: the paper attestation of such a form printed the values as typed
    /// (« Saint-Étienne ») where the attestation prints them folded (« Saint-Etienne »).
    @Test func aPaperAttestationOfAFormThatFoldsPrintsTheValuesFoldedAsTheAttestationDoes() throws {
        let identity = try Identity(
            firstName: "Hélène", lastName: "Łukasiewicz", birthDate: "01/01/1970", birthPlace: "Besançon",
            address: "12 rue de l’Église", zipCode: "42000", city: "Saint-Étienne", today: Fixture.today)
        let folded = try Self.load { json in
            json["foldPrintedValues"] = true
            editElement(&json, "fields", 4) { $0["value"] = "Fait à {city}" }
        }
        let attestation = try Attestation(
            identity: identity, form: folded, reasonCodes: ["travail"], now: Date(timeIntervalSince1970: 1_606_554_000))
        let paper = PaperAttestation(identity: identity, form: folded)
        #expect(paper.text(of: folded.fields[0]) == "Helene Lukasiewicz")
        #expect(paper.text(of: folded.fields[4]) == "Fait à Saint-Etienne")
        for slot in folded.fields where PaperAttestation.isIdentityOnly(slot) {
            #expect(paper.text(of: slot) == attestation.text(of: slot), "\(slot.value)")
        }
        let asTyped = try Self.load { json in editElement(&json, "fields", 4) { $0["value"] = "Fait à {city}" } }
        #expect(
            PaperAttestation(identity: identity, form: asTyped).text(of: asTyped.fields[4]) == "Fait à Saint-Étienne")
    }

    @Test func aFormWritesBackItsPagesRulesAndOptions() throws {
        let form = try Self.load { json in
            json["laterPages"] = [["width": 419.53, "height": 595.28], ["width": 612.0, "height": 792.0]]
            json["foldPrintedValues"] = true
            json["rules"] = [["page": 2, "x": 40, "y": 100, "length": 300, "vertical": true, "thickness": 2]]
            editObject(&json, "reasonLayout") { $0["boxInline"] = true }
            editElement(&json, "qrCodes", 1) { $0["page"] = 3 }
        }
        let again = try FormCatalog.decodeForm(try JSONEncoder().encode(form), source: "again.json")
        #expect(again == form)
    }
}
