import AttestationKit
import Foundation

/// The fixed texts and the fields' slots of a form: each measured and placed at load.
extension FormBuilder {

    func richText(
        _ document: RichTextDocument, font: TextFont, size: Double, path: String
    ) throws(FormError) -> RichText {
        var runs: [TextRun] = []
        for (index, part) in document.parts.enumerated() {
            let partPath = document.isString ? path : "\(path)[\(index)]"
            switch part {
            case .plain(let text):
                runs.append(TextRun(text: text))
            case .run(let run):
                let runFont: TextFont? = try run.font.map { name throws(FormError) in
                    try self.font(name, at: "\(partPath).font")
                }
                if let runSize = run.size { try checkSize(runSize, path: "\(partPath).size") }
                let rise = run.rise ?? 0
                guard abs(rise) <= size else {
                    throw fail(
                        "\(partPath).rise", "décalage de la ligne de base entre −size et size attendu (\(size) points)."
                    )
                }
                guard !run.text.isEmpty else { throw fail("\(partPath).text", "texte vide.") }
                runs.append(TextRun(text: run.text, font: runFont, size: run.size, rise: rise))
            }
        }
        for (index, run) in runs.enumerated() {
            let runPath = document.isString ? path : "\(path)[\(index)]"
            let runFont = run.font ?? font
            let text = run.text.replacingOccurrences(of: "\n", with: "")
            guard runFont.encode(text) != nil else {
                let hint =
                    runFont.usesWinAnsi
                    ? "seuls les caractères de Windows-1252 sont acceptés dans le texte fixe d’un formulaire en \(runFont.rawValue)"
                    : "\(runFont.rawValue) prend les codes U+0020 à U+00FF de son propre encodage"
                throw fail(
                    runPath,
                    "texte hors de l’encodage de la police (\(Self.firstUnencodable(text, in: runFont))) ; \(hint).")
            }
        }
        return RichText(runs: runs)
    }

    static func firstUnencodable(_ text: String, in font: TextFont) -> String {
        for character in text where font.encode(String(character)) == nil {
            let code = character.unicodeScalars.map { "U+" + String($0.value, radix: 16, uppercase: true) }.joined(
                separator: " ")
            return "« \(character) », \(code)"
        }
        return "?"
    }

    func textBlock(_ d: TextBlockDocument, path: String, pageSize: (Int) -> PageSize) throws(FormError) -> TextBlock {
        let page = try pageNumber(d.page, path: "\(path).page")
        let size = pageSize(page)
        let font = try blockFont(d.font, style: d.style, path: path)
        try checkSize(d.size, path: "\(path).size")
        try checkPoint(d.x, within: size.width, path: "\(path).x")
        try checkPoint(d.y, within: size.height, path: "\(path).y")
        // Every length is bounded by the page too: the renderer writes positions as integers of
        // hundredths of a point, and a length near 1e17 overflowed them, which crashed the
        // server as it loaded the form.
        guard (d.width ?? 1) > 0, (d.width ?? 0) <= size.width, (d.leading ?? 1) > 0, (d.leading ?? 0) <= size.height
        else {
            throw fail(path, "width et leading doivent être positifs et tenir dans la page.")
        }
        let align: TextBlock.Alignment? = try d.align.map { value throws(FormError) in
            try choice(value, path: "\(path).align")
        }
        var color: RGBColor?
        if let hex = d.color {
            guard let parsed = RGBColor(hex: hex) else {
                throw fail(
                    "\(path).color", "couleur « \(hex) » invalide ; #rrggbb attendu (#000000 noir, #ffffff blanc).")
            }
            color = parsed
        }
        let content = try richText(d.text, font: font, size: d.size, path: "\(path).text")
        let block = TextBlock(
            content: content, x: d.x, y: d.y, size: d.size, font: font, width: d.width, leading: d.leading,
            align: align, color: color, page: page)
        if checksLayout { try checkFits(block, path: path, page: size) }
        return block
    }

    /// Every line of the block within the page, and within its width when it has one.
    @discardableResult
    func checkFits(_ block: TextBlock, path: String, page: PageSize) throws(FormError) -> [TextLine] {
        let lines = block.lines
        for (index, line) in lines.enumerated() {
            let indent = index == 0 ? block.firstLineIndent : 0
            let right = block.x + (block.width ?? indent + line.width)
            if let width = block.width, line.squeezedWidth > width - indent + TextMeasure.tolerance {
                throw fail(
                    "\(path).text",
                    "la ligne « \(line.text) » (\(Self.points(line.width))) dépasse width (\(Self.points(width - indent))) ; élargissez width, réduisez size, ou coupez-la par \\n."
                )
            }
            guard block.x + indent + line.width <= page.width + TextMeasure.tolerance,
                right <= page.width + TextMeasure.tolerance
            else {
                throw fail(
                    "\(path).text",
                    "la ligne « \(line.text) » (\(Self.points(line.width)) à partir de x = \(Self.points(block.x))) sort de la page (\(Self.points(page.width))) ; donnez width pour la couper, ou réduisez size."
                )
            }
        }
        let last = block.y - Double(lines.count - 1) * block.lineHeight
        guard last >= 0 else {
            throw fail(
                "\(path).text",
                "\(lines.count) lignes à partir de y = \(Self.points(block.y)) : la dernière sort du bas de la page.")
        }
        return lines
    }

    static func points(_ value: Double) -> String {
        let rounded = (value * 10).rounded() / 10
        return rounded == rounded.rounded() ? "\(Int(rounded)) pt" : "\(rounded) pt"
    }

    // MARK: - Fields

    func fieldSlot(
        _ d: FieldDocument, path: String, foldsValues: Bool, pageSize: (Int) -> PageSize
    ) throws(FormError) -> FieldSlot {
        let page = try pageNumber(d.page, path: "\(path).page")
        let size = pageSize(page)
        let names = FieldValues.names(in: d.value)
        guard !names.isEmpty else {
            throw fail(
                "\(path).value",
                "aucune variable ; un champ écrit une valeur de la personne, par exemple {firstName} {lastName} (un texte fixe va dans texts)."
            )
        }
        for name in names where !FieldValues.placeholders.contains(name) {
            throw fail("\(path).value", "variable inconnue {\(name)} ; acceptées : \(Self.knownPlaceholders).")
        }
        let label = try d.label.map { block throws(FormError) in
            try textBlock(block, path: "\(path).label", pageSize: pageSize)
        }
        let (x, y) = try fieldOrigin(d, label: label, path: path)
        try checkPoint(x, within: size.width, path: "\(path).x")
        try checkPoint(y, within: size.height, path: "\(path).y")
        guard d.maxWidth > 0, x + d.maxWidth <= size.width else {
            throw fail("\(path).maxWidth", "la largeur doit rester dans la page.")
        }
        let start = d.size ?? 11
        guard start > 0, start <= 72, (d.minSize ?? start) > 0, (d.minSize ?? start) <= start else {
            throw fail("\(path).size", "tailles positives attendues, minSize ≤ size ≤ 72.")
        }
        guard (d.fitWidth ?? 1) > 0, (d.fitWidth ?? 0) <= size.width else {
            throw fail("\(path).fitWidth", "largeur positive, dans la page, attendue.")
        }
        let font = try self.font(d.font, at: "\(path).font", winAnsiOnly: true)
        return FieldSlot(
            value: d.value, label: label, x: x, y: y, maxWidth: d.maxWidth, size: d.size, minSize: d.minSize,
            fitWidth: d.fitWidth, font: font, page: page, foldsValues: foldsValues,
            continuesLabel: d.afterLabel == true)
    }

    /// Where a value starts: its `x` and `y`, or, with `afterLabel`, the end of its label's
    /// single line and one space of the label's last font, on the label's baseline.
    private func fieldOrigin(
        _ d: FieldDocument, label: TextBlock?, path: String
    ) throws(FormError) -> (x: Double, y: Double) {
        guard d.afterLabel == true else {
            guard let x = d.x else { throw fail("\(path).x", "clé obligatoire absente (ou afterLabel: true).") }
            guard let y = d.y else { throw fail("\(path).y", "clé obligatoire absente (ou afterLabel: true).") }
            return (x, y)
        }
        guard d.x == nil, d.y == nil else {
            throw fail(
                "\(path).afterLabel", "afterLabel place la valeur après son libellé : x et y ne se donnent pas avec.")
        }
        guard let label, let line = label.lines.first, label.lines.count == 1,
            let piece = line.pieces.last, label.page == (d.page ?? 1)
        else {
            throw fail(
                "\(path).afterLabel",
                "afterLabel demande un libellé d’une seule ligne (label), sur la page du champ.")
        }
        let space = piece.font.width([0x20], size: piece.size)
        return (piece.x + piece.font.width(piece.bytes, size: piece.size) + space, line.baseline)
    }

    static var knownPlaceholders: String { FieldValues.placeholders.sorted().map { "{\($0)}" }.joined(separator: ", ") }

}
