import AttestationKit
import CHaru

/// What a form draws the same way for everyone, laid out once when the renderer starts: every
/// fixed line wrapped and placed, the boxes and rules, as the page's fixed drawing
/// (PageDrawing.swift), with its PDF content stream prepared and deflated, so a request only
/// adds its values.
struct FormLayout: Sendable {
    let form: Form
    /// Text, check boxes and rules of page 1.
    let fixedPage: FixedDrawing
    /// Where the `x` of each reason goes, by reason code.
    let marks: [String: (x: Double, y: Double)]
    /// The form's title, subject and keywords for the document information, in
    /// PDFDocEncoding, NUL-terminated: encoded once, not in every document.
    let metadata: (title: [CChar], subject: [CChar], keywords: [CChar])

    /// The standard fonts in the order they are registered on page 1, and the resource names
    /// libharu gives them in that order ("F1", "F2", …), which `fixedPage`'s content uses.
    static let fontOrder: [FontStyle] = [.regular, .bold, .italic]
    let fontNames: [FontStyle: String]

    init(form: Form, metrics widths: StandardFontMetrics) throws(RenderingError) {
        self.form = form
        let metrics = try Metrics(widths: widths)
        var lines: [TextRun] = []

        func add(_ block: TextBlock, path: String) throws(RenderingError) {
            let style = block.style ?? .regular
            let wrapped = try metrics.wrap(block.text, style: style, size: block.size, width: block.width, form: form.id, path: path)
            let leading = block.leading ?? block.size * 1.15
            for (index, line) in wrapped.enumerated() {
                var x = block.x
                if block.align == .center, let width = block.width {
                    x += (width - metrics.width(line, style: style, size: block.size)) / 2
                }
                lines.append(TextRun(text: .standard(style, winAnsi: line), size: block.size, x: x, y: block.y - Double(index) * leading))
            }
        }

        try add(form.title, path: "title")
        try add(form.legalText, path: "legalText")
        for (index, block) in form.texts.enumerated() { try add(block, path: "texts[\(index)]") }
        for (index, slot) in form.fields.enumerated() {
            if let label = slot.label { try add(label, path: "fields[\(index)].label") }
        }

        let layout = form.reasonLayout
        var boxes: [DrawingItem] = []
        var marks: [String: (x: Double, y: Double)] = [:]
        var previousBottom = Double.infinity
        for (index, reason) in form.reasons.enumerated() {
            let top = reason.y + layout.textDY + layout.textSize
            guard top <= previousBottom else {
                throw .layout(form: form.id, "le motif \(index) (\(reason.code)) chevauche le précédent ; réduisez textSize ou écartez les motifs.")
            }
            let label = TextBlock(text: reason.printedLabel, x: layout.textX, y: reason.y + layout.textDY,
                                  size: layout.textSize, style: .regular, width: layout.textWidth,
                                  leading: layout.textLeading, align: .left)
            let before = lines.count
            try add(label, path: "reasons[\(index)].label")
            var lastBaseline = lines[lines.count - 1].y
            if let note = reason.note {
                let block = TextBlock(text: note, x: layout.textX, y: lastBaseline - layout.noteGap, size: layout.noteSize,
                                      style: .regular, width: layout.textWidth, leading: layout.noteLeading, align: .left)
                try add(block, path: "reasons[\(index)].note")
                lastBaseline = lines[lines.count - 1].y
            }
            precondition(lines.count > before)
            previousBottom = lastBaseline - lines[lines.count - 1].size * 0.25
            boxes.append(.rectangle(StrokedRectangle(x: layout.boxX, y: reason.y + layout.boxDY, width: layout.boxSize,
                                                     height: layout.boxSize, lineWidth: 0.5)))
            marks[reason.code] = (layout.markX, reason.y)
        }
        fontNames = metrics.fontNames
        var items = lines.map(DrawingItem.text) + boxes
        for rule in form.rules ?? [] {
            items.append(.line(StrokedLine(x1: rule.x, y1: rule.y, x2: rule.x + rule.length, y2: rule.y, lineWidth: 0.6,
                                           dash: (rule.dash ?? []).map { Double(max(1, $0)) })))
        }
        var writer = PDFContentWriter(fontNames: fontNames, startOfPage: true)
        writer.draw(items)
        fixedPage = FixedDrawing(items: items, pdfContent: try Deflate.compress(writer.finish().bytes))
        self.marks = marks
        metadata = (PDFDocEncoding.cString(form.metadata.title), PDFDocEncoding.cString(form.metadata.subject),
                    PDFDocEncoding.cString(form.metadata.keywords))
    }

    /// Adds the fonts to the page's resources in `fontOrder`; returns their resource names.
    static func registerFonts(_ fonts: [FontStyle: HPDF_Font], on page: HPDF_Page, of document: HaruDocument) throws(RenderingError) -> [FontStyle: String] {
        var names: [FontStyle: String] = [:]
        for style in fontOrder {
            names[style] = try document.localFontName(fonts[style]!, on: page)
        }
        return names
    }

    /// Word wrapping with the standard fonts' widths, and the fonts' resource names, read from
    /// a scratch document.
    private final class Metrics {
        let widths: StandardFontMetrics
        let fontNames: [FontStyle: String]

        init(widths: StandardFontMetrics) throws(RenderingError) {
            self.widths = widths
            let document = try HaruDocument()
            var fonts: [FontStyle: HPDF_Font] = [:]
            for style in FormLayout.fontOrder { fonts[style] = try document.standardFont(style) }
            let page = try document.addPage(width: 595.28, height: 841.89)
            fontNames = try FormLayout.registerFonts(fonts, on: page, of: document)
        }

        func width(_ bytes: [UInt8], style: FontStyle, size: Double) -> Double {
            widths.width(bytes, style: style, size: size)
        }

        /// Greedy word wrap; `\n` in the text forces a break.
        func wrap(_ text: String, style: FontStyle, size: Double, width: Double?, form: String, path: String) throws(RenderingError) -> [[UInt8]] {
            var result: [[UInt8]] = []
            for paragraph in text.split(separator: "\n", omittingEmptySubsequences: false) {
                guard let bytes = WinAnsi.encode(String(paragraph)) else {
                    throw .layout(form: form, "\(path) : texte hors de l’encodage WinAnsi ; seuls les caractères de Windows-1252 sont acceptés dans le texte fixe d’un formulaire.")
                }
                guard let width else { result.append(bytes); continue }
                var line: [UInt8] = []
                for word in bytes.split(separator: 0x20) {
                    let candidate = line.isEmpty ? Array(word) : line + [0x20] + word
                    if !line.isEmpty, self.width(candidate, style: style, size: size) > width {
                        result.append(line)
                        line = Array(word)
                    } else {
                        line = candidate
                    }
                }
                result.append(line)
            }
            return result
        }
    }
}
