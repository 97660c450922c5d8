import AttestationKit
import Foundation

/// Turns a version 2 document into forms, checking everything JSON decoding alone cannot: what
/// would fail when drawing or encoding an attestation is refused here, at load time, with its
/// JSON path, rather than at every request.
struct FormBuilder {
    let document: FormDocumentV2
    let source: String
    let positions: StrictJSON.Positions
    /// How the paths of a version 1 document are named (`fields[3]` is `fields.address`).
    let pathAliases: [(version2: String, version1: String)]
    /// Where the files the form names (`fonts`, `images[].file`) are read.
    let files: FormFiles
    /// The form's own fonts (`fonts`) by the name its texts use.
    private(set) var fontFiles: [FontFile] = []

    /// Page width and height accepted, in points: libharu's bounds for a page
    /// (HPDF_MIN_PAGE_SIZE, HPDF_MAX_PAGE_SIZE); outside them every document of the form failed.
    static let pageSizes = 3.0...14_400.0
    /// Font sizes accepted, in points.
    static let fontSizes = 0.0...72.0
    /// A link holds at most 32 reasons (`LinkToken.maximumReasons`).
    static let maximumReasons = 32

    init(
        document: FormDocumentV2, source: String, positions: StrictJSON.Positions,
        pathAliases: [(version2: String, version1: String)] = [], files: FormFiles? = nil
    ) throws(FormError) {
        (self.document, self.source, self.positions, self.pathAliases) = (document, source, positions, pathAliases)
        self.files = files ?? .directory(URL(fileURLWithPath: source).deletingLastPathComponent())
        fontFiles = try readFonts()
    }

    /// The font files of `fonts`, each a file name beside the form (`source`'s directory), or
    /// built in: a TrueType font, under a name no standard font has.
    private func readFonts() throws(FormError) -> [FontFile] {
        var files: [FontFile] = []
        for (index, entry) in (document.fonts ?? []).enumerated() {
            let path = "fonts[\(index)]"
            guard entry.name.wholeMatch(of: /[A-Za-z0-9][A-Za-z0-9-]{0,62}/) != nil,
                StandardFont(rawValue: entry.name) == nil,
                !files.contains(where: { $0.name == entry.name })
            else {
                throw fail(
                    "\(path).name",
                    "nom de police invalide ou déjà pris ; lettres, chiffres et tirets (63 au plus), autre que les 14 polices standard et les autres polices du formulaire."
                )
            }
            guard entry.file.wholeMatch(of: /[A-Za-z0-9_][A-Za-z0-9._-]{0,127}\.(ttf|TTF|otf|OTF)/) != nil else {
                throw fail(
                    "\(path).file",
                    "nom de fichier invalide ; un fichier .ttf à côté du formulaire est attendu (lettres, chiffres, « . », « _ », « - », sans dossier)."
                )
            }
            let file: (bytes: [UInt8], path: String, isBuiltIn: Bool)
            do {
                file = try self.files.read(entry.file, limit: FontFile.maximumBytes)
            } catch {
                throw fail("\(path).file", "police « \(entry.file) » inutilisable : \(error.reason).")
            }
            do {
                files.append(
                    try FontFile(
                        name: entry.name, fileName: entry.file, path: file.path, bytes: file.bytes,
                        builtIn: file.isBuiltIn))
            } catch {
                throw fail("\(path).file", "police « \(entry.file) » inutilisable : \(error.reason).")
            }
        }
        return files
    }

    func build() throws(FormError) -> [Form] {
        let d = document
        guard d.id.wholeMatch(of: /[a-z0-9][a-z0-9-]{0,63}/) != nil else {
            throw fail("id", "identifiant invalide ; minuscules, chiffres et tirets attendus (64 au plus).")
        }
        let laterPages = try self.laterPages()
        func pageSize(_ number: Int) -> PageSize {
            number <= 1 || laterPages.isEmpty ? d.page : laterPages[min(number - 2, laterPages.count - 1)]
        }

        let title = try textBlock(d.title, path: "title", pageSize: pageSize)
        let legalText = try textBlock(d.legalText, path: "legalText", pageSize: pageSize)
        var texts: [TextBlock] = []
        for (index, block) in (d.texts ?? []).enumerated() {
            texts.append(try textBlock(block, path: "texts[\(index)]", pageSize: pageSize))
        }
        guard !d.fields.isEmpty else { throw fail("fields", "au moins un champ est attendu.") }
        var fields: [FieldSlot] = []
        for (index, field) in d.fields.enumerated() {
            fields.append(
                try fieldSlot(
                    field, path: "fields[\(index)]", foldsValues: d.foldPrintedValues ?? false, pageSize: pageSize))
        }
        let layout = try reasonLayout(
            d.reasonLayout, path: "reasonLayout", pageWidth: d.page.width, pageHeight: d.page.height)
        let reasons = try self.reasons(layout: layout, pageSize: pageSize)
        // Each reason's label and note laid out once for both checks: a layout is the larger part
        // of building a form, and a server builds every built-in form at its start.
        let reasonLines = try checkReasonPlacement(reasons, layout: layout, pageSize: pageSize)
        try checkReasonsClearOf(
            [("title", title), ("legalText", legalText)]
                + texts.enumerated().map { ("texts[\($0.offset)]", $0.element) },
            reasons: reasons, lines: reasonLines)
        let selection: ReasonSelection = try choice(
            d.selection ?? ReasonSelection.oneOrMore.rawValue, path: "selection")
        let rules = try self.rules(pageSize: pageSize)
        let images = try self.images(pageSize: pageSize)
        let payload = try qrPayload(reasons: reasons)
        let placements = try qrCodes(pageSize: pageSize)

        let start = try inForceStart()
        let until = try inForceUntil(after: start)

        func form(
            id: String, name: String, offered: Set<String>?, context: (id: String, name: String?)?
        )
            throws(FormError) -> Form
        {
            let printed = reasons.map { reason in
                guard let offered, !offered.contains(reason.code) else { return reason }
                return Reason(
                    code: reason.code, number: reason.number, printedNumber: reason.printedNumber,
                    shortLabel: reason.shortLabel, labelText: reason.labelText, noteText: reason.noteText, y: reason.y,
                    textDY: reason.textDY, boxDY: reason.boxDY, page: reason.page, offered: false,
                    continues: reason.continues)
            }
            let chosen = printed.filter(\.offered)
            guard !chosen.isEmpty else { throw fail("reasons", "au moins un motif proposé est attendu (offered).") }
            return Form(
                id: id, name: name, page: d.page, laterPages: laterPages,
                foldsPrintedValues: d.foldPrintedValues ?? false, metadata: d.metadata, title: title,
                legalText: legalText, texts: texts, fields: fields, reasons: chosen, printedReasons: printed,
                reasonLayout: layout, selection: selection, rules: rules, images: images, fonts: fontFiles,
                qrPayload: payload,
                qrCodes: placements,
                attestationRules: FormRules(
                    id: id, reasons: chosen.map(\.choice), selection: selection, qrPayload: payload,
                    usesBirthPlace: (fields.map(\.value) + payload.lines).contains {
                        FieldValues.placeholderNames(in: $0).contains(Identity.Field.birthPlace.rawValue)
                    }),
                inForce: start.map {
                    InForce(start: $0, context: context?.id, contextName: context?.name, until: until)
                })
        }

        guard let contexts = d.contexts else {
            let context = try d.inForce?.context.map { (id) throws(FormError) in
                guard id.wholeMatch(of: /[a-z0-9][a-z0-9-]{0,31}/) != nil else {
                    throw fail(
                        "inForce.context",
                        "identifiant de contexte invalide ; minuscules, chiffres et tirets (32 au plus).")
                }
                return (id: id, name: d.inForce?.contextName)
            }
            if context == nil, d.inForce?.contextName != nil {
                throw fail(
                    "inForce.contextName", "un nom de contexte va avec inForce.context ; ajoutez-le ou retirez ce nom.")
            }
            return [try form(id: d.id, name: d.name, offered: nil, context: context)]
        }
        if d.inForce?.context != nil || d.inForce?.contextName != nil {
            throw fail(
                "inForce.context",
                "ce formulaire a ses contextes (contexts) ; inForce.context ne s’applique qu’à un formulaire sans contexts."
            )
        }
        guard !contexts.isEmpty else {
            throw fail("contexts", "au moins un contexte est attendu, ou pas de clé contexts.")
        }
        var forms: [Form] = []
        for (index, context) in contexts.enumerated() {
            let path = "contexts[\(index)]"
            let id = "\(d.id)-\(context.id)"
            guard context.id.wholeMatch(of: /[a-z0-9][a-z0-9-]*/) != nil, id.count <= 64 else {
                throw fail(
                    "\(path).id",
                    "identifiant de contexte invalide ; minuscules, chiffres et tirets, l’id du formulaire et lui 64 caractères au plus."
                )
            }
            guard !forms.contains(where: { $0.id == id }) else {
                throw fail("\(path).id", "contexte « \(context.id) » en double.")
            }
            guard !context.reasons.isEmpty else {
                throw fail("\(path).reasons", "au moins un code de motif est attendu.")
            }
            for (position, code) in context.reasons.enumerated() {
                guard reasons.contains(where: { $0.code == code }) else {
                    throw fail(
                        "\(path).reasons[\(position)]",
                        "motif « \(code) » inconnu ; codes des motifs du formulaire attendus.")
                }
                guard context.reasons.firstIndex(of: code) == position else {
                    throw fail("\(path).reasons[\(position)]", "motif « \(code) » en double.")
                }
            }
            let name = context.name.map { "\(d.name) (\($0))" } ?? "\(d.name) (\(context.id))"
            forms.append(
                try form(
                    id: id, name: name, offered: Set(context.reasons), context: (id: context.id, name: context.name)))
        }
        return forms
    }

    // MARK: - Calendar

    /// `inForce.until`: Paris time, after `inForce.from`.
    func inForceUntil(after start: Date?) throws(FormError) -> Date? {
        guard let text = document.inForce?.until else { return nil }
        guard let start, let until = Self.parisInstant(text), until > start else {
            throw fail(
                "inForce.until",
                "fin invalide « \(text) » ; heure de Paris après inForce.from attendue, AAAA-MM-JJTHH:MM (2021-06-20T06:00)."
            )
        }
        return until
    }

    /// `inForce.from`: Paris time, `YYYY-MM-DDTHH:MM`, a time that exists there (not in the hour
    /// skipped in spring).
    func inForceStart() throws(FormError) -> Date? {
        guard let text = document.inForce?.from else { return nil }
        guard let start = Self.parisInstant(text) else {
            throw fail(
                "inForce.from",
                "date d’entrée en vigueur invalide « \(text) » ; heure de Paris attendue, AAAA-MM-JJTHH:MM (2020-12-15T20:00)."
            )
        }
        return start
    }

    /// `2020-12-15T20:00`, Paris time, as an instant; nil when malformed or not a time of Paris.
    static func parisInstant(_ text: String) -> Date? {
        guard let match = text.wholeMatch(of: /(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})/),
            let year = Int(match.1), (2000...9999).contains(year), let month = Int(match.2), let day = Int(match.3),
            let hour = Int(match.4), (0...23).contains(hour), let minute = Int(match.5), (0...59).contains(minute),
            let date = CalendarDate(year: year, month: month, day: day)
        else { return nil }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = .paris
        guard
            let instant = calendar.date(
                from: DateComponents(year: date.year, month: date.month, day: date.day, hour: hour, minute: minute))
        else { return nil }
        let local = LocalDateTime(instant, in: .paris)
        guard local.date == date, local.hour == hour, local.minute == minute else { return nil }
        return instant
    }

    /// A reason's `continues`: codes of earlier versions, each once, not its own.
    func continues(_ codes: [String]?, of code: String, path: String) throws(FormError) -> [String] {
        guard let codes else { return [] }
        for (index, earlier) in codes.enumerated() {
            guard earlier.wholeMatch(of: /[a-z][a-z0-9_]{0,31}/) != nil, earlier != code,
                codes.firstIndex(of: earlier) == index
            else {
                throw fail(
                    "\(path).continues[\(index)]",
                    "code « \(earlier) » refusé ; codes de motifs de versions antérieures attendus (minuscules, chiffres et _), chacun une fois, autres que celui du motif."
                )
            }
        }
        return codes
    }

    // MARK: - Errors

    func fail(_ path: String, _ message: String) -> FormError {
        let position = positions.of(path) ?? positions.of(Self.parent(of: path))
        var shown = path
        for alias in pathAliases
        where shown == alias.version2 || shown.hasPrefix(alias.version2 + ".") || shown.hasPrefix(alias.version2 + "[")
        {
            shown = alias.version1 + shown.dropFirst(alias.version2.count)
        }
        return FormError(source: source, path: shown, message: message, line: position?.line, column: position?.column)
    }

    /// `reasons[2].y` → `reasons[2]`; `page` → the document.
    static func parent(of path: String) -> String {
        guard let cut = path.lastIndex(where: { $0 == "." || $0 == "[" }) else { return "" }
        return String(path[..<cut])
    }

    /// A value among `T`'s, or an error listing them.
    func choice<T: RawRepresentable & CaseIterable>(_ value: String, path: String) throws(FormError) -> T
    where T.RawValue == String {
        guard let result = T(rawValue: value) else {
            throw fail(
                path,
                "valeur « \(value) » inconnue ; acceptées : \(T.allCases.map(\.rawValue).joined(separator: ", ")).")
        }
        return result
    }

    /// The font of a text block: version 1's `style` (a Helvetica) or `font`, not both.
    func blockFont(_ name: String?, style: String?, path: String) throws(FormError) -> TextFont {
        guard let style else { return try font(name, at: "\(path).font") }
        guard name == nil else { throw fail("\(path).style", "style et font s’excluent ; donnez l’un ou l’autre.") }
        let chosen: FontStyle = try choice(style, path: "\(path).style")
        return .standard(StandardFont(style: chosen))
    }

    /// The font named at `keyPath` (a standard font, or one of the form's `fonts`), Helvetica
    /// when absent.
    func font(_ name: String?, at keyPath: String, winAnsiOnly: Bool = false) throws(FormError) -> TextFont {
        guard let name else { return .helvetica }
        if let file = fontFiles.first(where: { $0.name == name }) { return .file(file) }
        guard let standard = StandardFont(rawValue: name) else {
            let own =
                fontFiles.isEmpty ? "" : ", et celles du formulaire : \(fontFiles.map(\.name).joined(separator: ", "))"
            throw fail(
                keyPath,
                "police « \(name) » inconnue ; acceptées (les 14 polices standard du PDF) : \(StandardFont.accepted)\(own)."
            )
        }
        let font = TextFont.standard(standard)
        guard !winAnsiOnly || font.usesWinAnsi else {
            throw fail(
                keyPath,
                "\(name) n’a pas les lettres latines ; une police de texte est attendue (Helvetica, Times-Roman, Courier…)."
            )
        }
        return font
    }

    // MARK: - Positions

    func checkPage(_ page: PageSize, path: String) throws(FormError) {
        guard Self.pageSizes.contains(page.width), Self.pageSizes.contains(page.height) else {
            throw fail(
                path,
                "dimensions de \(Int(Self.pageSizes.lowerBound)) à \(Int(Self.pageSizes.upperBound)) points attendues (limites d’une page PDF)."
            )
        }
    }

    func checkPoint(_ value: Double, within limit: Double, path: String) throws(FormError) {
        guard value >= 0, value <= limit else {
            throw fail(path, "position hors de la page (0 à \(limit)).")
        }
    }

    func pageNumber(_ value: Int?, path: String) throws(FormError) -> Int {
        let page = value ?? 1
        guard (1...Form.maximumPages).contains(page) else {
            throw fail(path, "page \(page) invalide ; un numéro de page de 1 à \(Form.maximumPages) est attendu.")
        }
        return page
    }

    /// The sizes of pages 2, 3, …: `secondPage` (one size) or `laterPages` (a list), not both.
    func laterPages() throws(FormError) -> [PageSize] {
        let d = document
        try checkPage(d.page, path: "page")
        if let second = d.secondPage {
            guard d.laterPages == nil else {
                throw fail(
                    "laterPages",
                    "secondPage ou laterPages, pas les deux ; laterPages donne les pages 2, 3, … dans l’ordre.")
            }
            try checkPage(second, path: "secondPage")
            return [second]
        }
        guard let later = d.laterPages else { return [] }
        guard (1..<Form.maximumPages).contains(later.count) else {
            throw fail(
                "laterPages",
                "de 1 à \(Form.maximumPages - 1) tailles attendues (pages 2 à \(Form.maximumPages)), \(later.count) données."
            )
        }
        for (index, size) in later.enumerated() { try checkPage(size, path: "laterPages[\(index)]") }
        return later
    }

    func checkSize(_ size: Double, path: String) throws(FormError) {
        guard size > 0, Self.fontSizes.contains(size) else {
            throw fail(path, "taille de police entre 0 et 72 attendue.")
        }
    }

    // MARK: - Text

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
        try checkFits(block, path: path, page: size)
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

    // MARK: - Reasons

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
            guard reason.code.wholeMatch(of: /[a-z][a-z0-9_]{0,31}/) != nil else {
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

    // MARK: - Lines, pictures, QR code

    func rules(pageSize: (Int) -> PageSize) throws(FormError) -> [Rule]? {
        guard let documents = document.rules else { return nil }
        var rules: [Rule] = []
        for (index, rule) in documents.enumerated() {
            let path = "rules[\(index)]"
            let page = try pageNumber(rule.page, path: "\(path).page")
            let size = pageSize(page)
            let vertical = rule.vertical ?? false
            try checkPoint(rule.x, within: size.width, path: "\(path).x")
            try checkPoint(rule.y, within: size.height, path: "\(path).y")
            guard rule.length > 0, (vertical ? rule.y : rule.x) + rule.length <= (vertical ? size.height : size.width)
            else {
                throw fail(
                    "\(path).length",
                    "longueur positive, dans la page, attendue (vers \(vertical ? "le haut" : "la droite") depuis x, y)."
                )
            }
            let thickness = rule.thickness ?? Rule.defaultThickness
            guard thickness > 0, thickness <= Rule.maximumThickness else {
                throw fail(
                    "\(path).thickness",
                    "épaisseur de plus de 0 à \(Self.points(Rule.maximumThickness)) attendue (défaut \(Rule.defaultThickness))."
                )
            }
            guard (rule.dash ?? [1]).allSatisfy({ (1...100).contains($0) }) else {
                throw fail("\(path).dash", "longueurs entières de 1 à 100 attendues.")
            }
            rules.append(
                Rule(
                    page: page, x: rule.x, y: rule.y, length: rule.length, vertical: vertical, thickness: thickness,
                    dash: rule.dash))
        }
        return rules
    }

    func images(pageSize: (Int) -> PageSize) throws(FormError) -> [FormImage] {
        var images: [FormImage] = []
        for (index, image) in (document.images ?? []).enumerated() {
            let path = "images[\(index)]"
            let page = try pageNumber(image.page, path: "\(path).page")
            let size = pageSize(page)
            let data: [UInt8]
            let key: String
            switch (image.data, image.file) {
            case (let base64?, nil):
                key = "\(path).data"
                guard let decoded = Data(base64Encoded: base64) else {
                    throw fail(
                        key,
                        "base64 invalide ; le contenu d’un fichier PNG ou JPEG en base64 est attendu (base64 -w0 logo.png)."
                    )
                }
                data = [UInt8](decoded)
            case (nil, let file?):
                key = "\(path).file"
                guard file.wholeMatch(of: /[A-Za-z0-9_][A-Za-z0-9._-]{0,127}\.(png|PNG|jpg|JPG|jpeg|JPEG)/) != nil
                else {
                    throw fail(
                        key,
                        "nom de fichier invalide ; un fichier .png ou .jpg à côté du formulaire est attendu (lettres, chiffres, « . », « _ », « - », sans dossier)."
                    )
                }
                do {
                    data = try files.read(file, limit: FormImage.maximumBytes).bytes
                } catch {
                    throw fail(key, "image « \(file) » inutilisable : \(error.reason).")
                }
            default:
                throw fail(path, "data ou file attendu, l’un des deux : l’image en base64, ou le nom de son fichier.")
            }
            guard data.count <= FormImage.maximumBytes else {
                throw fail(
                    key, "image trop grande (\(data.count / 1024) Kio) ; \(FormImage.maximumBytes / 1024) Kio au plus.")
            }
            guard let header = ImageHeader(bytes: data) else {
                throw fail(key, "ni PNG ni JPEG lisible ; une image PNG ou JPEG est attendue.")
            }
            guard image.width > 0, image.height > 0, image.x >= 0, image.y >= 0,
                image.x + image.width <= size.width, image.y + image.height <= size.height
            else {
                throw fail(path, "l’image doit tenir dans la page (x, y, width, height en points).")
            }
            images.append(
                FormImage(
                    page: page, x: image.x, y: image.y, width: image.width, height: image.height,
                    format: header.format, bytes: data, pixelWidth: header.width, pixelHeight: header.height,
                    fileName: image.file))
        }
        return images
    }

    func qrPayload(reasons: [Reason]) throws(FormError) -> QRPayloadFormat {
        let d = document.qrPayload
        for (index, line) in d.lines.enumerated() {
            for name in FieldValues.names(in: line) where !FieldValues.placeholders.contains(name) {
                throw fail(
                    "qrPayload.lines[\(index)]", "variable inconnue {\(name)} ; acceptées : \(Self.knownPlaceholders).")
            }
        }
        let format = QRPayloadFormat(
            lines: d.lines, separator: d.separator, trailingSeparator: d.trailingSeparator,
            asciiFolding: d.asciiFolding ?? true)
        let longest = format.longestBytes(reasonCodes: reasons.map(\.code))
        guard longest <= QRPayloadFormat.maximumBytes else {
            throw fail(
                "qrPayload",
                "trop long pour un QR code avec les valeurs les plus longues (\(longest) octets, \(QRPayloadFormat.maximumBytes) au plus) ; raccourcissez le texte fixe."
            )
        }
        return format
    }

    func qrCodes(pageSize: (Int) -> PageSize) throws(FormError) -> [QRPlacement] {
        let placements = document.qrCodes
        guard !placements.isEmpty else { throw fail("qrCodes", "au moins un QR code est attendu.") }
        for (index, placement) in placements.enumerated() {
            _ = try pageNumber(placement.page, path: "qrCodes[\(index)].page")
            let size = pageSize(placement.page)
            guard placement.size > 0, placement.x >= 0, placement.y >= 0,
                placement.x + placement.size <= size.width, placement.y + placement.size <= size.height
            else {
                throw fail("qrCodes[\(index)]", "le QR code doit tenir dans la page.")
            }
        }
        return placements
    }
}

/// The format and pixel size of a PNG or JPEG, from its first bytes.
struct ImageHeader {
    let format: FormImage.Format
    let width: Int
    let height: Int

    init?(bytes: [UInt8]) {
        func bigEndian(_ offset: Int, _ count: Int) -> Int {
            (offset..<offset + count).reduce(0) { $0 << 8 | Int(bytes[$1]) }
        }
        if bytes.count >= 24, bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]),
            bytes[12..<16].elementsEqual("IHDR".utf8)
        {
            (format, width, height) = (.png, bigEndian(16, 4), bigEndian(20, 4))
        } else if bytes.starts(with: [0xFF, 0xD8]) {
            // Segments until a start of frame (SOF0–SOF15 but DHT, JPG and DAC), which holds
            // the height then the width.
            var offset = 2
            var found: (Int, Int)?
            while offset + 9 < bytes.count, bytes[offset] == 0xFF {
                let marker = bytes[offset + 1]
                let length = bigEndian(offset + 2, 2)
                if (0xC0...0xCF).contains(marker), ![0xC4, 0xC8, 0xCC].contains(marker) {
                    found = (bigEndian(offset + 7, 2), bigEndian(offset + 5, 2))
                    break
                }
                guard length >= 2 else { break }
                offset += 2 + length
            }
            guard let found else { return nil }
            (format, width, height) = (.jpeg, found.0, found.1)
        } else {
            return nil
        }
        guard width > 0, height > 0 else { return nil }
    }
}
