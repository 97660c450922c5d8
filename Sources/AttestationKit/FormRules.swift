/// What an attestation must obey of its form, apart from how the form is drawn: which reasons
/// it offers, how many one attestation holds, and what its QR code says. The form schema
/// (FormSchema's `Form.attestationRules`) gives one for each form.
public struct FormRules: Sendable, Hashable {
    /// The form's identifier, as in links (`deplacement-2020-11-28`).
    public let id: String
    /// The reasons a person may choose, in the order of the form.
    public let reasons: [ReasonChoice]
    public let selection: ReasonSelection
    public let qrPayload: QRPayloadFormat
    /// Whether the form prints the place of birth or its QR code holds it: when neither, an
    /// attestation of it needs none (the versions of April–June 2021).
    public let usesBirthPlace: Bool

    public init(
        id: String, reasons: [ReasonChoice], selection: ReasonSelection, qrPayload: QRPayloadFormat,
        usesBirthPlace: Bool = true
    ) {
        (self.id, self.reasons, self.selection, self.qrPayload) = (id, reasons, selection, qrPayload)
        self.usesBirthPlace = usesBirthPlace
    }

    public func reason(code: String) -> ReasonChoice? { reasons.first { $0.code == code } }
}

/// One reason a person may give for going out, as the attestation holds it.
public struct ReasonChoice: Sendable, Hashable, Identifiable {
    /// The code in links and in the QR payload, e.g. `travail`.
    public let code: String
    /// The number of the reason in lists: the form's, else its place in the form from 1.
    public let number: Int
    /// A few words for buttons and lists ("Santé"); forms without it show the code.
    public let shortLabel: String?
    /// The label as read, without footnote marks.
    public let label: String

    public init(code: String, number: Int, shortLabel: String?, label: String) {
        (self.code, self.number, self.shortLabel, self.label) = (code, number, shortLabel, label)
    }

    public var id: String { code }
}

/// How many reasons an attestation holds: one or more (check boxes), or exactly one (the
/// radio buttons of the first curfew form).
public enum ReasonSelection: String, Sendable, Hashable, CaseIterable, Codable {
    case oneOrMore, exactlyOne
}

/// The text of the QR code: lines with `{placeholders}`, joined by `separator`, with one more
/// separator at the end when `trailingSeparator` is set; the person's values folded to ASCII
/// unless `asciiFolding` is off.
public struct QRPayloadFormat: Sendable, Hashable {
    public let lines: [String]
    public let separator: String
    public let trailingSeparator: Bool
    public let asciiFolding: Bool

    public init(lines: [String], separator: String, trailingSeparator: Bool, asciiFolding: Bool = true) {
        (self.lines, self.separator, self.trailingSeparator, self.asciiFolding) = (
            lines, separator, trailingSeparator, asciiFolding
        )
    }

    /// The placeholders a line may use.
    public static let placeholders: Set<String> = FieldValues.placeholders

    /// What a QR code holds at most, in bytes: version 40 at correction level M (Rendering's
    /// QRMatrix) in byte mode.
    public static let maximumBytes = 2331

    /// The payload's size with every value at its longest and every reason chosen, scanned as
    /// `QRPayload` fills it: a form whose payload could not fit would fail at every request
    /// instead of at load time.
    package func longestBytes(reasonCodes: [String]) -> Int {
        var total = separator.utf8.count * max(0, lines.count - 1 + (trailingSeparator ? 1 : 0))
        for line in lines {
            var rest = Substring(line)
            while let open = rest.firstIndex(of: "{"), let close = rest[open...].firstIndex(of: "}") {
                total +=
                    rest[..<open].utf8.count
                    + Self.longestValue(String(rest[rest.index(after: open)..<close]), reasonCodes: reasonCodes)
                rest = rest[rest.index(after: close)...]
            }
            total += rest.utf8.count
        }
        return total
    }

    /// `Identity.maximumQRBytes` bounds each free-text value folded to ASCII; unfolded, a value
    /// is written only when Windows-1252 can, at most 3 bytes a character, within it too.
    private static func longestValue(_ name: String, reasonCodes: [String]) -> Int {
        switch name {
        case "creationDate", "exitDate", "birthDate": 10  // 28/11/2020
        case "creationTime", "creationTimeH", "exitTime", "exitTimeH", "zipCode": 5  // 08:15, 08h15, 75001
        case "lastName": Identity.maximumQRBytes(.lastName)
        case "firstName": Identity.maximumQRBytes(.firstName)
        case "birthPlace": Identity.maximumQRBytes(.birthPlace)
        case "address": Identity.maximumQRBytes(.address)
        case "city": Identity.maximumQRBytes(.city)
        case "reasons": reasonCodes.map(\.utf8.count).reduce(0, +) + 2 * max(0, reasonCodes.count - 1)
        default: 0
        }
    }
}
