/// A version of the attestation form, entirely described by data: its texts, where they go on
/// the page, its reasons and the format of its QR code. The two official versions are built in
/// (`FormCatalog.builtIn`); an administrator adds another as a JSON file of the same shape.
public struct Form: Sendable, Hashable, Codable, Identifiable {
    /// Stable identifier used in links and on the command line, e.g. `deplacement-2020-11-28`.
    public let id: String
    /// A short human description for listings.
    public let name: String
    /// Page size in PDF points (A4 is 595.28 × 841.89).
    public let page: PageSize
    /// The PDF's document information.
    public let metadata: DocumentMetadata
    /// The heading, e.g. "ATTESTATION DE DÉPLACEMENT DÉROGATOIRE".
    public let title: TextBlock
    /// The decree the form applies, under the title.
    public let legalText: TextBlock
    /// Every other fixed text of the page: "Je soussigné(e)", the certification, notes, the
    /// mandatory mention, punctuation after the fields.
    public let texts: [TextBlock]
    /// Where each value of the person goes, with its label.
    public let fields: Fields
    /// The reasons, in the order of the form.
    public let reasons: [Reason]
    /// How reasons are drawn: check box, mark, label and note.
    public let reasonLayout: ReasonLayout
    /// Dotted or solid lines to write on, as the printed form has them.
    public let rules: [Rule]?
    /// The text the QR code holds.
    public let qrPayload: QRPayloadFormat
    /// Where the QR codes are drawn; page 2 is added when a code is placed on it.
    public let qrCodes: [QRPlacement]

    public func reason(code: String) -> Reason? { reasons.first { $0.code == code } }
}

public struct PageSize: Sendable, Hashable, Codable {
    public let width: Double
    public let height: Double
}

public struct DocumentMetadata: Sendable, Hashable, Codable {
    public let title: String
    public let subject: String
    public let keywords: String
}

/// A fixed text at a position. Without `width` it is one line; with it, it wraps to that
/// width (and `\n` forces a break).
public struct TextBlock: Sendable, Hashable, Codable {
    public let text: String
    /// Left edge of the block, in points from the left of the page.
    public let x: Double
    /// Baseline of the first line, in points from the bottom of the page.
    public let y: Double
    public let size: Double
    public let style: FontStyle?
    public let width: Double?
    /// Distance between baselines; defaults to 1.15 × size.
    public let leading: Double?
    public let align: Alignment?

    public enum Alignment: String, Sendable, Hashable, Codable { case left, center }

    public init(
        text: String, x: Double, y: Double, size: Double, style: FontStyle? = nil, width: Double? = nil,
        leading: Double? = nil, align: Alignment? = nil
    ) {
        (self.text, self.x, self.y, self.size, self.style) = (text, x, y, size, style)
        (self.width, self.leading, self.align) = (width, leading, align)
    }
}

public enum FontStyle: String, Sendable, Hashable, Codable { case regular, bold, italic }

/// The slots of the form that take the person's values.
public struct Fields: Sendable, Hashable, Codable {
    public let name: FieldSlot
    public let birthDate: FieldSlot
    public let birthPlace: FieldSlot
    public let address: FieldSlot
    /// The city after "Fait à".
    public let city: FieldSlot
    public let exitDate: FieldSlot
    public let exitTime: FieldSlot

    public var all: [(key: String, slot: FieldSlot)] {
        [("name", name), ("birthDate", birthDate), ("birthPlace", birthPlace), ("address", address),
         ("city", city), ("exitDate", exitDate), ("exitTime", exitTime)]
    }
}

/// Where a value is written. The text starts at `size` and shrinks, down to `minSize`, until it
/// fits `fitWidth` (the official generator's rule for the city); beyond that it may run on to
/// `maxWidth`, then shrinks further or wraps onto a second line, never off the page.
public struct FieldSlot: Sendable, Hashable, Codable {
    public let label: TextBlock?
    public let x: Double
    public let y: Double
    public let maxWidth: Double
    public let size: Double?
    public let minSize: Double?
    public let fitWidth: Double?
}

/// One reason to go out.
public struct Reason: Sendable, Hashable, Codable, Identifiable {
    /// The code in links and in the QR payload, e.g. `travail`.
    public let code: String
    /// The number printed before the label.
    public let number: Int
    /// A few words for buttons and lists ("Santé"); not printed. Forms without it show the code.
    public let shortLabel: String?
    /// The long label, the text of the form.
    public let label: String
    /// The note printed under the label, if any.
    public let note: String?
    /// Baseline of the check mark, in points from the bottom of the page.
    public let y: Double

    public var id: String { code }
}

public struct ReasonLayout: Sendable, Hashable, Codable {
    /// The check box: left edge, bottom relative to the reason's `y`, side.
    public let boxX: Double
    public let boxDY: Double
    public let boxSize: Double
    /// The `x` written in a chosen box.
    public let markX: Double
    public let markSize: Double
    /// The label: left edge, baseline relative to the reason's `y`, wrap width, type.
    public let textX: Double
    public let textDY: Double
    public let textWidth: Double
    public let textSize: Double
    public let textLeading: Double
    /// The note under the label: type, and the gap from the label's last baseline to its first.
    public let noteSize: Double
    public let noteLeading: Double
    public let noteGap: Double
}

/// A straight horizontal line on page 1 to write on.
public struct Rule: Sendable, Hashable, Codable {
    public let x: Double
    public let y: Double
    public let length: Double
    /// Dash pattern, on and off lengths in whole points (`[1, 2]` for dots); solid when absent.
    public let dash: [Int]?
}

/// The text of the QR code: lines with `{placeholders}`, joined by `separator`, with one more
/// separator at the end when `trailingSeparator` is set.
public struct QRPayloadFormat: Sendable, Hashable, Codable {
    public let lines: [String]
    public let separator: String
    public let trailingSeparator: Bool

    /// The placeholders a line may use.
    public static let placeholders: Set<String> = [
        "creationDate", "creationTime", "creationTimeH", "lastName", "firstName", "birthDate",
        "birthPlace", "address", "zipCode", "city", "exitDate", "exitTime", "exitTimeH", "reasons",
    ]

    /// What a QR code holds at most, in bytes: version 40 at correction level M (Rendering's
    /// QRMatrix) in byte mode.
    public static let maximumBytes = 2331

    /// The payload's size with every value at its longest and every reason chosen, scanned as
    /// `QRPayload` fills it: a form whose payload could not fit would fail at every request
    /// instead of at load time.
    func longestBytes(reasons: [Reason]) -> Int {
        var total = separator.utf8.count * max(0, lines.count - 1 + (trailingSeparator ? 1 : 0))
        for line in lines {
            var rest = Substring(line)
            while let open = rest.firstIndex(of: "{"), let close = rest[open...].firstIndex(of: "}") {
                total += rest[..<open].utf8.count + Self.longestValue(String(rest[rest.index(after: open)..<close]), reasons: reasons)
                rest = rest[rest.index(after: close)...]
            }
            total += rest.utf8.count
        }
        return total
    }

    private static func longestValue(_ name: String, reasons: [Reason]) -> Int {
        switch name {
        case "creationDate", "exitDate", "birthDate": 10  // 28/11/2020
        case "creationTime", "creationTimeH", "exitTime", "exitTimeH", "zipCode": 5  // 08:15, 08h15, 75001
        case "lastName": Identity.maximumQRBytes(.lastName)
        case "firstName": Identity.maximumQRBytes(.firstName)
        case "birthPlace": Identity.maximumQRBytes(.birthPlace)
        case "address": Identity.maximumQRBytes(.address)
        case "city": Identity.maximumQRBytes(.city)
        case "reasons": reasons.map(\.code.utf8.count).reduce(0, +) + 2 * max(0, reasons.count - 1)
        default: 0
        }
    }
}

/// A QR code of the attestation: page (1 or 2), lower-left corner and side, in points.
public struct QRPlacement: Sendable, Hashable, Codable {
    public let page: Int
    public let x: Double
    public let y: Double
    public let size: Double
}
