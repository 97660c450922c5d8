import AttestationKit
import CHaru
import FormSchema
import Foundation
import Synchronization

/// Draws attestations: the two-page PDF of the form, each page as a PNG image, and the QR code
/// alone as a PNG.
///
/// The fixed part of each form is laid out once, in `init` for an added form, on first use for a
/// built-in one (`FormLayoutOnFirstUse`); rendering then describes the pages
/// (PageDrawing.swift) and writes them with libharu for the PDF, with cairo for the page images.
/// A renderer is immutable and can be shared by any number of threads.
public struct AttestationRenderer: Sendable {
    /// DejaVu Sans from Debian's fonts-dejavu-core, for values outside WinAnsi: read once, on
    /// first need; each document embeds only the glyphs it prints.
    public static let defaultUnicodeFontPath = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
    /// Accepted sizes for the PNG, in pixels: from the width of the largest QR code (177 modules
    /// and the quiet zone) at one pixel a module, so the image is never wider than asked.
    public static let pngSizes = 185...4096
    /// Nimbus Sans from Debian's fonts-urw-base35, Helvetica's metric-compatible clone, for the
    /// page images: read on first need.
    public static let defaultStandardFontDirectory = "/usr/share/fonts/opentype/urw-base35"
    /// Accepted resolutions of the page images, in pixels an inch, and the default: at 150, an
    /// A4 page is 1,241 × 1,754 pixels.
    public static let pageDPIs = 72...300
    public static let defaultPageDPI = 150

    let layouts: [String: FormLayoutOnFirstUse]
    let metrics: StandardFontMetrics
    let unicodeFont: UnicodeFontSource
    private let rasterFonts: RasterFontSource

    /// Lays out every added form; one that cannot be drawn is an error now, not at the first
    /// request. A built-in form is laid out on its first use.
    public init(
        forms: [Form], unicodeFontPath: String = AttestationRenderer.defaultUnicodeFontPath,
        standardFontDirectory: String = AttestationRenderer.defaultStandardFontDirectory
    ) throws(RenderingError) {
        try Self.checkLibraries()
        metrics = try StandardFontMetrics.shared.get()
        var layouts: [String: FormLayoutOnFirstUse] = [:]
        for form in forms {
            let builtIn = FormCatalog.builtIn.anyForm(id: form.id) == form
            layouts[form.id] = try FormLayoutOnFirstUse(form: form, deferred: builtIn)
        }
        self.layouts = layouts
        unicodeFont = UnicodeFontSource(path: unicodeFontPath)
        var formFonts: [String] = []
        for file in forms.flatMap(\.fonts) { formFonts.append(try BuiltInFontFiles.path(of: file)) }
        rasterFonts = RasterFontSource(
            standardDirectory: standardFontDirectory, unicodePath: unicodeFontPath, formFonts: formFonts)
    }

    /// The attestation as a PDF: page 1 the filled form with a small QR code, page 2 a large one.
    public func pdf(_ attestation: Attestation) throws(RenderingError) -> [UInt8] {
        try pdf(attestation, qrMask: QRMatrix.mask)
    }

    /// The layout of the attestation's form: an attestation holds only its form's rules, so the
    /// renderer must have been given the form.
    func layout(of form: FormRules) throws(RenderingError) -> FormLayout {
        try layout(id: form.id)
    }

    /// Lays out now those of the forms `ids` names that are not yet; an id the renderer was not
    /// given is left out. The server does it for the forms in force when it loads its
    /// configuration, so that the first request after a start or a reload does not pay it
    /// (0.16 s for the PDF of June 2021, release build).
    public func prepareLayouts(of ids: some Sequence<String>) throws(RenderingError) {
        for id in ids { _ = try layouts[id]?.get() }
    }

    /// The layout of the form `id`, which the renderer must have been given.
    func layout(id: String) throws(RenderingError) -> FormLayout {
        guard let prepared = layouts[id] else { throw .formNotGiven(id) }
        return try prepared.get()
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
        let layout = try layout(of: attestation.form)
        let pages = try layout.pages(
            of: attestation, replacing: template ? OfflineTemplate.placeholders : [:],
            metrics: metrics, unicodeFont: unicodeFont)
        let document = try HaruDocument()
        setMetadata(document.handle, attestation, layout)

        // Every Unicode run encoded first: the Unicode font, if any text needs it, is then
        // embedded once with all the characters of the document.
        var fonts = PageFonts(document: document, unicodeFont: unicodeFont)
        var unicodeCodes: [[UInt16]] = []
        for page in pages {
            for case .text(let run) in page.items {
                if case .unicode(let scalars) = run.text { unicodeCodes.append(try fonts.encodeUnicode(scalars)) }
            }
        }
        var codes = unicodeCodes.makeIterator()
        // One image of the modules, drawn on every page that shows the code: one copy stored
        // (its size: `QRCodeImage`), made when the first page draws it.
        var image: HPDF_Image?
        // Each picture loaded once, on the first page that draws it.
        var pictures: [Int: HPDF_Image] = [:]
        for (index, drawing) in pages.enumerated() {
            let page = try Self.addPage(drawing, of: layout, to: document, fonts: &fonts)
            if index == 0 { try fonts.embedUnicodeFont() }
            try draw(
                drawing.items, on: page, number: index + 1, fonts: &fonts, layout: layout, template: template,
                codes: &codes,
                qrModules: qr.width
            ) { () throws(RenderingError) -> HPDF_Image in
                if let image { return image }
                let made = try document.image(qr, deflated: !template)
                image = made
                return made
            } picture: { (number: Int) throws(RenderingError) -> HPDF_Image in
                if let loaded = pictures[number] { return loaded }
                let made = try document.image(of: layout.pictures[number])
                pictures[number] = made
                return made
            }
        }
        try document.check()
        return try document.bytes()
    }

    /// A new page of the document with the form's fixed part already on it, as laid out and
    /// deflated at start-up, under the font names that content was written with; no font is
    /// selected yet (libharu forgets it at each page).
    static func addPage(
        _ drawing: PageDrawing, of layout: FormLayout, to document: HaruDocument, fonts: inout PageFonts
    ) throws(RenderingError) -> HPDF_Page {
        let page = try document.addPage(width: drawing.width, height: drawing.height)
        fonts.startPage()
        guard !drawing.fixed.items.isEmpty else { return page }
        var registered: [TextFont: HPDF_Font] = [:]
        for font in layout.fonts { registered[font] = try fonts.handle(font, of: layout) }
        guard try FormLayout.registerFonts(registered, in: layout.fonts, on: page, of: document) == layout.fontNames
        else {
            throw .unexpectedFontNames
        }
        try document.insert(try document.stream(drawing.fixed.pdfContent, deflated: true), on: page)
        return page
    }

    /// An attestation's own items on a PDF page: text through libharu's text operators (the
    /// Unicode font's through its codes, `codes` in the order of the runs), shapes as content
    /// operators, the QR code as the document's image. In a template, the reasons' marks are
    /// every box's (`templateMarks`), for the page to keep or comment out.
    func draw(
        _ items: [DrawingItem], on page: HPDF_Page, number: Int, fonts: inout PageFonts, layout: FormLayout,
        template: Bool, codes: inout IndexingIterator<[[UInt16]]>, qrModules: Int,
        qrImage: () throws(RenderingError) -> HPDF_Image,
        picture: (Int) throws(RenderingError) -> HPDF_Image
    ) throws(RenderingError) {
        var inText = false
        var fill = Colour.black
        var wordSpacing = 0.0
        func beginText() {
            if !inText {
                HPDF_Page_BeginText(page)
                inText = true
            }
        }
        func show(_ run: TextRun) throws(RenderingError) {
            beginText()
            if run.colour != fill {
                switch run.colour {
                case .gray(let level): HPDF_Page_SetGrayFill(page, HPDF_REAL(level))
                case .rgb(let red, let green, let blue):
                    HPDF_Page_SetRGBFill(page, HPDF_REAL(red), HPDF_REAL(green), HPDF_REAL(blue))
                }
                fill = run.colour
            }
            if run.wordSpacing != wordSpacing {
                HPDF_Page_SetWordSpace(page, HPDF_REAL(run.wordSpacing))
                wordSpacing = run.wordSpacing
            }
            switch run.text {
            case .standard(let font, let bytes) where font.isStandard:
                try fonts.select(font, size: run.size, on: page, of: layout)
                (bytes.map { CChar(bitPattern: $0) } + [0]).withUnsafeBufferPointer {
                    _ = HPDF_Page_TextOut(page, Float(run.x), Float(run.y), $0.baseAddress)
                }
            case .standard(let font, let bytes):
                // A form's own font is embedded by Rendering (`PreparedFont`), which libharu's text
                // operators cannot use: libharu places the line, the text is written as libharu
                // would have escaped it.
                guard let prepared = layout.preparedFonts[font], prepared.covers(bytes) else {
                    throw .layout(
                        form: layout.form.id, "texte hors des glyphes préparés de la police « \(font.rawValue) »")
                }
                try fonts.select(font, size: run.size, on: page, of: layout)
                HPDF_Page_SetTextMatrix(page, 1, 0, 0, 1, Float(run.x), Float(run.y))
                var content = ContentStream()
                content.escapedString(bytes)
                content.append(" Tj\n")
                try fonts.document.append(content, to: page)
            case .unicode:
                try fonts.selectUnicode(size: run.size, on: page)
                // libharu places the line (and so knows where the text matrix is, for the
                // TextOut calls that follow); the codes are written as they are.
                HPDF_Page_SetTextMatrix(page, 1, 0, 0, 1, Float(run.x), Float(run.y))
                var content = ContentStream()
                content.hexString(codes.next()!)
                content.append(" Tj\n")
                try fonts.document.append(content, to: page)
            }
        }
        for item in items {
            switch item {
            case .text, .reasonMarks: break
            default:
                if inText {
                    HPDF_Page_EndText(page)
                    inText = false
                }
            }
            switch item {
            case .text(let run):
                try show(run)
            case .reasonMarks(let runs):
                if template {
                    beginText()
                    let reasonLayout = layout.form.reasonLayout
                    try fonts.select(reasonLayout.markFont, size: reasonLayout.markSize, on: page, of: layout)
                    try fonts.document.append(Self.templateMarks(layout.form, layout, page: number).content, to: page)
                    let boxes = Self.templateBoxes(layout.form, layout, page: number)
                    if !boxes.offsets.isEmpty {
                        try fonts.select(reasonLayout.boxFont, size: reasonLayout.boxSize, on: page, of: layout)
                        try fonts.document.append(boxes.content, to: page)
                    }
                } else {
                    for run in runs { try show(run) }
                }
            case .rectangle, .line:
                var writer = PDFContentWriter(fontNames: [:], startOfPage: false)
                writer.draw([item])
                try fonts.document.append(writer.finish(), to: page)
            case .qrCode(let box):
                try fonts.document.draw(try qrImage(), modules: qrModules, in: box, on: page)
            case .picture(let number):
                let placed = layout.pictures[number].image
                try fonts.document.draw(
                    try picture(number), x: placed.x, y: placed.y, width: placed.width, height: placed.height,
                    on: page)
            }
        }
        if wordSpacing != 0 { HPDF_Page_SetWordSpace(page, 0) }
        if inText { HPDF_Page_EndText(page) }
        if fill != .black { HPDF_Page_SetGrayFill(page, 0) }
    }

    /// Page `page` (from 1 to the form's `pageCount`) of the PDF as a greyscale PNG, `dpi`
    /// pixels an inch, drawn by cairo from the same description of the page as the PDF.
    public func pagePNG(
        _ attestation: Attestation, page: Int, dpi: Int = AttestationRenderer.defaultPageDPI
    ) throws(RenderingError) -> [UInt8] {
        guard Self.pageDPIs.contains(dpi) else { throw .pageDPI(dpi, Self.pageDPIs) }
        let pages = try layout(of: attestation.form).pages(of: attestation, metrics: metrics, unicodeFont: unicodeFont)
        guard pages.indices.contains(page - 1) else { throw .pageNumber(page, pages: pages.count) }
        let drawing = pages[page - 1]
        let needsUnicode = (drawing.fixed.items + drawing.items).contains {
            if case .text(let run) = $0, case .unicode = run.text { true } else { false }
        }
        return try RasterPage.png(
            drawing, dpi: dpi, qr: try QRMatrix(encoding: QRPayload(attestation).bytes),
            pictures: try layout(of: attestation.form).pictures,
            fonts: try rasterFonts.load(), metrics: metrics,
            unicodeFont: needsUnicode ? try unicodeFont.load() : nil)
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

    /// The template's marks on a page: one line a reason, in the form's order, each placed by
    /// its own text matrix, `(x) Tj` (the form's mark). The page keeps the `(` of a chosen
    /// reason and writes `%` over the others', which makes the rest of their line a comment:
    /// the page then draws exactly the marks the server's document draws, with bytes of the
    /// same length. Only ET follows, so libharu's idea of the text matrix no longer matters.
    /// `offsets`: each line's `(`.
    static func templateMarks(
        _ form: Form, _ layout: FormLayout, page: Int
    ) -> (content: ContentStream, offsets: [(code: String, offset: Int)]) {
        var content = ContentStream()
        var offsets: [(code: String, offset: Int)] = []
        for reason in form.reasons {
            guard let mark = layout.marks[reason.code], mark.page == page, case .standard(_, let bytes) = mark.run.text
            else { continue }
            content.op(1, 0, 0, 1, mark.run.x, mark.run.y, name: "Tm")
            offsets.append((reason.code, content.bytes.count))
            content.string(bytes)
            content.append(" Tj\n")
        }
        return (content, offsets)
    }

    /// The box texts a template writes on `page` for a form whose mark replaces the box: each
    /// reason's `([ ]) Tj` commented out (`%[ ]) Tj`), for the page to restore (`(`) for the
    /// reasons not chosen; the offsets are those of that first byte.
    static func templateBoxes(
        _ form: Form, _ layout: FormLayout, page: Int
    ) -> (content: ContentStream, offsets: [(code: String, offset: Int)]) {
        var content = ContentStream()
        var offsets: [(code: String, offset: Int)] = []
        for reason in form.reasons {
            guard let box = layout.replacedBoxes[reason.code], box.page == page,
                case .standard(_, let bytes) = box.run.text
            else { continue }
            content.op(1, 0, 0, 1, box.run.x, box.run.y, name: "Tm")
            offsets.append((reason.code, content.bytes.count))
            content.string(bytes)
            content.commentOut(at: offsets.last!.offset)
            content.append(" Tj\n")
        }
        return (content, offsets)
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
final class UnicodeFontSource: Sendable {
    let path: String
    private let font = Mutex<TrueTypeFont?>(nil)

    init(path: String) { self.path = path }

    func load() throws(RenderingError) -> TrueTypeFont {
        try font.withLock { (font: inout TrueTypeFont?) throws(RenderingError) -> TrueTypeFont in
            if let font { return font }
            let loaded = try TrueTypeFont.load(path: path)
            font = loaded
            return loaded
        }
    }
}

/// The fonts of one document, created on first use, and the one currently selected.
struct PageFonts {
    let document: HaruDocument
    private let unicodeFont: UnicodeFontSource
    private var standard: [TextFont: HPDF_Font] = [:]
    /// The forms' own fonts embedded so far, by `/BaseFont`: two forms of a paper document may
    /// embed two subsets of one file.
    private var prepared: [String: HPDF_Dict] = [:]
    private var unicode: UnicodeFontUse?
    private var embedded: HPDF_Dict?
    private var current: (font: Selected, size: Double)?

    private enum Selected: Equatable {
        /// Selected by libharu, whose text operators then use it.
        case standard(HPDF_Font)
        /// Selected by an operator written here: the Unicode font or a form's own font.
        case written(HPDF_Dict)
    }

    init(document: HaruDocument, unicodeFont: UnicodeFontSource) {
        self.document = document
        self.unicodeFont = unicodeFont
    }

    mutating func standardFont(_ font: TextFont) throws(RenderingError) -> HPDF_Font {
        if let handle = standard[font] { return handle }
        let handle = try document.standardFont(font)
        standard[font] = handle
        return handle
    }

    /// The font's dictionary in this document: a standard font through libharu, a form's own
    /// font embedded as `layout` prepared it, each made on first use.
    mutating func handle(_ font: TextFont, of layout: FormLayout) throws(RenderingError) -> HPDF_Font {
        guard !font.isStandard else { return try standardFont(font) }
        guard let ready = layout.preparedFonts[font] else {
            throw .layout(form: layout.form.id, "police « \(font.rawValue) » non préparée")
        }
        if let handle = prepared[ready.name] { return handle }
        let handle = try document.embed(ready)
        prepared[ready.name] = handle
        return handle
    }

    /// The codes of `text` in the Unicode font; read the font file on first use.
    mutating func encodeUnicode(_ text: [Unicode.Scalar]) throws(RenderingError) -> [UInt16] {
        precondition(embedded == nil, "the Unicode font is already embedded")
        if unicode == nil { unicode = UnicodeFontUse(font: try unicodeFont.load()) }
        return unicode!.encode(text)
    }

    /// Embeds the subset of the Unicode font with every character encoded so far, if any.
    mutating func embedUnicodeFont() throws(RenderingError) {
        guard let unicode, embedded == nil else { return }
        embedded = try document.embed(unicode)
    }

    /// A new page starts with no font selected: the next text selects its own.
    mutating func startPage() { current = nil }

    /// Skips the operator when nothing changes: fewer operators, smaller and faster PDF.
    mutating func select(
        _ font: TextFont, size: Double, on page: HPDF_Page, of layout: FormLayout
    )
        throws(RenderingError)
    {
        let handle = try handle(font, of: layout)
        if font.isStandard {
            if let current, current.font == .standard(handle), current.size == size { return }
            HPDF_Page_SetFontAndSize(page, handle, Float(size))
            current = (.standard(handle), size)
        } else {
            try write(handle, size: size, on: page)
        }
    }

    /// Selects the embedded Unicode font.
    mutating func selectUnicode(size: Double, on page: HPDF_Page) throws(RenderingError) {
        guard let embedded else { preconditionFailure("the Unicode font is selected before it is embedded") }
        try write(embedded, size: size, on: page)
    }

    /// Selects a font libharu knows only as a page resource: the operator is written here.
    private mutating func write(_ font: HPDF_Dict, size: Double, on page: HPDF_Page) throws(RenderingError) {
        if let current, current.font == .written(font), current.size == size { return }
        var content = ContentStream()
        content.append("/\(try document.localFontName(font, on: page)) ")
        content.op(size, name: "Tf")
        try document.append(content, to: page)
        current = (.written(font), size)
    }
}
