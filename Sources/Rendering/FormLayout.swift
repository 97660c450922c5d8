import AttestationKit
import CHaru

/// What a form draws the same way for everyone, laid out once when the renderer starts:
/// every static line already wrapped, placed and encoded, so a request only adds its values.
struct FormLayout: Sendable {
    let form: Form
    let lines: [StaticLine]
    let boxes: [(x: Double, y: Double, size: Double)]
    let marks: [String: (x: Double, y: Double)]

    struct StaticLine: Sendable {
        let style: FontStyle
        let size: Double
        let x: Double
        let y: Double
        /// CP1252, NUL-terminated for libharu.
        let text: [CChar]
    }

    init(form: Form) throws(RenderingError) {
        self.form = form
        let metrics = try Metrics()
        var lines: [StaticLine] = []

        func add(_ block: TextBlock, path: String) throws(RenderingError) {
            let style = block.style ?? .regular
            let wrapped = try metrics.wrap(block.text, style: style, size: block.size, width: block.width, form: form.id, path: path)
            let leading = block.leading ?? block.size * 1.15
            for (index, line) in wrapped.enumerated() {
                var x = block.x
                if block.align == .center, let width = block.width {
                    x += (width - metrics.width(line, style: style, size: block.size)) / 2
                }
                lines.append(StaticLine(style: style, size: block.size, x: x, y: block.y - Double(index) * leading,
                                        text: line.map { CChar(bitPattern: $0) } + [0]))
            }
        }

        try add(form.title, path: "title")
        try add(form.legalText, path: "legalText")
        for (index, block) in form.texts.enumerated() { try add(block, path: "texts[\(index)]") }
        for (key, slot) in form.fields.all {
            if let label = slot.label { try add(label, path: "fields.\(key).label") }
        }

        let layout = form.reasonLayout
        var boxes: [(x: Double, y: Double, size: Double)] = []
        var marks: [String: (x: Double, y: Double)] = [:]
        var previousBottom = Double.infinity
        for (index, reason) in form.reasons.enumerated() {
            let top = reason.y + layout.textDY + layout.textSize
            guard top <= previousBottom else {
                throw .layout(form: form.id, "le motif \(index) (\(reason.code)) chevauche le précédent ; réduisez textSize ou écartez les motifs.")
            }
            let label = TextBlock(text: "\(reason.number). \(reason.label)", x: layout.textX, y: reason.y + layout.textDY,
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
            boxes.append((layout.boxX, reason.y + layout.boxDY, layout.boxSize))
            marks[reason.code] = (layout.markX, reason.y)
        }
        self.lines = lines
        self.boxes = boxes
        self.marks = marks
    }

    /// Helvetica metrics, read from libharu's own tables through a scratch document.
    private final class Metrics {
        let document: HaruDocument
        let fonts: [FontStyle: HPDF_Font]

        init() throws(RenderingError) {
            document = try HaruDocument()
            fonts = [.regular: try document.standardFont(.regular), .bold: try document.standardFont(.bold),
                     .italic: try document.standardFont(.italic)]
        }

        func width(_ bytes: [UInt8], style: FontStyle, size: Double) -> Double {
            textWidth(bytes, font: fonts[style]!, size: size)
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
