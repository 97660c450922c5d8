import AttestationKit
import Foundation

/// A form's JSON document exactly as written, in either schema version, before any check:
/// what `StrictJSON` decodes (so any other key is refused) and what `Form` encodes back to.
///
/// Version 1 (no `schema` key, or `"schema": 1`) is the format of the November 2020 forms and
/// keeps loading unchanged; version 2 (`"schema": 2`) adds what the other official forms of
/// 2020–2021 need (docs/forms.md).
enum FormDocument {
    case version1(FormDocumentV1)
    case version2(FormDocumentV2)

    /// The version a document declares; a file without `schema` is version 1.
    static func version(of value: StrictJSON.JSONValue) throws(StrictJSON.Failure) -> Int {
        guard case .object = value else {
            throw StrictJSON.Failure(path: "", message: "un objet JSON est attendu ({ … }).")
        }
        guard let schema = value["schema"] else { return 1 }
        guard case .number(let text) = schema, let version = Int(text), (1...2).contains(version) else {
            throw StrictJSON.Failure(path: "schema", message: "version de schéma inconnue ; 1 ou 2 attendu.")
        }
        return version
    }
}

// MARK: - Version 1

struct FormDocumentV1: Codable {
    var schema: Int?
    var id: String
    var name: String
    var page: PageSize
    var metadata: DocumentMetadata
    var title: TextBlockV1
    var legalText: TextBlockV1
    var texts: [TextBlockV1]
    var fields: FieldsV1
    var reasons: [ReasonV1]
    var reasonLayout: ReasonLayoutV1
    var rules: [RuleV1]?
    var qrPayload: QRPayloadV1
    var qrCodes: [QRPlacement]
    var inForce: InForceDocument?

    struct TextBlockV1: Codable {
        var text: String
        var x: Double
        var y: Double
        var size: Double
        var style: String?
        var width: Double?
        var leading: Double?
        var align: String?
    }

    struct FieldsV1: Codable {
        var name: FieldSlotV1
        var birthDate: FieldSlotV1
        var birthPlace: FieldSlotV1
        var address: FieldSlotV1
        var city: FieldSlotV1
        var exitDate: FieldSlotV1
        var exitTime: FieldSlotV1
    }

    struct FieldSlotV1: Codable {
        var label: TextBlockV1?
        var x: Double
        var y: Double
        var maxWidth: Double
        var size: Double?
        var minSize: Double?
        var fitWidth: Double?
    }

    struct ReasonV1: Codable {
        var code: String
        var number: Int
        var shortLabel: String?
        var label: String
        var note: String?
        var y: Double
        var continues: [String]?
    }

    struct ReasonLayoutV1: Codable {
        var boxX: Double
        var boxDY: Double
        var boxSize: Double
        var markX: Double
        var markSize: Double
        var textX: Double
        var textDY: Double
        var textWidth: Double
        var textSize: Double
        var textLeading: Double
        var noteSize: Double
        var noteLeading: Double
        var noteGap: Double
    }

    /// A horizontal rule on page 1, as the November 2020 forms have them.
    struct RuleV1: Codable {
        var x: Double
        var y: Double
        var length: Double
        var dash: [Int]?
    }

    struct QRPayloadV1: Codable {
        var lines: [String]
        var separator: String
        var trailingSeparator: Bool
    }

    /// The keys of `fields` in version 1, in drawing order, with what each prints.
    static let fieldValues: [(key: String, value: String)] = [
        ("name", "{firstName} {lastName}"), ("birthDate", "{birthDate}"), ("birthPlace", "{birthPlace}"),
        ("address", "{address} {zipCode} {city}"), ("city", "{city}"), ("exitDate", "{exitDate}"),
        ("exitTime", "{exitTime}"),
    ]

    /// The same form in version 2, and how its JSON paths are named in version 1.
    func upgraded() -> (document: FormDocumentV2, pathAliases: [(version2: String, version1: String)]) {
        func block(_ old: TextBlockV1) -> TextBlockDocument {
            TextBlockDocument(
                text: RichTextDocument(old.text), x: old.x, y: old.y, size: old.size, style: old.style,
                width: old.width, leading: old.leading, align: old.align)
        }
        let slots = [
            fields.name, fields.birthDate, fields.birthPlace, fields.address, fields.city, fields.exitDate,
            fields.exitTime,
        ]
        let fieldDocuments = zip(Self.fieldValues, slots).map { entry, slot in
            FieldDocument(
                value: entry.value, label: slot.label.map(block), x: slot.x, y: slot.y, maxWidth: slot.maxWidth,
                size: slot.size, minSize: slot.minSize, fitWidth: slot.fitWidth)
        }
        let layout = reasonLayout
        let document = FormDocumentV2(
            schema: 2, id: id, name: name, page: page, metadata: metadata, title: block(title),
            legalText: block(legalText),
            texts: texts.map(block), fields: fieldDocuments,
            reasons: reasons.map {
                ReasonDocument(
                    code: $0.code, number: $0.number, shortLabel: $0.shortLabel, label: RichTextDocument($0.label),
                    note: $0.note.map(RichTextDocument.init), y: $0.y, continues: $0.continues)
            },
            reasonLayout: ReasonLayoutDocument(
                box: "square", boxX: layout.boxX, boxDY: layout.boxDY, boxSize: layout.boxSize, markX: layout.markX,
                markSize: layout.markSize, textX: layout.textX, textDY: layout.textDY, textWidth: layout.textWidth,
                textSize: layout.textSize, textLeading: layout.textLeading, noteSize: layout.noteSize,
                noteLeading: layout.noteLeading, noteGap: layout.noteGap, numbered: true),
            rules: rules?.map { RuleDocument(x: $0.x, y: $0.y, length: $0.length, dash: $0.dash) },
            qrPayload: QRPayloadDocument(
                lines: qrPayload.lines, separator: qrPayload.separator,
                trailingSeparator: qrPayload.trailingSeparator),
            qrCodes: qrCodes, inForce: inForce)
        let aliases = Self.fieldValues.enumerated().map { ("fields[\($0.offset)]", "fields.\($0.element.key)") }
        return (document, aliases)
    }
}

// MARK: - Version 2

struct FormDocumentV2: Codable {
    var schema: Int
    var id: String
    var name: String
    var page: PageSize
    var secondPage: PageSize?
    var laterPages: [PageSize]?
    var metadata: DocumentMetadata
    var title: TextBlockDocument
    var legalText: TextBlockDocument
    var texts: [TextBlockDocument]?
    var fields: [FieldDocument]
    var reasons: [ReasonDocument]
    var reasonLayout: ReasonLayoutDocument
    var selection: String?
    var contexts: [ContextDocument]?
    var foldPrintedValues: Bool?
    var rules: [RuleDocument]?
    var images: [ImageDocument]?
    var fonts: [FontDocument]?
    var qrPayload: QRPayloadDocument
    var qrCodes: [QRPlacement]
    var inForce: InForceDocument?
}

/// When a version came into force, and which context of its version a document is.
struct InForceDocument: Codable {
    /// Paris time, `YYYY-MM-DDTHH:MM`.
    var from: String
    /// Paris time: when no attestation was asked any more (the end of the calendar).
    var until: String?
    var context: String?
    var contextName: String?
    /// The hours this context covers (a document of one context of its version).
    var hours: HoursDocument?
    /// Where this context applies, when not everywhere.
    var area: String?
}

/// `{"from": "19:00", "until": "06:00", "days": [6, 7]}`: Paris time; `until` before `from`
/// for a period across midnight; `days`, ISO weekdays (1 Monday … 7 Sunday) a period starts on.
struct HoursDocument: Codable {
    var from: String
    var until: String
    var days: [Int]?
}

/// A TrueType font file beside the form, and the name its texts use.
struct FontDocument: Codable {
    var name: String
    var file: String
}

/// Text as a string, or as a list of strings and runs `{"text", "font", "size", "rise"}`.
struct RichTextDocument: Codable, Hashable {
    enum Part: Hashable {
        case plain(String)
        case run(RunDocument)
    }

    var parts: [Part]

    init(_ text: String) { parts = [.plain(text)] }
    init(parts: [Part]) { self.parts = parts }

    var isString: Bool { parts.count == 1 && { if case .plain = parts[0] { true } else { false } }() }

    init(from decoder: Decoder) throws {
        if let text = try? decoder.singleValueContainer().decode(String.self) {
            parts = [.plain(text)]
            return
        }
        let failure = StrictJSON.Failure(
            path: StrictJSON.render(decoder.codingPath),
            message: "texte attendu, ou liste de textes et de morceaux {\"text\", \"font\", \"size\", \"rise\"}.")
        guard var list = try? decoder.unkeyedContainer() else { throw failure }
        var parts: [Part] = []
        while !list.isAtEnd {
            if let text = try? list.decode(String.self) {
                parts.append(.plain(text))
            } else if let run = try? list.decode(RunDocument.self) {
                parts.append(.run(run))
            } else {
                // The element's own error names its key (a run without "text", a size as text).
                let element = try list.superDecoder()
                _ = try RunDocument(from: element)
                throw failure
            }
        }
        guard !parts.isEmpty else { throw failure }
        self.parts = parts
    }

    func encode(to encoder: Encoder) throws {
        if isString, case .plain(let text) = parts[0] {
            var container = encoder.singleValueContainer()
            try container.encode(text)
            return
        }
        var list = encoder.unkeyedContainer()
        for part in parts {
            switch part {
            case .plain(let text): try list.encode(text)
            case .run(let run): try list.encode(run)
            }
        }
    }
}

struct RunDocument: Codable, Hashable {
    var text: String
    var font: String?
    var size: Double?
    var rise: Double?
}

struct TextBlockDocument: Codable {
    var text: RichTextDocument
    var x: Double
    var y: Double
    var size: Double
    var style: String?
    var font: String?
    var width: Double?
    var leading: Double?
    var align: String?
    var color: String?
    var page: Int?
}

struct FieldDocument: Codable {
    var value: String
    var label: TextBlockDocument?
    var afterLabel: Bool?
    var x: Double?
    var y: Double?
    var maxWidth: Double
    var size: Double?
    var minSize: Double?
    var fitWidth: Double?
    var font: String?
    var page: Int?
}

struct ReasonDocument: Codable {
    var code: String
    var number: Int?
    var shortLabel: String?
    var label: RichTextDocument
    var note: RichTextDocument?
    var y: Double
    var textDY: Double?
    var boxDY: Double?
    var page: Int?
    var offered: Bool?
    var continues: [String]?
}

struct ReasonLayoutDocument: Codable {
    var box: String?
    var boxX: Double?
    var boxDY: Double?
    var boxSize: Double?
    var boxText: String?
    var boxFont: String?
    var markX: Double
    var markSize: Double
    var markFont: String?
    var markText: String?
    var textX: Double
    var textDY: Double
    var textWidth: Double
    var textSize: Double
    var textLeading: Double
    var textFont: String?
    var textAlign: String?
    var noteSize: Double?
    var noteLeading: Double?
    var noteGap: Double?
    var noteFont: String?
    var numbered: Bool?
    var boxInline: Bool?
    var markReplacesBox: Bool?
}

struct ContextDocument: Codable {
    var id: String
    var name: String?
    var reasons: [String]
    var hours: HoursDocument?
    var area: String?
}

struct RuleDocument: Codable {
    var page: Int?
    var x: Double
    var y: Double
    var length: Double
    var vertical: Bool?
    var thickness: Double?
    var dash: [Int]?
}

struct ImageDocument: Codable {
    var page: Int?
    var x: Double
    var y: Double
    var width: Double
    var height: Double
    var data: String?
    var file: String?
}

struct QRPayloadDocument: Codable {
    var lines: [String]
    var separator: String
    var trailingSeparator: Bool
    var asciiFolding: Bool?
}

// MARK: - A form written back

extension Form: Encodable {
    /// A form is written as the version 2 document it would be read from, every value explicit.
    public func encode(to encoder: Encoder) throws {
        try document.encode(to: encoder)
    }

    var document: FormDocumentV2 {
        FormDocumentV2(
            schema: 2, id: id, name: name, page: page, secondPage: laterPages.count == 1 ? laterPages[0] : nil,
            laterPages: laterPages.count > 1 ? laterPages : nil, metadata: metadata,
            title: title.document, legalText: legalText.document, texts: texts.map(\.document),
            fields: fields.map { slot in
                FieldDocument(
                    value: slot.value, label: slot.label?.document, afterLabel: slot.continuesLabel ? true : nil,
                    x: slot.continuesLabel ? nil : slot.x, y: slot.continuesLabel ? nil : slot.y,
                    maxWidth: slot.maxWidth,
                    size: slot.size, minSize: slot.minSize, fitWidth: slot.fitWidth, font: slot.font.rawValue,
                    page: slot.page == 1 ? nil : slot.page)
            },
            reasons: printedReasons.map { reason in
                ReasonDocument(
                    code: reason.code, number: reason.number, shortLabel: reason.shortLabel,
                    label: reason.labelText.document, note: reason.noteText?.document, y: reason.y,
                    textDY: reason.textDY, boxDY: reason.boxDY, page: reason.page == 1 ? nil : reason.page,
                    offered: reason.offered ? nil : false, continues: reason.continues.isEmpty ? nil : reason.continues)
            },
            reasonLayout: reasonLayout.document, selection: selection.rawValue,
            foldPrintedValues: foldsPrintedValues ? true : nil,
            rules: rules?.map { rule in
                RuleDocument(
                    page: rule.page == 1 ? nil : rule.page, x: rule.x, y: rule.y, length: rule.length,
                    vertical: rule.vertical ? true : nil,
                    thickness: rule.thickness == Rule.defaultThickness ? nil : rule.thickness, dash: rule.dash)
            },
            images: images.isEmpty
                ? nil
                : images.map {
                    ImageDocument(
                        page: $0.page == 1 ? nil : $0.page, x: $0.x, y: $0.y, width: $0.width, height: $0.height,
                        data: $0.fileName == nil ? Data($0.bytes).base64EncodedString() : nil, file: $0.fileName)
                },
            fonts: fonts.isEmpty ? nil : fonts.map { FontDocument(name: $0.name, file: $0.fileName) },
            qrPayload: QRPayloadDocument(
                lines: qrPayload.lines, separator: qrPayload.separator,
                trailingSeparator: qrPayload.trailingSeparator, asciiFolding: qrPayload.asciiFolding),
            qrCodes: qrCodes,
            inForce: inForce.map { inForce in
                func text(_ instant: Date) -> String {
                    let local = LocalDateTime(instant, in: .paris)
                    let day = local.date
                    return String(format: "%04d-%02d-%02dT", day.year, day.month, day.day) + local.time
                }
                return InForceDocument(
                    from: text(inForce.start), until: inForce.until.map(text), context: inForce.context,
                    contextName: inForce.contextName, hours: inForce.hours?.document, area: inForce.area)
            })
    }
}

extension RichText {
    var document: RichTextDocument {
        if isPlain { return RichTextDocument(text) }
        return RichTextDocument(
            parts: runs.map { run in
                run.isPlain
                    ? .plain(run.text)
                    : .run(
                        RunDocument(
                            text: run.text, font: run.font?.rawValue, size: run.size,
                            rise: run.rise == 0 ? nil : run.rise))
            })
    }
}

extension TextBlock {
    var document: TextBlockDocument {
        TextBlockDocument(
            text: content.document, x: x, y: y, size: size, font: font.rawValue, width: width, leading: leading,
            align: align?.rawValue, color: color?.hex, page: page == 1 ? nil : page)
    }
}

extension ReasonLayout {
    var document: ReasonLayoutDocument {
        ReasonLayoutDocument(
            box: box.rawValue, boxX: boxX, boxDY: boxDY, boxSize: boxSize, boxText: boxText, boxFont: boxFont.rawValue,
            markX: markX, markSize: markSize, markFont: markFont.rawValue, markText: markText, textX: textX,
            textDY: textDY,
            textWidth: textWidth, textSize: textSize, textLeading: textLeading, textFont: textFont.rawValue,
            textAlign: textAlign.rawValue, noteSize: noteSize, noteLeading: noteLeading, noteGap: noteGap,
            noteFont: noteFont.rawValue, numbered: numbered, boxInline: boxInline ? true : nil,
            markReplacesBox: markReplacesBox ? true : nil)
    }
}
