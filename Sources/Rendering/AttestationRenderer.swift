import AttestationKit
import CHaru
import Foundation

/// Draws attestations: the two-page PDF of the form, and the QR code alone as a PNG.
///
/// The fixed part of each form is laid out once, in `init`; rendering then costs one libharu
/// document per request. A renderer is immutable and can be shared by any number of threads.
public struct AttestationRenderer: Sendable {
    /// DejaVu Sans from Debian's fonts-dejavu-core, for values outside WinAnsi: read once, on
    /// first need; each document embeds only the glyphs it prints.
    public static let defaultUnicodeFontPath = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
    /// Accepted sizes for the PNG, in pixels: from the width of the largest QR code (177 modules
    /// and the quiet zone) at one pixel a module, so the image is never wider than asked.
    public static let pngSizes = 185...4096

    let layouts: [String: FormLayout]
    private let unicodeFont: UnicodeFontSource

    /// Lays out every form; a form that cannot be drawn is an error now, not at the first request.
    public init(forms: [Form], unicodeFontPath: String = AttestationRenderer.defaultUnicodeFontPath) throws(RenderingError) {
        var layouts: [String: FormLayout] = [:]
        for form in forms { layouts[form.id] = try FormLayout(form: form) }
        self.layouts = layouts
        unicodeFont = UnicodeFontSource(path: unicodeFontPath)
    }

    /// The attestation as a PDF: page 1 the filled form with a small QR code, page 2 a large one.
    public func pdf(_ attestation: Attestation) throws(RenderingError) -> [UInt8] {
        try pdf(attestation, qrMask: QRMatrix.mask)
    }

    /// The PDF with its QR codes drawn with the given mask (0 to 7), for the tests that read
    /// every mask back.
    func pdf(_ attestation: Attestation, qrMask: Int32) throws(RenderingError) -> [UInt8] {
        try render(attestation, qr: try QRMatrix(encoding: QRPayload(attestation).bytes, mask: qrMask), template: false)
    }

    /// Draws the document. For a template (`offlineTemplate`), the dates and times are
    /// placeholders of their real length, every reason's mark is drawn, and the QR image is
    /// stored uncompressed, so that each can be found and overwritten in place.
    func render(_ attestation: Attestation, qr: QRMatrix, template: Bool) throws(RenderingError) -> [UInt8] {
        let layout = if let prepared = layouts[attestation.form.id] { prepared } else { try FormLayout(form: attestation.form) }
        let document = try HaruDocument()
        let pdf = document.handle
        setMetadata(pdf, attestation, layout)

        let form = attestation.form
        var fonts = PageFonts(document: document, unicodeFont: unicodeFont)
        let page = try document.addPage(width: form.page.width, height: form.page.height)

        var registered: [FontStyle: HPDF_Font] = [:]
        for style in FormLayout.fontOrder { registered[style] = try fonts.standardFont(style) }
        guard try FormLayout.registerFonts(registered, on: page, of: document) == layout.fontNames else {
            throw .unexpectedFontNames
        }
        // The fixed part of the form first, as laid out and deflated at start-up.
        try document.insert(try document.deflatedStream(layout.staticContent), on: page)

        // Every value measured first: the Unicode font, if any value needs it, is then embedded
        // once with all the characters of the document.
        var texts: [FieldText] = []
        for (slot, value) in values(attestation, template: template) {
            texts.append(try FieldText(value: value, slot: slot, fonts: &fonts))
        }
        try fonts.embedUnicodeFont()
        HPDF_Page_BeginText(page)
        for text in texts { try text.draw(on: page, fonts: &fonts) }
        let markSize = form.reasonLayout.markSize
        if template {
            // Every box's mark, which the page keeps or turns into a comment.
            try fonts.select(FontStyle.regular, size: markSize, on: page)
            try document.append(Self.templateMarks(form, layout).content, to: page)
        } else {
            for reason in attestation.reasons {
                guard let mark = layout.marks[reason.code] else { continue }
                try fonts.select(.regular, size: markSize, on: page)
                HPDF_Page_TextOut(page, Float(mark.x), Float(mark.y), "x")
            }
        }
        HPDF_Page_EndText(page)

        // One image of the modules, drawn on both pages: one copy stored (about 1.2 KB).
        let image = template ? try document.uncompressedImage(qr) : try document.image(qr)
        var secondPage: HPDF_Page?
        for placement in form.qrCodes {
            let target: HPDF_Page
            if placement.page == 1 {
                target = page
            } else if let secondPage {
                target = secondPage
            } else {
                target = try document.addPage(width: form.page.width, height: form.page.height)
                secondPage = target
            }
            try document.draw(image, modules: qr.width, in: placement, on: target)
        }
        try document.check()
        return try document.bytes()
    }

    /// The QR code alone, black on white with a quiet zone of 4 modules, about `size` pixels
    /// wide (whole pixels per module, so the result is at most `size` and never blurred).
    public func qrPNG(_ attestation: Attestation, size: Int = 400) throws(RenderingError) -> [UInt8] {
        guard Self.pngSizes.contains(size) else { throw .pngSize(size, Self.pngSizes) }
        let qr = try QRMatrix(encoding: QRPayload(attestation).bytes)
        let quiet = 4
        let modules = qr.width + 2 * quiet
        let scale = max(1, size / modules)
        let side = modules * scale
        // Palette indices: 1 is white, 0 black. Build one row per module row, then repeat it.
        var pixels = [UInt8](repeating: 1, count: side * side)
        pixels.withUnsafeMutableBufferPointer { buffer in
            for row in 0..<qr.width {
                let top = (row + quiet) * scale
                for column in 0..<qr.width where qr.isDark(row: row, column: column) {
                    let start = top * side + (column + quiet) * scale
                    buffer[start..<start + scale].update(repeating: 0)
                }
                for copy in 1..<scale {
                    let source = top * side
                    let target = (top + copy) * side
                    _ = buffer[target..<target + side].update(fromContentsOf: buffer[source..<source + side])
                }
            }
        }
        return try PNGImage.encode(blackAndWhite: pixels, width: side, height: side)
    }

    /// The template's marks: one line a reason, in the form's order, each placed by its own
    /// text matrix, `(x) Tj`. The page keeps the `(` of a chosen reason and writes `%` over
    /// the others', which makes the rest of their line a comment: the page then draws exactly
    /// the marks the server's document draws, with bytes of the same length. Only ET follows, so
    /// libharu's idea of the text matrix no longer matters. `offsets`: each line's `(`.
    static func templateMarks(_ form: Form, _ layout: FormLayout) -> (content: ContentStream, offsets: [(code: String, offset: Int)]) {
        var content = ContentStream()
        var offsets: [(code: String, offset: Int)] = []
        for reason in form.reasons {
            guard let mark = layout.marks[reason.code] else { continue }
            content.op(1, 0, 0, 1, mark.x, mark.y, name: "Tm")
            offsets.append((reason.code, content.bytes.count))
            content.append("(x) Tj\n")
        }
        return (content, offsets)
    }

    /// Each field's text; in a template, the dates and times as placeholders of their length.
    private func values(_ attestation: Attestation, template: Bool) -> [(FieldSlot, String)] {
        attestation.form.fields.map {
            ($0, template ? attestation.text(of: $0, replacing: OfflineTemplate.placeholders) : attestation.text(of: $0))
        }
    }

    private func setMetadata(_ pdf: HPDF_Doc, _ attestation: Attestation, _ layout: FormLayout) {
        HPDF_SetInfoAttr(pdf, HPDF_INFO_TITLE, layout.metadata.title)
        HPDF_SetInfoAttr(pdf, HPDF_INFO_SUBJECT, layout.metadata.subject)
        HPDF_SetInfoAttr(pdf, HPDF_INFO_KEYWORDS, layout.metadata.keywords)
        HPDF_SetInfoAttr(pdf, HPDF_INFO_AUTHOR, Self.producerCString)
        HPDF_SetInfoAttr(pdf, HPDF_INFO_CREATOR, Self.producerCString)
        HPDF_SetInfoAttr(pdf, HPDF_INFO_PRODUCER, Self.producerCString)

        let created = attestation.createdLocal
        let offset = attestation.timeZone.secondsFromGMT(for: attestation.created) / 60
        var date = HPDF_Date()
        date.year = Int32(created.date.year)
        date.month = Int32(created.date.month)
        date.day = Int32(created.date.day)
        date.hour = Int32(created.hour)
        date.minutes = Int32(created.minute)
        date.seconds = 0
        date.ind = CChar(UInt8(ascii: offset == 0 ? "Z" : offset > 0 ? "+" : "-"))
        date.off_hour = Int32(abs(offset) / 60)
        date.off_minutes = Int32(abs(offset) % 60)
        HPDF_SetInfoDateAttr(pdf, HPDF_INFO_CREATION_DATE, date)
    }

    /// Who made the file: this project, never the Ministry.
    static let producer = "attestation-links (générateur auto-hébergé, non officiel)"
    private static let producerCString = PDFDocEncoding.cString(producer)
}

/// The Unicode font file, read on first need and kept for the renderer's lifetime, shared by
/// its threads. A failed read is tried again next time (the font may have been installed since).
final class UnicodeFontSource: @unchecked Sendable {
    let path: String
    private let lock = NSLock()
    private var font: TrueTypeFont?

    init(path: String) { self.path = path }

    func load() throws(RenderingError) -> TrueTypeFont {
        lock.lock()
        defer { lock.unlock() }
        if let font { return font }
        let loaded = try TrueTypeFont.load(path: path)
        font = loaded
        return loaded
    }
}

/// The fonts of one document, created on first use, and the one currently selected.
struct PageFonts {
    let document: HaruDocument
    private let unicodeFont: UnicodeFontSource
    private var standard: [FontStyle: HPDF_Font] = [:]
    private var unicode: UnicodeFontUse?
    private var embedded: HPDF_Dict?
    private var current: (font: Selected, size: Double)?

    private enum Selected: Equatable {
        case standard(HPDF_Font)
        case unicode
    }

    init(document: HaruDocument, unicodeFont: UnicodeFontSource) {
        self.document = document
        self.unicodeFont = unicodeFont
    }

    mutating func standardFont(_ style: FontStyle) throws(RenderingError) -> HPDF_Font {
        if let font = standard[style] { return font }
        let font = try document.standardFont(style)
        standard[style] = font
        return font
    }

    /// The codes of `text` in the Unicode font; read the font file on first use.
    mutating func encodeUnicode(_ text: String) throws(RenderingError) -> [UInt16] {
        precondition(embedded == nil, "the Unicode font is already embedded")
        if unicode == nil { unicode = UnicodeFontUse(font: try unicodeFont.load()) }
        return unicode!.encode(text)
    }

    /// Widths of the Unicode font's codes so far, thousandths of an em.
    var unicodeWidths: [Int] { unicode?.widths ?? [] }
    var unicodeSpace: UInt16? { unicode?.spaceCode }

    /// Embeds the subset of the Unicode font with every character encoded so far, if any.
    mutating func embedUnicodeFont() throws(RenderingError) {
        guard let unicode, embedded == nil else { return }
        embedded = try document.embed(unicode)
    }

    mutating func select(_ style: FontStyle, size: Double, on page: HPDF_Page) throws(RenderingError) {
        select(try standardFont(style), size: size, on: page)
    }

    /// Skips the operator when nothing changes: fewer operators, smaller and faster PDF.
    mutating func select(_ font: HPDF_Font, size: Double, on page: HPDF_Page) {
        if let current, current.font == .standard(font), current.size == size { return }
        HPDF_Page_SetFontAndSize(page, font, Float(size))
        current = (.standard(font), size)
    }

    /// Selects the embedded Unicode font; libharu knows it only as a page resource, so the
    /// operator is written here.
    mutating func selectUnicode(size: Double, on page: HPDF_Page) throws(RenderingError) {
        guard let embedded else { preconditionFailure("the Unicode font is selected before it is embedded") }
        if let current, current.font == .unicode, current.size == size { return }
        var content = ContentStream()
        content.append("/\(try document.localFontName(embedded, on: page)) ")
        content.op(size, name: "Tf")
        try document.append(content, to: page)
        current = (.unicode, size)
    }
}
