import AttestationKit
import Foundation

/// Turns a version 2 document into forms, checking everything JSON decoding alone cannot: what
/// would fail when drawing or encoding an attestation is refused here, at load time, with its
/// JSON path, rather than at every request.
///
/// The layout checks (every line within the page and its width, reasons that do not overlap
/// each other nor the fixed texts) lay out every text of the form, and were 3/4 of the cost of
/// building the 16 built-in documents, which every process pays at its start
/// (`attestation-admin forms`: 1.43 s of CPU under the address sanitizer, 0.18 s in release;
/// perf: `checkFits`, `checkReasonPlacement`, `checkReasonsClearOf` and the layouts they ask).
/// A built-in document cannot change after the build, so its layout is checked by the tests
/// (`FormSchemaTests.BuiltInFormCheckTests`), not at each start: `checksLayout` is false for it
/// alone. An added form, or a copy of a built-in one, is always checked.
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
    /// Whether the texts' layout is checked (see the type's comment): as `FormCatalog.decodeForms`
    /// decides, for all but built-in documents.
    let checksLayout: Bool

    /// Page width and height accepted, in points: libharu's bounds for a page
    /// (HPDF_MIN_PAGE_SIZE, HPDF_MAX_PAGE_SIZE); outside them every document of the form failed.
    static let pageSizes = 3.0...14_400.0
    /// Font sizes accepted, in points.
    static let fontSizes = 0.0...72.0
    /// A link holds at most 32 reasons (`LinkToken.maximumReasons`).
    static let maximumReasons = 32

    init(
        document: FormDocumentV2, source: String, positions: StrictJSON.Positions,
        pathAliases: [(version2: String, version1: String)] = [], files: FormFiles? = nil, checksLayout: Bool
    ) throws(FormError) {
        (self.document, self.source, self.positions, self.pathAliases) = (document, source, positions, pathAliases)
        self.files = files ?? .directory(URL(fileURLWithPath: source).deletingLastPathComponent())
        self.checksLayout = checksLayout
        fontFiles = try readFonts()
    }

    /// The font files of `fonts`, each a file name beside the form (`source`'s directory), or
    /// built in: a TrueType font, under a name no standard font has.
    private func readFonts() throws(FormError) -> [FontFile] {
        var files: [FontFile] = []
        for (index, entry) in (document.fonts ?? []).enumerated() {
            let path = "fonts[\(index)]"
            guard NamePattern.fontName.matches(entry.name),
                StandardFont(rawValue: entry.name) == nil,
                !files.contains(where: { $0.name == entry.name })
            else {
                throw fail(
                    "\(path).name",
                    "nom de police invalide ou déjà pris ; lettres, chiffres et tirets (63 au plus), autre que les 14 polices standard et les autres polices du formulaire."
                )
            }
            guard NamePattern.isFileName(entry.file, extensions: ["ttf", "TTF", "otf", "OTF"]) else {
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
        guard NamePattern.formID.matches(d.id) else {
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
        if checksLayout {
            let reasonLines = try checkReasonPlacement(reasons, layout: layout, pageSize: pageSize)
            try checkReasonsClearOf(
                [("title", title), ("legalText", legalText)]
                    + texts.enumerated().map { ("texts[\($0.offset)]", $0.element) },
                reasons: reasons, lines: reasonLines)
        }
        let selection: ReasonSelection = try choice(
            d.selection ?? ReasonSelection.oneOrMore.rawValue, path: "selection")
        let rules = try self.rules(pageSize: pageSize)
        let images = try self.images(pageSize: pageSize)
        let payload = try qrPayload(reasons: reasons)
        let placements = try qrCodes(pageSize: pageSize)

        let start = try inForceStart()
        let until = try inForceUntil(after: start)

        func form(
            id: String, name: String, offered: Set<String>?,
            context: (id: String, name: String?, hours: ContextHours?, area: String?)?
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
                    InForce(
                        start: $0, context: context?.id, contextName: context?.name, until: until,
                        hours: context?.hours, area: context?.area)
                })
        }

        guard let contexts = d.contexts else {
            let context = try d.inForce?.context.map { (id) throws(FormError) in
                guard NamePattern.contextID.matches(id) else {
                    throw fail(
                        "inForce.context",
                        "identifiant de contexte invalide ; minuscules, chiffres et tirets (32 au plus).")
                }
                return (
                    id: id, name: d.inForce?.contextName,
                    hours: try contextHours(d.inForce?.hours, path: "inForce.hours"),
                    area: try contextArea(d.inForce?.area, path: "inForce.area")
                )
            }
            if context == nil, d.inForce?.contextName != nil {
                throw fail(
                    "inForce.contextName", "un nom de contexte va avec inForce.context ; ajoutez-le ou retirez ce nom.")
            }
            if context == nil, d.inForce?.hours != nil || d.inForce?.area != nil {
                throw fail(
                    d.inForce?.hours != nil ? "inForce.hours" : "inForce.area",
                    "des heures ou une zone vont avec inForce.context ; ajoutez-le ou retirez-les.")
            }
            return [try form(id: d.id, name: d.name, offered: nil, context: context)]
        }
        if d.inForce?.context != nil || d.inForce?.contextName != nil || d.inForce?.hours != nil
            || d.inForce?.area != nil
        {
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
            guard NamePattern.formID.matches(context.id), id.count <= 64 else {
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
                    id: id, name: name, offered: Set(context.reasons),
                    context: (
                        id: context.id, name: context.name,
                        hours: try contextHours(context.hours, path: "\(path).hours"),
                        area: try contextArea(context.area, path: "\(path).area")
                    )))
        }
        return forms
    }

    // MARK: - Calendar

    /// A context's `hours`: two `HH:MM`, different, and ISO weekdays once each.
    func contextHours(_ hours: HoursDocument?, path: String) throws(FormError) -> ContextHours? {
        guard let hours else { return nil }
        guard let from = ContextHours.minutes(parsing: hours.from) else {
            throw fail("\(path).from", "heure invalide « \(hours.from) » ; HH:MM attendu, heure de Paris (19:00).")
        }
        guard let until = ContextHours.minutes(parsing: hours.until) else {
            throw fail("\(path).until", "heure invalide « \(hours.until) » ; HH:MM attendu, heure de Paris (06:00).")
        }
        guard from != until else {
            throw fail(
                "\(path).until",
                "début et fin égaux ; pour toutes les heures, retirez hours (une fin avant le début passe minuit).")
        }
        guard let days = hours.days else { return ContextHours(from: from, until: until) }
        for (index, day) in days.enumerated() {
            guard (1...7).contains(day), days.firstIndex(of: day) == index else {
                throw fail(
                    "\(path).days[\(index)]",
                    "jour invalide ou en double ; 1 (lundi) à 7 (dimanche), chacun une fois, attendus.")
            }
        }
        guard !days.isEmpty else {
            throw fail("\(path).days", "au moins un jour est attendu, ou pas de clé days (tous les jours).")
        }
        return ContextHours(from: from, until: until, days: Set(days))
    }

    /// A context's `area`: a few words, on one line.
    func contextArea(_ area: String?, path: String) throws(FormError) -> String? {
        guard let area else { return nil }
        guard !area.trimmingCharacters(in: .whitespaces).isEmpty, area.count <= 200,
            !area.contains(where: \.isNewline)
        else {
            throw fail(path, "zone invalide ; quelques mots sur une ligne (200 caractères au plus) attendus.")
        }
        return area
    }

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
        let b = Array(text.utf8)
        guard b.count == 16, NamePattern.has(b, "-", at: 4, 7), NamePattern.has(b, "T", at: 10),
            NamePattern.has(b, ":", at: 13),
            let year = NamePattern.number(b[0..<4]), (2000...9999).contains(year),
            let month = NamePattern.number(b[5..<7]), let day = NamePattern.number(b[8..<10]),
            let hour = NamePattern.number(b[11..<13]), (0...23).contains(hour),
            let minute = NamePattern.number(b[14..<16]), (0...59).contains(minute),
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
            guard NamePattern.reasonCode.matches(earlier), earlier != code,
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
}
