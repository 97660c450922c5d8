import AttestationKit
import Foundation
import TestSupport
import Testing

@testable import FormSchema

/// A change to a built-in form's JSON and the JSON path the error must name.
struct FormDefect: Sendable, CustomTestStringConvertible {
    let name: String
    let path: String
    var formID = Fixture.form1128ID
    let change: @Sendable (inout [String: Any]) -> Void

    var testDescription: String { name }
}

@Suite("Loading forms")
struct FormLoadingTests {
    /// The error of decoding `data`, or nil (and an issue) when it decodes: a missed error
    /// does not print the whole form.
    func decodingError(_ data: Data, source: String = "x.json") -> FormError? {
        do {
            _ = try FormCatalog.decodeForm(data, source: source)
            Issue.record("the form was accepted; a FormError was expected")
            return nil
        } catch {
            return error
        }
    }

    static let defects: [FormDefect] = [
        // Unknown keys, at the top and nested.
        FormDefect(name: "unknown top-level key", path: "foo") { $0["foo"] = 1 },
        FormDefect(name: "label misspelt next to label", path: "reasons[2].lable") { json in
            editElement(&json, "reasons", 2) { $0["lable"] = "Consultations" }
        },
        FormDefect(name: "unknown key in page", path: "page.depth") { json in
            editObject(&json, "page") { $0["depth"] = 1 }
        },
        FormDefect(name: "unknown key in a field label", path: "fields.city.label.colour") { json in
            editObject(&json, "fields") { fields in
                var city = fields["city"] as! [String: Any]
                var label = city["label"] as! [String: Any]
                label["colour"] = "red"
                city["label"] = label
                fields["city"] = city
            }
        },
        FormDefect(name: "unknown key in a QR placement", path: "qrCodes[1].rotation") { json in
            editElement(&json, "qrCodes", 1) { $0["rotation"] = 90 }
        },
        FormDefect(name: "unknown key in a text", path: "texts[0].font", formID: Fixture.form1102ID) { json in
            editElement(&json, "texts", 0) { $0["font"] = "Helvetica" }
        },
        FormDefect(name: "unknown key in a rule", path: "rules[3].dashes", formID: Fixture.form1102ID) { json in
            editElement(&json, "rules", 3) { $0["dashes"] = [1, 2] }
        },
        // Missing keys.
        FormDefect(name: "label misspelt instead of label", path: "reasons[2].label") { json in
            editElement(&json, "reasons", 2) { $0["lable"] = $0.removeValue(forKey: "label") }
        },
        FormDefect(name: "missing qrPayload", path: "qrPayload") { $0["qrPayload"] = nil },
        FormDefect(name: "missing id", path: "id") { $0["id"] = nil },
        FormDefect(name: "missing reasonLayout.markX", path: "reasonLayout.markX") { json in
            editObject(&json, "reasonLayout") { $0["markX"] = nil }
        },
        FormDefect(name: "missing fields.exitTime.y", path: "fields.exitTime.y") { json in
            editObject(&json, "fields") { fields in
                var slot = fields["exitTime"] as! [String: Any]
                slot["y"] = nil
                fields["exitTime"] = slot
            }
        },
        // Wrong types.
        FormDefect(name: "page width as text", path: "page.width") { json in
            editObject(&json, "page") { $0["width"] = "wide" }
        },
        FormDefect(name: "reason number as text", path: "reasons[0].number") { json in
            editElement(&json, "reasons", 0) { $0["number"] = "1" }
        },
        FormDefect(name: "trailingSeparator as text", path: "qrPayload.trailingSeparator") { json in
            editObject(&json, "qrPayload") { $0["trailingSeparator"] = "yes" }
        },
        FormDefect(name: "reasons as an object", path: "reasons") { $0["reasons"] = ["travail": 1] },
        FormDefect(name: "payload line as a number", path: "qrPayload.lines[1]") { json in
            editObject(&json, "qrPayload") { format in
                var lines = format["lines"] as! [Any]
                lines[1] = 42
                format["lines"] = lines
            }
        },
        FormDefect(name: "unknown font style", path: "title.style") { json in
            editObject(&json, "title") { $0["style"] = "oblique" }
        },
        // Reasons.
        FormDefect(name: "duplicate reason code", path: "reasons[3].code") { json in
            editElement(&json, "reasons", 3) { $0["code"] = "travail" }
        },
        FormDefect(name: "reason code with capitals", path: "reasons[1].code") { json in
            editElement(&json, "reasons", 1) { $0["code"] = "Achats" }
        },
        FormDefect(name: "reason code with a space", path: "reasons[4].code") { json in
            editElement(&json, "reasons", 4) { $0["code"] = "handicap moteur" }
        },
        FormDefect(name: "empty reason code", path: "reasons[0].code") { json in
            editElement(&json, "reasons", 0) { $0["code"] = "" }
        },
        FormDefect(name: "reason code starting with a digit", path: "reasons[8].code") { json in
            editElement(&json, "reasons", 8) { $0["code"] = "9enfants" }
        },
        FormDefect(name: "duplicate reason number", path: "reasons[4].number") { json in
            editElement(&json, "reasons", 4) { $0["number"] = 1 }
        },
        FormDefect(name: "no reason", path: "reasons") { $0["reasons"] = [Any]() },
        FormDefect(name: "reason above the page", path: "reasons[0].y") { json in
            editElement(&json, "reasons", 0) { $0["y"] = 900 }
        },
        // QR payload and codes.
        FormDefect(name: "unknown placeholder", path: "qrPayload.lines[3]") { json in
            editObject(&json, "qrPayload") { format in
                var lines = format["lines"] as! [String]
                lines[3] = "Naissance: {birthDate} a {foo}"
                format["lines"] = lines
            }
        },
        FormDefect(name: "placeholder with the wrong case", path: "qrPayload.lines[6]", formID: Fixture.form1102ID) {
            json in
            editObject(&json, "qrPayload") { format in
                var lines = format["lines"] as! [String]
                lines[6] = "Motifs: {Reasons}"
                format["lines"] = lines
            }
        },
        FormDefect(name: "QR code off the right edge", path: "qrCodes[0]") { json in
            editElement(&json, "qrCodes", 0) { $0["x"] = 550 }
        },
        FormDefect(name: "QR code off the top", path: "qrCodes[1]") { json in
            editElement(&json, "qrCodes", 1) { $0["y"] = 600 }
        },
        FormDefect(name: "QR code left of the page", path: "qrCodes[0]") { json in
            editElement(&json, "qrCodes", 0) { $0["x"] = -1 }
        },
        FormDefect(name: "QR code of size zero", path: "qrCodes[1]") { json in
            editElement(&json, "qrCodes", 1) { $0["size"] = 0 }
        },
        FormDefect(name: "QR code on page 9, beyond the last a form may have", path: "qrCodes[0].page") { json in
            editElement(&json, "qrCodes", 0) { $0["page"] = 9 }
        },
        FormDefect(name: "no QR code", path: "qrCodes") { $0["qrCodes"] = [Any]() },
        // Found by fuzzing (Tests/Fuzz/Corpus/form-json/qr-trop-long): a payload that cannot fit a
        // QR code with the longest values made every request fail instead of the load.
        FormDefect(name: "QR payload too long for a QR code", path: "qrPayload") { json in
            editObject(&json, "qrPayload") { format in
                format["lines"] = (format["lines"] as! [String]) + [String(repeating: "Adresse: {address} ", count: 6)]
            }
        },
        // Other checks.
        FormDefect(name: "id with capitals and spaces", path: "id") { $0["id"] = "Deplacement 2021" },
        FormDefect(name: "text left of the page", path: "texts[0].x") { json in
            editElement(&json, "texts", 0) { $0["x"] = -1 }
        },
        FormDefect(name: "field running off the page", path: "fields.name.maxWidth") { json in
            editObject(&json, "fields") { fields in
                var slot = fields["name"] as! [String: Any]
                slot["maxWidth"] = 1000
                fields["name"] = slot
            }
        },
        // Found by fuzzing (Tests/Fuzz/Corpus/form-json/page-immense): libharu refuses pages
        // outside 3 to 14,400 points, so such a form failed at every request.
        FormDefect(name: "page wider than a PDF page may be", path: "page") { json in
            editObject(&json, "page") { $0["width"] = 5.9e83 }
        },
        FormDefect(name: "page narrower than a PDF page may be", path: "page") { json in
            editObject(&json, "page") { $0["width"] = 2.5 }
        },
        FormDefect(name: "page of zero height", path: "page") { json in
            editObject(&json, "page") { $0["height"] = 0 }
        },
        // Found by fuzzing (seeds form-json/marque-1152, decalage-immense, largeur-immense): a mark
        // above libharu's font sizes failed at every request; a length near 1e17 overflowed the
        // renderer's integers and crashed the server loading the form.
        FormDefect(name: "check mark of font size 1152", path: "reasonLayout") { json in
            editObject(&json, "reasonLayout") { $0["markSize"] = 1152 }
        },
        FormDefect(name: "box moved by 1e300", path: "reasonLayout") { json in
            editObject(&json, "reasonLayout") { $0["boxDY"] = -1e300 }
        },
        FormDefect(name: "note gap taller than the page", path: "reasonLayout") { json in
            editObject(&json, "reasonLayout") { $0["noteGap"] = 900 }
        },
        FormDefect(name: "title wider than the page", path: "title") { json in
            editObject(&json, "title") { $0["width"] = 1e300 }
        },
        FormDefect(name: "legal text leading taller than the page", path: "legalText") { json in
            editObject(&json, "legalText") { $0["leading"] = 1e18 }
        },
        FormDefect(name: "city fitted to a width wider than the page", path: "fields.city.fitWidth") { json in
            editObject(&json, "fields") { fields in
                var slot = fields["city"] as! [String: Any]
                slot["fitWidth"] = 1e300
                fields["city"] = slot
            }
        },
        FormDefect(name: "title of font size 0", path: "title.size") { json in
            editObject(&json, "title") { $0["size"] = 0 }
        },
        // Issue 17: each of these passed `forms` and `mint`, then failed at every render (exit 1).
        FormDefect(name: "reasons 3 points apart", path: "reasons[3].y") { json in
            editElement(&json, "reasons", 3) { $0["y"] = 431 }
        },
        FormDefect(name: "fixed text outside Windows-1252", path: "texts[2].text") { json in
            editElement(&json, "texts", 2) { $0["text"] = "(Date et heure ☐ à mentionner obligatoirement)" }
        },
        FormDefect(name: "fixed text without a width running off the page", path: "texts[2].text") { json in
            editElement(&json, "texts", 2) {
                $0["text"] = String(repeating: "(Date et heure de début de sortie) ", count: 4)
            }
        },
    ]

    @Test(arguments: defects)
    func defectIsReportedAtItsPath(defect: FormDefect) throws {
        try check(defect)
    }

    /// A code or id is one line: the patterns must not let a final line break through
    /// (a reason code "travail\n" would split the "Motifs" line of the QR payload).
    static let lineBreakDefects: [FormDefect] = [
        FormDefect(name: "reason code ending with a line break", path: "reasons[0].code") { json in
            editElement(&json, "reasons", 0) { $0["code"] = "travail\n" }
        },
        FormDefect(name: "reason code ending with CR LF", path: "reasons[5].code") { json in
            editElement(&json, "reasons", 5) { $0["code"] = "sport_animaux\r\n" }
        },
        FormDefect(name: "id ending with a line break", path: "id") { $0["id"] = "deplacement-2021-04-03\n" },
    ]

    @Test(arguments: lineBreakDefects)
    func codeOrIdEndingWithALineBreakIsRefused(defect: FormDefect) throws {
        try check(defect)
    }

    func check(_ defect: FormDefect) throws {
        var json = try builtInJSONObject(defect.formID)
        defect.change(&json)
        let data = try jsonData(json)
        let formError: FormError
        do {
            _ = try FormCatalog.decodeForm(data, source: "broken.json")
            Issue.record("accepted a form with \(defect.name); expected a FormError at \(defect.path)")
            return
        } catch {
            formError = error
        }
        #expect(formError.path == defect.path)
        #expect(formError.source == "broken.json")
        #expect(formError.description.hasPrefix("broken.json, \(defect.path) : "))
        #expect(!formError.message.isEmpty)
    }

    @Test(arguments: [Fixture.form1128ID, Fixture.form1102ID])
    func builtInPayloadFitsWithTheLongestValues(id: String) throws {
        let form = try #require(FormCatalog.builtIn.form(id: id))
        let longest = form.qrPayload.longestBytes(reasonCodes: form.reasons.map(\.code))
        #expect(longest <= QRPayloadFormat.maximumBytes, "\(longest) bytes")
    }

    @Test func longestBytesBoundsTheRealPayload() throws {
        // Every field at its longest in characters, every reason: the bound exceeds the real
        // payload by exactly the ASCII allowance the names leave unused.
        let fields: [Identity.Field] = [.firstName, .lastName, .birthPlace, .address, .city]
        func longest(_ field: Identity.Field) -> String {
            String(repeating: "a", count: Identity.maximumLengths[field]!)
        }
        let identity = try Identity(
            firstName: longest(.firstName), lastName: longest(.lastName), birthDate: "01/01/1970",
            birthPlace: longest(.birthPlace), address: longest(.address), zipCode: "75001", city: longest(.city),
            today: Fixture.today)
        let form = FormCatalog.builtIn.defaultForm
        let attestation = try Attestation(
            identity: identity, form: form, reasonCodes: form.reasons.map(\.code),
            now: instant("2020-11-28T08:15:00Z"))
        let unused = fields.map { Identity.maximumQRBytes($0) - Identity.maximumLengths[$0]! }.reduce(0, +)
        #expect(
            QRPayload(attestation).bytes.count + unused
                == form.qrPayload.longestBytes(reasonCodes: form.reasons.map(\.code)))
    }

    @Test func unknownPlaceholderMessageNamesIt() throws {
        var json = try builtInJSONObject(Fixture.form1128ID)
        editObject(&json, "qrPayload") { format in
            var lines = format["lines"] as! [String]
            lines[3] = "Naissance: {birthDate} a {foo}"
            format["lines"] = lines
        }
        let message = try #require(decodingError(try jsonData(json))).message
        #expect(message.contains("{foo}"))
        #expect(message.contains("{birthPlace}"))  // lists the accepted ones
    }

    @Test func unknownKeyMessageSaysSo() throws {
        var json = try builtInJSONObject(Fixture.form1128ID)
        editElement(&json, "reasons", 2) { $0["lable"] = "x" }
        #expect(try #require(decodingError(try jsonData(json))).message.contains("inconnue"))
    }

    @Test(arguments: ["", "{", "[]", "null", "\"form\"", "{\"id\": }"])
    func unreadableDocumentIsAFormError(text: String) throws {
        let formError = try #require(decodingError(Data(text.utf8), source: "bad.json"))
        #expect(formError.source == "bad.json")
        #expect(formError.description.hasPrefix("bad.json"))
    }

    @Test func explicitNullForAnOptionalIsAccepted() throws {
        var json = try builtInJSONObject(Fixture.form1128ID)
        editElement(&json, "reasons", 2) { $0["note"] = NSNull() }
        json["rules"] = NSNull()
        let form = try FormCatalog.decodeForm(try jsonData(json), source: "x.json")
        try #require(form.reasons.count == 9)
        #expect(form.reasons[2].note == nil)
        #expect(form.rules == nil)
    }

    // MARK: FormCatalog.add

    @Test(arguments: [Fixture.form1128ID, Fixture.form1102ID])
    func addingABuiltInFormAgainIsRefused(id: String) throws {
        var catalog = FormCatalog.builtIn
        let data = try jsonData(try builtInJSONObject(id))
        let error = #expect(throws: FormError.self) { try catalog.add(json: data, source: "copy.json") }
        let formError = try #require(error)
        #expect(formError.path == "id")
        #expect(formError.source == "copy.json")
        #expect(formError.message.contains(id))
        #expect(catalog.forms.count == FormCatalog.builtIn.forms.count)
    }

    static func thirdForm() throws -> Data {
        var json = try builtInJSONObject(Fixture.form1128ID)
        json["id"] = "deplacement-2021-04-03"
        json["name"] = "Attestation de déplacement, version du 3 avril 2021"
        editElement(&json, "reasons", 5) { $0["code"] = "sport" }
        return try jsonData(json)
    }

    @Test func addingANewFormAppendsIt() throws {
        var catalog = FormCatalog.builtIn
        try catalog.add(json: try Self.thirdForm(), source: "avril.json")
        #expect(catalog.forms.map(\.id) == FormCatalog.builtIn.forms.map(\.id) + ["deplacement-2021-04-03"])
        let added = try #require(catalog.form(id: "deplacement-2021-04-03"))
        #expect(added.name == "Attestation de déplacement, version du 3 avril 2021")
        #expect(
            added.reasons.map(\.code) == [
                "travail", "achats_culturel_cultuel", "sante", "famille", "handicap",
                "sport", "convocation", "missions", "enfants",
            ])
        #expect(catalog.defaultFormID == Fixture.form1128ID)
        #expect(catalog.defaultForm.id == Fixture.form1128ID)
        // The shared built-in catalog is a value: it is unchanged.
        #expect(FormCatalog.builtIn.forms.count == 17)

        // The added form makes attestations.
        let attestation = try Attestation(
            identity: try RawIdentity().make(), form: added, reasonCodes: ["sport", "travail"],
            now: instant("2020-11-28T07:15:00Z"))
        #expect(QRPayload(attestation).text.hasSuffix("Motifs: travail, sport;\n"))

        // Added twice: refused the second time.
        let error = #expect(throws: FormError.self) {
            try catalog.add(json: try Self.thirdForm(), source: "avril2.json")
        }
        #expect(try #require(error).path == "id")
        #expect(catalog.forms.count == FormCatalog.builtIn.forms.count + 1)
    }

    @Test func aBrokenFormIsNotAdded() throws {
        var catalog = FormCatalog.builtIn
        var json = try builtInJSONObject(Fixture.form1128ID)
        json["id"] = "deplacement-2021-04-03"
        json["extra"] = true
        let error = #expect(throws: FormError.self) { try catalog.add(json: try jsonData(json), source: "x.json") }
        #expect(try #require(error).path == "extra")
        #expect(catalog.forms.count == FormCatalog.builtIn.forms.count)
        #expect(catalog.form(id: "deplacement-2021-04-03") == nil)
    }
}
