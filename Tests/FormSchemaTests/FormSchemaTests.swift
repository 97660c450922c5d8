import AttestationKit
import Foundation
import TestSupport
import Testing

@testable import FormSchema

/// The worked example of docs/forms.md, as a JSON object.
func documentedExample() throws -> [String: Any] {
    let docs = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
        .appendingPathComponent("docs/forms.md")
    let text = try String(contentsOf: docs, encoding: .utf8)
    let section = try #require(text.range(of: "## A complete example"))
    let start = try #require(text.range(of: "```json\n", range: section.upperBound..<text.endIndex))
    let end = try #require(text.range(of: "\n```", range: start.upperBound..<text.endIndex))
    return try #require(
        try JSONSerialization.jsonObject(with: Data(text[start.upperBound..<end.lowerBound].utf8)) as? [String: Any])
}

/// A change to the documented example and the JSON path its error must name.
struct SchemaDefect: Sendable, CustomTestStringConvertible {
    let name: String
    let path: String
    var message = ""
    let change: @Sendable (inout [String: Any]) -> Void
    var testDescription: String { name }
}

@Suite("Form schema version 2")
struct FormSchemaTests {
    @Test func theDocumentedExampleLoadsAndIsDrawnByThisServer() throws {
        let form = try FormCatalog.decodeForm(try jsonData(try documentedExample()), source: "sortie.json")
        #expect(form.id == "sortie-exemple-2021")
        #expect(form.awaitingRenderer.isEmpty, "\(form.awaitingRenderer)")
        #expect(form.selection == .exactlyOne)
        #expect(form.reasons.map(\.number) == [1, 2, 3])
        #expect(
            form.reasons.map(\.printedLabel).first
                == "1. Déplacements entre le domicile et le lieu d’exercice de l’activité professionnelle.")
        #expect(form.fields.map(\.value).contains("{zipCode} {city}"))
        var catalog = FormCatalog.builtIn
        try catalog.add(json: try jsonData(try documentedExample()), source: "sortie.json")
        #expect(catalog.form(id: "sortie-exemple-2021") == form)
    }

    /// A form is written back as a version 2 document that reads the same, for every built-in
    /// form, pending ones included.
    @Test func everyBuiltInFormWrittenBackReadsTheSame() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        for form in FormCatalog.builtIn.forms + FormCatalog.builtIn.pendingForms {
            let again = try FormCatalog.decodeForm(try encoder.encode(form), source: "again.json")
            #expect(again == form, "\(form.id)")
        }
    }

    @Test func exactlyOneReasonIsEnforced() throws {
        let form = try FormCatalog.decodeForm(try jsonData(try documentedExample()), source: "sortie.json")
        let error = #expect(throws: AttestationError.self) {
            try Attestation(
                identity: try RawIdentity().make(), form: form, reasonCodes: ["travail", "sante"],
                now: instant("2021-04-01T10:00:00Z"))
        }
        #expect(try #require(error).description.contains("un seul motif"))
    }

    @Test func zipCodeAndCityOnTheirOwnLine() throws {
        let form = try FormCatalog.decodeForm(try jsonData(try documentedExample()), source: "sortie.json")
        let attestation = try Attestation(
            identity: try RawIdentity().make(), form: form, reasonCodes: ["sante"],
            now: instant("2021-04-01T10:17:00Z"))
        #expect(
            form.fields.map { attestation.text(of: $0) } == [
                "Jean Dupont", "01/01/1970", "999 avenue de France", "75001 Paris", "Paris", "01/04/2021", "12:17",
            ])
    }

    static let defects: [SchemaDefect] = [
        SchemaDefect(
            name: "justify where version 1 could not say it; a clean message", path: "title.align",
            message: "valeur « middle » inconnue ; acceptées : left, center, right, justify."
        ) { json in
            editObject(&json, "title") { $0["align"] = "middle" }
        },
        SchemaDefect(name: "a font that is not a standard one", path: "texts[0].font", message: "Times-Roman") { json in
            editElement(&json, "texts", 0) { $0["font"] = "Arial" }
        },
        SchemaDefect(name: "style and font together", path: "texts[0].style") { json in
            editElement(&json, "texts", 0) {
                $0["style"] = "bold"
                $0["font"] = "Times-Roman"
            }
        },
        SchemaDefect(
            name: "fixed text outside Windows-1252 in a standard font", path: "texts[1].text", message: "U+25A1"
        ) { json in
            editElement(&json, "texts", 1) { $0["text"] = "□ certifie" }
        },
        SchemaDefect(
            name: "text without a width running off the page", path: "texts[2].text", message: "sort de la page"
        ) { json in
            editElement(&json, "texts", 2) { $0["text"] = String(repeating: "obligatoirement ", count: 8) }
        },
        SchemaDefect(name: "a word wider than its block", path: "legalText.text", message: "dépasse width") { json in
            editObject(&json, "legalText") { $0["width"] = 40 }
        },
        SchemaDefect(name: "a number of -1", path: "reasons[0].number") { json in
            editElement(&json, "reasons", 0) { $0["number"] = -1 }
        },
        SchemaDefect(name: "reasons whose boxes overlap", path: "reasons[1].y") { json in
            editElement(&json, "reasons", 1) {
                $0["y"] = 586
                $0["label"] = "Santé."
            }
            editObject(&json, "reasonLayout") {
                $0["textX"] = 400
                $0["textWidth"] = 150
            }
        },
        SchemaDefect(name: "a reason's label over the previous one", path: "reasons[1].y", message: "chevauche") {
            json in
            editElement(&json, "reasons", 1) { $0["y"] = 584 }
        },
        SchemaDefect(name: "a square box of size 0", path: "reasonLayout") { json in
            editObject(&json, "reasonLayout") { $0["boxSize"] = 0 }
        },
        SchemaDefect(name: "a text box without its text", path: "reasonLayout.boxText") { json in
            editObject(&json, "reasonLayout") { $0["box"] = "text" }
        },
        SchemaDefect(name: "a field without a placeholder", path: "fields[1].value") { json in
            editElement(&json, "fields", 1) { $0["value"] = "01/01/1970" }
        },
        SchemaDefect(name: "a field with an unknown placeholder", path: "fields[3].value", message: "{zipCity}") {
            json in
            editElement(&json, "fields", 3) { $0["value"] = "{zipCity}" }
        },
        SchemaDefect(name: "an unknown key in a run", path: "texts[0].text[1].colour") { json in
            editElement(&json, "texts", 0) { $0["text"] = ["Je soussigné", ["text": "e", "colour": "red"]] }
        },
        SchemaDefect(name: "a run rising more than the size", path: "texts[0].text[1].rise") { json in
            editElement(&json, "texts", 0) { $0["text"] = ["Je soussigné", ["text": "1", "rise": 30]] }
        },
        SchemaDefect(name: "a colour that is not #rrggbb", path: "texts[0].color") { json in
            editElement(&json, "texts", 0) { $0["color"] = "white" }
        },
        SchemaDefect(name: "a context offering an unknown reason", path: "contexts[0].reasons[1]") { json in
            json["contexts"] = [["id": "soir", "reasons": ["travail", "promenade"]]]
        },
        SchemaDefect(name: "an image that is not base64", path: "images[0].data") { json in
            json["images"] = [["x": 10, "y": 10, "width": 50, "height": 50, "data": "pas une image"]]
        },
        SchemaDefect(name: "an image that is not PNG or JPEG", path: "images[0].data", message: "PNG ou JPEG") { json in
            json["images"] = [
                ["x": 10, "y": 10, "width": 50, "height": 50, "data": Data("GIF89a".utf8).base64EncodedString()]
            ]
        },
        SchemaDefect(name: "a second page too small", path: "secondPage") { json in
            json["secondPage"] = ["width": 1, "height": 841.89]
        },
        SchemaDefect(name: "an unknown schema version", path: "schema") { json in json["schema"] = 3 },
        SchemaDefect(name: "a version 2 file read as version 1", path: "fields", message: "objet attendu") { json in
            json["schema"] = nil
        },
        SchemaDefect(name: "an unknown selection", path: "selection", message: "oneOrMore, exactlyOne") { json in
            json["selection"] = "two"
        },
    ]

    @Test(arguments: defects)
    func aDefectIsReportedAtItsPath(defect: SchemaDefect) throws {
        var json = try documentedExample()
        defect.change(&json)
        let data = try jsonData(json)
        do {
            _ = try FormCatalog.decodeForms(data, source: "sortie.json")
            Issue.record("accepted: \(defect.name)")
        } catch {
            #expect(error.path == defect.path, "\(error)")
            #expect(defect.message.isEmpty || error.message.contains(defect.message), "\(error)")
            #expect(error.description.hasPrefix("sortie.json, \(defect.path) : "))
            for swift in ["Cannot initialize", "Swift", "Optional", "Array<", "Dictionary<"] {
                #expect(!error.description.contains(swift), "\(error)")
            }
        }
    }

    /// The place of a problem in the file, for an administrator's editor.
    @Test func anErrorGivesItsLineAndColumn() throws {
        let text = try String(decoding: jsonData(try documentedExample()), as: UTF8.self)
            .replacingOccurrences(of: "\"shortLabel\":\"Santé\"", with: "\"shortLable\":\"Santé\"")
        // JSONSerialization writes one line: the column says where.
        let error = #expect(throws: FormError.self) {
            try FormCatalog.decodeForms(Data(text.utf8), source: "sortie.json")
        }
        let formError = try #require(error)
        #expect(formError.path.hasSuffix(".shortLable"))
        #expect(formError.line == 1)
        #expect(formError.column.map { text.prefix($0 - 1).hasSuffix("{") || text.prefix($0).hasSuffix("\"") } == true)
        #expect(formError.description.contains("(ligne 1, colonne"))
    }

    @Test func aFormTheRendererCannotDrawYetIsRefusedByTheCatalog() throws {
        var json = try documentedExample()
        editObject(&json, "title") { $0["font"] = "Symbol" }
        let form = try FormCatalog.decodeForm(try jsonData(json), source: "sortie.json")
        #expect(form.awaitingRenderer.map(\.path) == ["title.font"])
        var catalog = FormCatalog.builtIn
        let error = #expect(throws: FormError.self) { try catalog.add(json: try jsonData(json), source: "sortie.json") }
        #expect(try #require(error).message.contains("pas encore dessiné par ce serveur"))
        #expect(catalog.form(id: "sortie-exemple-2021") == nil)
    }

    @Test func contextsMakeOneFormEach() throws {
        var json = try documentedExample()
        json["contexts"] = [
            ["id": "soir", "name": "le soir", "reasons": ["travail"]],
            ["id": "jour", "reasons": ["travail", "sante", "famille"]],
        ]
        let forms = try FormCatalog.decodeForms(try jsonData(json), source: "sortie.json")
        #expect(forms.map(\.id) == ["sortie-exemple-2021-soir", "sortie-exemple-2021-jour"])
        #expect(forms[0].name.hasSuffix("(le soir)"))
        #expect(forms[0].reasons.map(\.code) == ["travail"])
        #expect(forms[0].printedReasons.count == 3)
        #expect(forms[0].printedReasons.map(\.offered) == [true, false, false])
        #expect(forms.allSatisfy { $0.awaitingRenderer.isEmpty })
        #expect(throws: AttestationError.self) {
            try Attestation(
                identity: try RawIdentity().make(), form: forms[0], reasonCodes: ["sante"],
                now: instant("2021-04-01T10:00:00Z"))
        }
    }

    @Test func aPNGImageIsReadWithItsSize() throws {
        // A 1 × 1 PNG.
        let png = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=="
        var json = try documentedExample()
        json["images"] = [["x": 56, "y": 790, "width": 30, "height": 30, "data": png]]
        let form = try FormCatalog.decodeForm(try jsonData(json), source: "sortie.json")
        let image = try #require(form.images.first)
        #expect(image.format == .png && image.pixelWidth == 1 && image.pixelHeight == 1)
        // The renderer draws PNG pictures (RenderingTests, "Pictures drawn").
        #expect(form.awaitingRenderer.isEmpty)
    }

    /// Values as typed in the QR code of the forms before November 2020.
    @Test func asciiFoldingOffKeepsTheValuesAsTyped() throws {
        var json = try documentedExample()
        editObject(&json, "qrPayload") { $0["asciiFolding"] = false }
        let form = try FormCatalog.decodeForm(try jsonData(json), source: "sortie.json")
        let attestation = try Attestation(
            identity: try RawIdentity(firstName: "Hélène").make(), form: form,
            reasonCodes: ["sante"], now: instant("2021-04-01T10:17:00Z"))
        #expect(QRPayload(attestation).text.contains("Prenom: Hélène;\n"))
    }
}
