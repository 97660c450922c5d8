import AttestationKit
import Foundation

/// A version of the attestation form, entirely described by data: its texts, where they go on
/// the page, its reasons and the format of its QR code. The official versions are built in
/// (`FormCatalog.builtIn`); an administrator adds another as a JSON file (docs/forms.md).
///
/// A `Form` is what a JSON document says once checked, with every default filled in, whichever
/// schema version the document was written in (`FormDocument`). A document with contexts
/// gives one `Form` per context.
public struct Form: Sendable, Hashable, Identifiable {
    /// Stable identifier used in links and on the command line, e.g. `deplacement-2020-11-28`.
    public let id: String
    /// A short human description for listings.
    public let name: String
    /// The size of page 1, in PDF points (A4 is 595.28 × 841.89), and of every later page
    /// unless `laterPages` says otherwise.
    public let page: PageSize
    /// The sizes of pages 2, 3, … when they differ from page 1 (the Ministry's generators
    /// added an A4 page after a 595 × 842 blank); a page beyond the list has the last one's
    /// size. Written `secondPage` when it is one size.
    public let laterPages: [PageSize]
    /// Whether the person's values are printed folded to ASCII (`Hélène` → `Helene`), as some
    /// generators printed them; the QR code follows `qrPayload.asciiFolding`.
    public let foldsPrintedValues: Bool
    /// The PDF's document information.
    public let metadata: DocumentMetadata
    /// The heading, e.g. "ATTESTATION DE DÉPLACEMENT DÉROGATOIRE".
    public let title: TextBlock
    /// The decree the form applies, under the title.
    public let legalText: TextBlock
    /// Every other fixed text: "Je soussigné(e)", the certification, footnotes, headings of
    /// groups of reasons, the mandatory mention, invisible text for screen readers.
    public let texts: [TextBlock]
    /// Where each value of the person goes, with its label, in drawing order.
    public let fields: [FieldSlot]
    /// The reasons a person may choose, in the order of the form.
    public let reasons: [Reason]
    /// Every reason printed on the page, chosen or not: `reasons` plus those a context leaves
    /// out (printed, never offered).
    public let printedReasons: [Reason]
    /// How reasons are drawn: check box, mark, label and note.
    public let reasonLayout: ReasonLayout
    /// How many reasons one attestation holds.
    public let selection: ReasonSelection
    /// Dotted or solid lines to write on, as the printed form has them.
    public let rules: [Rule]?
    /// Pictures (logos), PNG or JPEG.
    public let images: [FormImage]
    /// The TrueType font files the form's texts name (`fonts`), beside it.
    public let fonts: [FontFile]
    /// The text the QR code holds.
    public let qrPayload: QRPayloadFormat
    /// Where the QR codes are drawn; a page is added when a code is placed on it.
    public let qrCodes: [QRPlacement]
    /// What an attestation of this form must obey: its reasons, how many, its QR code's text;
    /// made once with the form, not at each attestation.
    public let attestationRules: FormRules
    /// When its version came into force and which of the version's contexts it is; nil for a
    /// form outside the calendar, printed only by links that name it.
    public let inForce: InForce?

    public func reason(code: String) -> Reason? { reasons.first { $0.code == code } }

    /// The most pages a form may have.
    public static let maximumPages = 8

    /// The size of page 2 when it differs from page 1.
    public var secondPage: PageSize? { laterPages.first }

    /// The size of page `number`, from 1.
    public func size(ofPage number: Int) -> PageSize {
        number <= 1 || laterPages.isEmpty ? page : laterPages[min(number - 2, laterPages.count - 1)]
    }

    /// How many pages an attestation of this form has: up to the last one the form puts
    /// anything on (a page between is drawn empty).
    public var pageCount: Int {
        let pages =
            textBlocks.map(\.block.page) + fields.map(\.page) + printedReasons.map(\.page)
            + (rules ?? []).map(\.page) + images.map(\.page) + qrCodes.map(\.page)
        return pages.max() ?? 1
    }

    /// Every fixed text block of the form with its JSON path, in drawing order: title, legal
    /// text, texts, field labels.
    public var textBlocks: [(path: String, block: TextBlock)] {
        [("title", title), ("legalText", legalText)]
            + texts.enumerated().map { ("texts[\($0.offset)]", $0.element) }
            + fields.enumerated().compactMap { entry in
                entry.element.label.map { ("fields[\(entry.offset)].label", $0) }
            }
    }
}

/// When a form's version came into force, from its `inForce`: the official calendar
/// (`FormCalendar`) is made of these.
public struct InForce: Sendable, Hashable {
    /// The instant the version came into force.
    public let start: Date
    /// The context this form is within its version (`couvre-feu`, `week-end`), from the
    /// document's `contexts` or its `inForce.context`; nil for a version of one form.
    public let context: String?
    /// A few words for the person choosing the context ("couvre-feu, 19h-6h").
    public let contextName: String?
    /// When no attestation was asked any more (20 June 2021, 6h, the curfew lifted): the end of
    /// the calendar when this is its last version; nil when none is known.
    public var until: Date? = nil
    /// The hours this context covers; nil for a context of every hour (or no context).
    public var hours: ContextHours? = nil
    /// Where this context applies when not everywhere (« les 16 départements soumis à des
    /// mesures renforcées »): there the rules left the person a choice the server cannot make.
    public var area: String? = nil
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

/// A colour as red, green and blue from 0 to 1; written `#rrggbb` in a form.
public struct RGBColor: Sendable, Hashable {
    public let red: Double
    public let green: Double
    public let blue: Double

    public static let black = RGBColor(red: 0, green: 0, blue: 0)

    /// `#rrggbb` (or `#RRGGBB`), else nil.
    public init?(hex: String) {
        let bytes = Array(hex.utf8)
        guard bytes.count == 7, bytes[0] == UInt8(ascii: "#"),
            bytes.dropFirst().allSatisfy(ASCIISet.hexDigits.contains), let value = UInt32(hex.dropFirst(), radix: 16)
        else {
            return nil
        }
        red = Double(value >> 16 & 0xFF) / 255
        green = Double(value >> 8 & 0xFF) / 255
        blue = Double(value & 0xFF) / 255
    }

    init(red: Double, green: Double, blue: Double) { (self.red, self.green, self.blue) = (red, green, blue) }

    public var hex: String {
        let parts = [red, green, blue].map { component -> String in
            let byte = String(Int((component * 255).rounded()), radix: 16)
            return byte.count == 1 ? "0" + byte : byte
        }
        return "#" + parts.joined()
    }
}

/// A piece of text in one font, size and baseline: a whole block, or a part of one (a
/// superscript footnote mark).
public struct TextRun: Sendable, Hashable {
    public let text: String
    /// The run's own font, else the block's.
    public let font: TextFont?
    /// The run's own size, else the block's.
    public let size: Double?
    /// How far the run's baseline is above the line's, in points (a superscript: about a third
    /// of the line's size; negative: below).
    public let rise: Double

    public init(text: String, font: TextFont? = nil, size: Double? = nil, rise: Double = 0) {
        (self.text, self.font, self.size, self.rise) = (text, font, size, rise)
    }

    /// A run with nothing of its own: plain text of the block.
    public var isPlain: Bool { font == nil && size == nil && rise == 0 }
}

/// Text as runs: a plain string is one run.
public struct RichText: Sendable, Hashable, ExpressibleByStringLiteral {
    public let runs: [TextRun]

    public init(runs: [TextRun]) { self.runs = runs }
    public init(_ text: String) { runs = [TextRun(text: text)] }
    public init(stringLiteral text: String) { self.init(text) }

    /// Every run, as drawn.
    public var text: String { runs.map(\.text).joined() }

    /// What a reader says: the runs on the baseline, without superscript footnote marks.
    public var readingText: String { runs.filter { $0.rise == 0 }.map(\.text).joined() }

    /// One run of the block's own font, size and baseline.
    public var isPlain: Bool { runs.count == 1 && runs[0].isPlain }
}

/// A fixed text at a position. Without `width` each line of it is one line on the page; with
/// it, it wraps to that width (and `\n` forces a break).
public struct TextBlock: Sendable, Hashable {
    public let content: RichText
    /// Left edge of the block, in points from the left of the page.
    public let x: Double
    /// Baseline of the first line, in points from the bottom of the page.
    public let y: Double
    public let size: Double
    public let font: TextFont
    public let width: Double?
    /// Distance between baselines; defaults to 1.15 × size.
    public let leading: Double?
    public let align: Alignment?
    /// Black when absent; `#ffffff` is the invisible text for screen readers.
    public let color: RGBColor?
    /// Page 1, 2, … up to `Form.maximumPages`.
    public let page: Int
    /// How far right of `x` the first line starts, in points, its room narrower by as much: a
    /// reason's label after its box (`ReasonLayout.boxInline`). 0 for a form's own text blocks.
    public let firstLineIndent: Double

    /// `justify` stretches every line of the block but its last to `width`, forced breaks
    /// included; `center` and `right` place each line within `width`.
    public enum Alignment: String, Sendable, Hashable, CaseIterable, Codable { case left, center, right, justify }

    public init(
        content: RichText, x: Double, y: Double, size: Double, font: TextFont = .helvetica, width: Double? = nil,
        leading: Double? = nil, align: Alignment? = nil, color: RGBColor? = nil, page: Int = 1,
        firstLineIndent: Double = 0
    ) {
        (self.content, self.x, self.y, self.size, self.font) = (content, x, y, size, font)
        (self.width, self.leading, self.align, self.color, self.page) = (width, leading, align, color, page)
        self.firstLineIndent = firstLineIndent
    }

    public init(
        text: String, x: Double, y: Double, size: Double, style: FontStyle? = nil, width: Double? = nil,
        leading: Double? = nil, align: Alignment? = nil
    ) {
        self.init(
            content: RichText(text), x: x, y: y, size: size, font: .standard(StandardFont(style: style ?? .regular)),
            width: width, leading: leading, align: align)
    }

    /// The whole text, every run.
    public var text: String { content.text }

    /// The Helvetica style of version 1, for the renderer that draws only those; nil for
    /// another font.
    public var style: FontStyle? {
        if case .standard(let standard) = font { standard.helveticaStyle } else { nil }
    }
}

/// The three Helvetica fonts of version 1 forms.
public enum FontStyle: String, Sendable, Hashable, CaseIterable, Codable { case regular, bold, italic }

/// Where a value of the person is written. The text starts at `size` and shrinks, down to
/// `minSize`, until its values without the fixed words around them fit `fitWidth` (the official
/// generator's rule for the city); beyond that
/// it may run on to `maxWidth`, then shrinks further or wraps onto a second line, never off the
/// page.
public struct FieldSlot: Sendable, Hashable {
    /// What is written: text with placeholders, `{firstName} {lastName}` (see `FieldValues`).
    public let value: String
    public let label: TextBlock?
    public let x: Double
    public let y: Double
    public let maxWidth: Double
    public let size: Double?
    public let minSize: Double?
    public let fitWidth: Double?
    /// Helvetica unless said; a value outside Windows-1252 is drawn with DejaVu Sans.
    public let font: TextFont
    /// Page 1, 2, … up to `Form.maximumPages`.
    public let page: Int
    /// Whether the person's values are printed folded to ASCII, as the QR code has them
    /// (`Form.foldsPrintedValues`).
    public let foldsValues: Bool
    /// The value continues its label's line (`afterLabel`): `x` is the end of the label and
    /// one space of its font, `y` its baseline, as the generators of April–June 2021 wrote
    /// label and value as one text ("Nom et prénom : Camille Dupont").
    public let continuesLabel: Bool
}

/// One reason to go out.
public struct Reason: Sendable, Hashable, Identifiable {
    /// The code in links and in the QR payload, e.g. `travail`.
    public let code: String
    /// The number of the reason in lists (the personal page, `forms`): the form's, else its
    /// place in the form from 1.
    public let number: Int
    /// The number printed before the label ("1. "), when the form prints numbers.
    public let printedNumber: Int?
    /// A few words for buttons and lists ("Santé"); not printed. Forms without it show the code.
    public let shortLabel: String?
    /// The label as printed, superscripts included.
    public let labelText: RichText
    /// The note printed under the label, if any.
    public let noteText: RichText?
    /// Baseline of the check mark, in points from the bottom of the page.
    public let y: Double
    /// The label's baseline relative to `y`, when it differs from the layout's `textDY`.
    public let textDY: Double?
    /// The box's offset relative to `y`, when it differs from the layout's `boxDY`.
    public let boxDY: Double?
    /// Page 1, 2, … up to `Form.maximumPages`.
    public let page: Int
    /// False for a reason printed on the page that this form (or context) does not offer.
    public let offered: Bool
    /// Codes of earlier versions this reason carries on (`achats` for
    /// `achats_culturel_cultuel`): a link's reason of an earlier version becomes this one.
    public let continues: [String]

    public var id: String { code }

    /// The long label as read (without footnote marks): the text of the form, for listings and
    /// the personal page. A reason whose title is a fixed text of its own (reason 12 of the
    /// mesures-renforcées form of March 2021 has an empty `label`) is read by its short label,
    /// never as nothing (`forms` listed « 12.  (suite de transits) », issue 40).
    public var label: String {
        let text = labelText.readingText
        return text.isEmpty ? shortLabel ?? code : text
    }
    /// The note as read.
    public var note: String? { noteText?.readingText }

    /// The reason as an attestation holds it.
    public var choice: ReasonChoice { ReasonChoice(code: code, number: number, shortLabel: shortLabel, label: label) }

    /// What is printed: the number when the form prints them, then the label.
    public var printedLabel: String { (printedNumber.map { "\($0). " } ?? "") + labelText.text }
}

public struct ReasonLayout: Sendable, Hashable {
    /// What marks the place of a reason: a drawn square, a text (`[ ]`), or nothing.
    public let box: BoxKind
    /// The box: left edge, offset of its bottom (square) or baseline (text) relative to the
    /// reason's `y`, and its side (square) or font size (text).
    public let boxX: Double
    public let boxDY: Double
    public let boxSize: Double
    /// The text of a text box and its font.
    public let boxText: String?
    public let boxFont: TextFont
    /// What a chosen reason gets: `markText` (an `x`) at `markX`, on the reason's `y`.
    public let markX: Double
    public let markSize: Double
    public let markFont: TextFont
    public let markText: String
    /// The label: left edge, baseline relative to the reason's `y`, wrap width, type.
    public let textX: Double
    public let textDY: Double
    public let textWidth: Double
    public let textSize: Double
    public let textLeading: Double
    public let textFont: TextFont
    public let textAlign: TextBlock.Alignment
    /// The note under the label: type, and the gap from the label's last baseline to its first.
    public let noteSize: Double
    public let noteLeading: Double
    public let noteGap: Double
    public let noteFont: TextFont
    /// Whether the numbers are printed before the labels ("1. ").
    public let numbered: Bool
    /// The box at the start of the label's first line: the label's other lines and the note
    /// come back to `boxX` rather than `textX`.
    public let boxInline: Bool
    /// A chosen reason's mark is drawn instead of its box text, not over it: `[x]` in place of
    /// `[ ]`, as the generators of April–June 2021 wrote it (needs `box` `text`).
    public let markReplacesBox: Bool

    public enum BoxKind: String, Sendable, Hashable, CaseIterable, Codable { case square, text, none }

    /// The label's baseline offset for a reason.
    public func textDY(of reason: Reason) -> Double { reason.textDY ?? textDY }
    /// The box's offset for a reason.
    public func boxDY(of reason: Reason) -> Double { reason.boxDY ?? boxDY }
}

/// A straight line to write on, or a side of a frame: from (`x`, `y`), `length` points to the
/// right, or upwards when `vertical`. The line's thickness is centred on its path, as PDF
/// strokes it: `y` is the middle of a horizontal rule, `x` of a vertical one.
public struct Rule: Sendable, Hashable {
    /// Page 1, 2, … up to `Form.maximumPages`.
    public let page: Int
    public let x: Double
    public let y: Double
    public let length: Double
    public let vertical: Bool
    /// The stroke's width, in points.
    public let thickness: Double
    /// Dash pattern, on and off lengths in whole points (`[1, 2]` for dots); solid when absent.
    public let dash: [Int]?

    /// The thickness of a rule that does not give one: the official forms' (0.6 pt).
    public static let defaultThickness = 0.6
    /// The thickest rule accepted, in points.
    public static let maximumThickness = 20.0

    public init(
        page: Int = 1, x: Double, y: Double, length: Double, vertical: Bool = false,
        thickness: Double = Rule.defaultThickness, dash: [Int]? = nil
    ) {
        (self.page, self.x, self.y, self.length, self.vertical) = (page, x, y, length, vertical)
        (self.thickness, self.dash) = (thickness, dash)
    }

    /// The other end of the line.
    public var end: (x: Double, y: Double) { vertical ? (x, y + length) : (x + length, y) }
}

/// A picture of the form: its bytes as given (PNG or JPEG) and where it goes.
public struct FormImage: Sendable, Hashable {
    public enum Format: String, Sendable, Hashable { case png, jpeg }

    public let page: Int
    /// Lower-left corner and size on the page, in points.
    public let x: Double
    public let y: Double
    public let width: Double
    public let height: Double
    public let format: Format
    public let bytes: [UInt8]
    /// The picture's own size, in pixels, read from its header.
    public let pixelWidth: Int
    public let pixelHeight: Int
    /// The file it was read from (`file`, beside the form or built in); nil when the form holds
    /// it (`data`).
    public let fileName: String?

    /// The most bytes one picture may have: a logo, not a photograph.
    public static let maximumBytes = 256 * 1024
    /// The most pixels a side and in all: a picture is decoded whole at load, 9 bytes a pixel
    /// kept (colour, alpha, grey) besides the decoder's 4. A PNG of 190 KB can claim
    /// 14000 × 14000 grey pixels: it took 1.77 GB and 8.6 s to load, and 5.2 s per PDF (issue
    /// 38). 2048 × 2048 is a logo 17 cm wide at 300 dpi (the built-in ones are 743 × 658 and
    /// 437 × 658) and holds at most 52 MB while decoded.
    public static let maximumSide = 4096
    public static let maximumPixels = 2048 * 2048
}

/// A QR code of the attestation: page (1 to `Form.maximumPages`), lower-left corner and side,
/// in points.
public struct QRPlacement: Sendable, Hashable, Codable {
    public let page: Int
    public let x: Double
    public let y: Double
    public let size: Double
}
