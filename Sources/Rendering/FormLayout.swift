import AttestationKit
import CHaru
import FormSchema

/// What a form draws the same way for everyone, laid out once when the renderer starts: every
/// fixed line wrapped and placed (AttestationKit's TextLayout), the boxes, the rules, as each
/// page's fixed drawing (PageDrawing.swift), with its PDF content stream prepared and deflated,
/// so a request only adds its values.
struct FormLayout: Sendable {
    let form: Form
    /// Text, boxes and rules of each page of the form, from page 1 to `Form.pageCount` (empty
    /// when the form draws nothing fixed there).
    let fixedPages: [FixedDrawing]
    /// The mark of each printed reason, by reason code, drawn when the reason is chosen.
    let marks: [String: (page: Int, run: TextRun)]
    /// The box text of each printed reason, by reason code, when a chosen reason's mark takes
    /// its place (`ReasonLayout.markReplacesBox`): drawn with each attestation, for the reasons
    /// it does not hold; empty otherwise (the boxes are then in the fixed drawing).
    let replacedBoxes: [String: (page: Int, run: TextRun)]
    /// The form's title, subject and keywords for the document information, in
    /// PDFDocEncoding, NUL-terminated: encoded once, not in every document.
    let metadata: (title: [CChar], subject: [CChar], keywords: [CChar])

    /// The standard fonts of the fixed drawing, in the order they are registered on a page that
    /// has one: Helvetica, Helvetica-Bold and Helvetica-Oblique always, first (the PDF of the
    /// version 1 forms keeps its bytes), then the others in the order the form uses them.
    let fonts: [TextFont]
    /// The resource names libharu gives `fonts` on a page in that order ("F1", "F2", …), which
    /// the fixed content uses.
    let fontNames: [TextFont: String]
    /// The form's own fonts, each subset, deflated and measured once (`PreparedFont`).
    let preparedFonts: [TextFont: PreparedFont]
    /// `fixedPages` without their invisible text, for paper attestations (PaperAttestationDrawing.swift).
    let paperFixedPages: [FixedDrawing]
    /// The form's pictures, in the order of `Form.images`, decoded once.
    let pictures: [FormPicture]
    static let versionOneFonts: [TextFont] = [.helvetica, .standard(.helveticaBold), .standard(.helveticaOblique)]

    init(form: Form) throws(RenderingError) {
        self.form = form
        var lines = [[DrawingItem]](repeating: [], count: form.pageCount)
        var boxes = lines
        var fonts = Self.versionOneFonts

        func runs(_ block: TextBlock) -> [TextRun] {
            block.lines.flatMap(\.pieces).map { piece in
                TextRun(
                    text: .standard(piece.font, bytes: piece.bytes), size: piece.size, x: piece.x, y: piece.y,
                    colour: Colour(block.color), wordSpacing: piece.wordSpacing)
            }
        }
        func add(_ block: TextBlock, to items: inout [[DrawingItem]]) {
            for run in runs(block) {
                if case .standard(let font, _) = run.text, !fonts.contains(font) { fonts.append(font) }
                items[block.page - 1].append(.text(run))
            }
        }

        for (_, block) in form.textBlocks { add(block, to: &lines) }
        let layout = form.reasonLayout
        var marks: [String: (page: Int, run: TextRun)] = [:]
        var replacedBoxes: [String: (page: Int, run: TextRun)] = [:]
        for reason in form.printedReasons {
            let (label, note) = layout.textBlocks(of: reason)
            add(label, to: &lines)
            if let note { add(note, to: &lines) }
            switch layout.box {
            case .square:
                boxes[reason.page - 1].append(
                    .rectangle(
                        StrokedRectangle(
                            x: layout.boxX, y: reason.y + layout.boxDY(of: reason), width: layout.boxSize,
                            height: layout.boxSize, lineWidth: 0.5)))
            case .text:
                if layout.markReplacesBox, let box = layout.boxTextBlock(of: reason), let run = runs(box).first {
                    replacedBoxes[reason.code] = (reason.page, run)
                } else if let box = layout.boxTextBlock(of: reason) {
                    add(box, to: &boxes)
                }
            case .none:
                break
            }
            if let mark = runs(layout.markBlock(of: reason)).first { marks[reason.code] = (reason.page, mark) }
        }
        var items = zip(lines, boxes).map { $0 + $1 }
        for rule in form.rules ?? [] {
            items[rule.page - 1].append(
                .line(
                    StrokedLine(
                        x1: rule.x, y1: rule.y, x2: rule.end.x, y2: rule.end.y, lineWidth: rule.thickness,
                        dash: (rule.dash ?? []).map { Double(max(1, $0)) })))
        }
        self.fonts = fonts
        fontNames = try Self.resourceNames(of: fonts)
        // The glyphs each of the form's fonts must have: the fixed text's, the marks' and the
        // boxes', and every WinAnsi character for the fonts of a person's values (`PreparedFont`).
        var codes: [TextFont: Set<UInt8>] = [:]
        for case .text(let run) in items.joined() {
            if case .standard(let font, let bytes) = run.text, !font.isStandard {
                codes[font, default: []].formUnion(bytes)
            }
        }
        for run in marks.values.map(\.run) + replacedBoxes.values.map(\.run) {
            if case .standard(let font, let bytes) = run.text, !font.isStandard {
                codes[font, default: []].formUnion(bytes)
            }
        }
        for slot in form.fields where !slot.font.isStandard {
            // A field of dates and times only writes its own text and their digits and signs.
            if FieldValues.placeholderNames(in: slot.value).allSatisfy(OfflineTemplate.placeholders.keys.contains),
                let text = WinAnsiText.encode(slot.value)
            {
                codes[slot.font, default: []].formUnion(text + OfflineTemplate.writtenCharacters)
            } else {
                codes[slot.font, default: []].formUnion(PreparedFont.firstCode...255)
            }
        }
        var preparedFonts: [TextFont: PreparedFont] = [:]
        for (font, codes) in codes {
            guard case .file(let file) = font else { continue }
            preparedFonts[font] = try PreparedFont.prepare(file, codes: codes, form: form.id)
        }
        self.preparedFonts = preparedFonts
        var fixedPages: [FixedDrawing] = []
        for pageItems in items {
            guard !pageItems.isEmpty else {
                fixedPages.append(.empty)
                continue
            }
            var writer = PDFContentWriter(fontNames: fontNames, startOfPage: true)
            writer.draw(pageItems)
            fixedPages.append(FixedDrawing(items: pageItems, pdfContent: try Deflate.compress(writer.finish().bytes)))
        }
        self.fixedPages = fixedPages
        paperFixedPages = try Self.paperFixedPages(of: fixedPages, fontNames: fontNames)
        self.marks = marks
        self.replacedBoxes = replacedBoxes
        var pictures: [FormPicture] = []
        for image in form.images { pictures.append(try FormPicture(image, form: form.id)) }
        self.pictures = pictures
        metadata = (
            PDFDocEncoding.cString(form.metadata.title), PDFDocEncoding.cString(form.metadata.subject),
            PDFDocEncoding.cString(form.metadata.keywords)
        )
    }

    /// Adds the fonts to the page's resources in `order`; returns their resource names.
    static func registerFonts(
        _ fonts: [TextFont: HPDF_Font], in order: [TextFont], on page: HPDF_Page,
        of document: HaruDocument
    ) throws(RenderingError) -> [TextFont: String] {
        var names: [TextFont: String] = [:]
        for font in order {
            names[font] = try document.localFontName(fonts[font]!, on: page)
        }
        return names
    }

    /// The resource names of `fonts` registered in that order, read from a scratch document
    /// (an empty dictionary stands for each of the form's own fonts: only the order names them).
    private static func resourceNames(of fonts: [TextFont]) throws(RenderingError) -> [TextFont: String] {
        let document = try HaruDocument()
        var handles: [TextFont: HPDF_Font] = [:]
        for font in fonts {
            handles[font] = font.isStandard ? try document.standardFont(font) : try document.indirectDictionary()
        }
        let page = try document.addPage(width: 595.28, height: 841.89)
        return try registerFonts(handles, in: fonts, on: page, of: document)
    }
}
