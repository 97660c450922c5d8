import AttestationKit
import Foundation

/// The reasons' boxes and texts, and the checks that they stay clear of each other and of the
/// form's other ink.
extension FormBuilder {
    func reasonLayout(
        _ d: ReasonLayoutDocument, path: String, pageWidth width: Double, pageHeight height: Double
    ) throws(FormError) -> ReasonLayout {
        let box: ReasonLayout.BoxKind = try choice(d.box ?? ReasonLayout.BoxKind.square.rawValue, path: "\(path).box")
        let boxFont = try font(d.boxFont, at: "\(path).boxFont")
        let markFont = try font(d.markFont, at: "\(path).markFont")
        let textFont = try font(d.textFont, at: "\(path).textFont")
        let noteFont = try font(d.noteFont, at: "\(path).noteFont")
        let textAlign: TextBlock.Alignment = try choice(
            d.textAlign ?? TextBlock.Alignment.left.rawValue, path: "\(path).textAlign")
        var boxX = d.boxX ?? 0
        var boxDY = d.boxDY ?? 0
        var boxSize = d.boxSize ?? 0
        if box != .none {
            for (key, value) in [("boxX", d.boxX), ("boxDY", d.boxDY), ("boxSize", d.boxSize)] where value == nil {
                throw fail("\(path).\(key)", "clé obligatoire absente (box « \(box.rawValue) »).")
            }
            (boxX, boxDY, boxSize) = (d.boxX!, d.boxDY!, d.boxSize!)
        }
        var boxText: String?
        if box == .text {
            guard let text = d.boxText, !text.isEmpty else {
                throw fail("\(path).boxText", "clé obligatoire absente (box « text ») ; par exemple \"[ ]\".")
            }
            guard boxFont.encode(text) != nil else {
                throw fail(
                    "\(path).boxText",
                    "texte hors de l’encodage de \(boxFont.rawValue) (\(Self.firstUnencodable(text, in: boxFont))).")
            }
            boxText = text
        } else if d.boxText != nil {
            throw fail("\(path).boxText", "boxText ne sert qu’avec box « text ».")
        }
        let markText = d.markText ?? "x"
        guard !markText.isEmpty, markFont.encode(markText) != nil else {
            throw fail("\(path).markText", "marque vide ou hors de l’encodage de \(markFont.rawValue).")
        }
        let boxInline = d.boxInline ?? false
        guard !boxInline || (box != .none && boxX < d.textX) else {
            throw fail(
                "\(path).boxInline",
                "boxInline place la case au début de la première ligne du libellé : une case (box « square » ou « text ») et boxX avant textX sont attendus."
            )
        }
        let markReplacesBox = d.markReplacesBox ?? false
        guard !markReplacesBox || box == .text else {
            throw fail(
                "\(path).markReplacesBox",
                "markReplacesBox écrit la marque à la place du texte de la case : box « text » est attendu.")
        }
        let noteSize = d.noteSize ?? d.textSize
        let noteLeading = d.noteLeading ?? d.textLeading
        let noteGap = d.noteGap ?? d.textLeading
        let sizes = [
            box == .none ? 1 : boxSize, d.markSize, d.textWidth, d.textSize, d.textLeading, noteSize, noteLeading,
        ]
        let fontSizes = [d.markSize, d.textSize, noteSize] + (box == .text ? [boxSize] : [])
        let offsets = [boxDY, d.textDY, noteGap, d.textLeading, noteLeading]
        guard sizes.allSatisfy({ $0 > 0 }), fontSizes.allSatisfy({ $0 <= 72 }),
            offsets.allSatisfy({ abs($0) <= height }),
            d.textX >= 0, d.textX + d.textWidth <= width,
            (0...width).contains(boxX), boxSize <= width, (0...width).contains(d.markX)
        else {
            throw fail(path, "tailles positives (polices jusqu’à 72), décalages et texte dans la page attendus.")
        }
        return ReasonLayout(
            box: box, boxX: boxX, boxDY: boxDY, boxSize: boxSize, boxText: boxText, boxFont: boxFont, markX: d.markX,
            markSize: d.markSize, markFont: markFont, markText: markText, textX: d.textX, textDY: d.textDY,
            textWidth: d.textWidth, textSize: d.textSize, textLeading: d.textLeading, textFont: textFont,
            textAlign: textAlign,
            noteSize: noteSize, noteLeading: noteLeading, noteGap: noteGap, noteFont: noteFont,
            numbered: d.numbered ?? false, boxInline: boxInline, markReplacesBox: markReplacesBox)
    }

    func reasons(layout: ReasonLayout, pageSize: (Int) -> PageSize) throws(FormError) -> [Reason] {
        let list = document.reasons
        guard !list.isEmpty else { throw fail("reasons", "au moins un motif est attendu.") }
        guard list.count <= Self.maximumReasons else {
            throw fail("reasons", "\(Self.maximumReasons) motifs au plus (ce qu’un lien peut contenir).")
        }
        var codes = Set<String>()
        var numbers = Set<Int>()
        var reasons: [Reason] = []
        for (index, reason) in list.enumerated() {
            let path = "reasons[\(index)]"
            guard NamePattern.reasonCode.matches(reason.code) else {
                throw fail(
                    "\(path).code", "code de motif invalide « \(reason.code) » ; minuscules, chiffres et _ attendus.")
            }
            guard codes.insert(reason.code).inserted else {
                throw fail("\(path).code", "code de motif en double « \(reason.code) ».")
            }
            let number = reason.number ?? index + 1
            guard (1...999).contains(number) else { throw fail("\(path).number", "numéro de 1 à 999 attendu.") }
            guard numbers.insert(number).inserted else {
                throw fail("\(path).number", "numéro de motif en double (\(number)).")
            }
            let page = try pageNumber(reason.page, path: "\(path).page")
            let size = pageSize(page)
            try checkPoint(reason.y, within: size.height, path: "\(path).y")
            for (key, offset) in [("textDY", reason.textDY), ("boxDY", reason.boxDY)] {
                if let offset, abs(offset) > size.height {
                    throw fail("\(path).\(key)", "décalage plus grand que la page.")
                }
            }
            let label = try richText(reason.label, font: layout.textFont, size: layout.textSize, path: "\(path).label")
            let note = try reason.note.map { note throws(FormError) in
                try richText(note, font: layout.noteFont, size: layout.noteSize, path: "\(path).note")
            }
            reasons.append(
                Reason(
                    code: reason.code, number: number, printedNumber: layout.numbered ? number : nil,
                    shortLabel: reason.shortLabel,
                    labelText: label, noteText: note, y: reason.y, textDY: reason.textDY, boxDY: reason.boxDY,
                    page: page,
                    offered: reason.offered ?? true,
                    continues: try continues(reason.continues, of: reason.code, path: path)))
        }
        return reasons
    }

    /// The reasons' labels go down the page without overlapping (as the renderer lays them
    /// out), and no two boxes or marks overlap. Returns each reason's label and note with their
    /// lines.
    func checkReasonPlacement(
        _ reasons: [Reason], layout: ReasonLayout, pageSize: (Int) -> PageSize
    ) throws(FormError) -> [[(key: String, block: TextBlock, lines: [TextLine])]] {
        var laidOut: [[(key: String, block: TextBlock, lines: [TextLine])]] = []
        var previousBottom: [Int: Double] = [:]
        var boxes: [(index: Int, page: Int, rect: Rect)] = []
        var marks: [(index: Int, page: Int, rect: Rect)] = []
        let markBytes = layout.markFont.encode(layout.markText)!
        let markExtent = layout.markFont.verticalExtent(markBytes, size: layout.markSize)
        let markWidth = layout.markFont.width(markBytes, size: layout.markSize)
        for (index, reason) in reasons.enumerated() {
            let path = "reasons[\(index)]"
            let page = pageSize(reason.page)
            let (label, note) = layout.textBlocks(of: reason)
            guard label.y + layout.textSize <= previousBottom[reason.page, default: .infinity] else {
                throw fail(
                    "\(path).y",
                    "le motif \(index) (\(reason.code)) chevauche le précédent ; réduisez textSize ou écartez les motifs."
                )
            }
            let labelLines = try checkFits(label, path: "\(path).label", page: page)
            laidOut.append([("label", label, labelLines)])
            var lastBaseline = label.y - Double(labelLines.count - 1) * layout.textLeading
            var lastSize = layout.textSize
            if let note {
                let noteLines = try checkFits(note, path: "\(path).note", page: page)
                laidOut[laidOut.count - 1].append(("note", note, noteLines))
                lastBaseline = note.y - Double(noteLines.count - 1) * layout.noteLeading
                lastSize = layout.noteSize
            }
            guard lastBaseline >= 0 else { throw fail("\(path).y", "le texte du motif sort du bas de la page.") }
            previousBottom[reason.page] = lastBaseline - lastSize * 0.25

            let boxBottom = reason.y + layout.boxDY(of: reason)
            switch layout.box {
            case .square:
                boxes.append(
                    (
                        index, reason.page,
                        Rect(x: layout.boxX, y: boxBottom, width: layout.boxSize, height: layout.boxSize)
                    ))
            case .text:
                let bytes = layout.boxFont.encode(layout.boxText!)!
                let extent = layout.boxFont.verticalExtent(bytes, size: layout.boxSize)
                boxes.append(
                    (
                        index, reason.page,
                        Rect(
                            x: layout.boxX, y: boxBottom + extent.bottom,
                            width: layout.boxFont.width(bytes, size: layout.boxSize), height: extent.top - extent.bottom
                        )
                    ))
            case .none:
                break
            }
            marks.append(
                (
                    index, reason.page,
                    Rect(
                        x: layout.markX, y: reason.y + markExtent.bottom, width: markWidth,
                        height: markExtent.top - markExtent.bottom)
                ))
            for rect in [boxes.last?.rect, marks.last?.rect].compactMap({ $0 })
            where rect.y < 0 || rect.y + rect.height > page.height {
                throw fail("\(path).y", "la case ou la marque du motif sort de la page.")
            }
        }
        for (kind, list) in [("case", boxes), ("marque", marks)] {
            for (i, a) in list.enumerated() {
                for b in list[..<i] where a.page == b.page && a.rect.overlaps(b.rect) {
                    throw fail(
                        "reasons[\(a.index)].y",
                        "la \(kind) de ce motif chevauche celle de reasons[\(b.index)] ; écartez les motifs ou réduisez leur taille."
                    )
                }
            }
        }
        return laidOut
    }

    /// No reason's label or note runs into a fixed text: the ink of their lines (each piece's
    /// glyphs, from its font's bounding boxes) does not overlap.
    func checkReasonsClearOf(
        _ fixed: [(path: String, block: TextBlock)], reasons: [Reason],
        lines: [[(key: String, block: TextBlock, lines: [TextLine])]]
    ) throws(FormError) {
        let fixedInk = fixed.map { (path: $0.path, page: $0.block.page, rects: Self.ink(of: $0.block.lines)) }
        for (index, reason) in reasons.enumerated() {
            for (key, block, blockLines) in lines[index] {
                let rects = Self.ink(of: blockLines)
                for other in fixedInk where other.page == block.page {
                    guard let hit = other.rects.first(where: { a in rects.contains { $0.rect.overlaps(a.rect) } })
                    else { continue }
                    throw fail(
                        "reasons[\(index)].\(key)",
                        "le texte du motif \(reason.code) chevauche \(other.path) (« \(hit.text) ») ; déplacez l’un ou l’autre, ou réduisez leur taille."
                    )
                }
            }
        }
    }

    /// Where each piece of a block's lines puts ink, with its text for messages.
    static func ink(of lines: [TextLine]) -> [(rect: Rect, text: String)] {
        lines.flatMap(\.pieces).compactMap { piece in
            guard piece.bytes.contains(where: { $0 != 0x20 }) else { return nil }
            let extent = piece.font.verticalExtent(piece.bytes, size: piece.size)
            let spaces = Double(piece.bytes.filter { $0 == 0x20 }.count)
            let width = piece.font.width(piece.bytes, size: piece.size) + spaces * piece.wordSpacing
            return (
                Rect(x: piece.x, y: piece.y + extent.bottom, width: width, height: extent.top - extent.bottom),
                piece.text
            )
        }
    }

    struct Rect {
        let x, y, width, height: Double
        func overlaps(_ other: Rect) -> Bool {
            min(x + width, other.x + other.width) - max(x, other.x) > TextMeasure.tolerance
                && min(y + height, other.y + other.height) - max(y, other.y) > TextMeasure.tolerance
        }
    }

}
