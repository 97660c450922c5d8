import Foundation

/// The forms a deployment knows: the built-in official versions plus any added as JSON.
public struct FormCatalog: Sendable {
    /// In catalog order: built-in forms first, then added ones in the order they were added.
    public private(set) var forms: [Form]
    /// The form used when a link or a command names none.
    public let defaultFormID: String

    /// The two official forms of November 2020; `deplacement-2020-11-28` is the default.
    public static let builtIn: FormCatalog = {
        do {
            return FormCatalog(
                forms: [
                    try decodeForm(Data(PackageResources.deplacement_2020_11_28_json), source: "deplacement-2020-11-28.json"),
                    try decodeForm(Data(PackageResources.deplacement_2020_11_02_json), source: "deplacement-2020-11-02.json"),
                ],
                defaultFormID: "deplacement-2020-11-28")
        } catch {
            fatalError("built-in form is invalid: \(error)")
        }
    }()

    init(forms: [Form], defaultFormID: String) {
        self.forms = forms
        self.defaultFormID = defaultFormID
    }

    public var defaultForm: Form { form(id: defaultFormID)! }

    public func form(id: String) -> Form? { forms.first { $0.id == id } }

    /// Adds a form read from a JSON document. `source` names the file in error messages.
    public mutating func add(json: Data, source: String) throws(FormError) {
        let form = try Self.decodeForm(json, source: source)
        guard self.form(id: form.id) == nil else {
            throw FormError(source: source, path: "id", message: "le formulaire « \(form.id) » existe déjà ; choisissez un autre id.")
        }
        forms.append(form)
    }

    /// Decodes and checks a form: unknown keys, unknown placeholders and inconsistent reasons
    /// are errors naming their JSON path, never a silently broken PDF.
    public static func decodeForm(_ data: Data, source: String) throws(FormError) -> Form {
        let form: Form
        do {
            form = try StrictJSON.decode(Form.self, from: data)
        } catch {
            throw FormError(source: source, path: error.path, message: error.message)
        }
        try FormValidation(form: form, source: source).check()
        return form
    }
}

/// A form document that cannot be used, with the JSON path of the problem.
public struct FormError: Error, Sendable, Equatable, CustomStringConvertible {
    public let source: String
    public let path: String
    public let message: String

    public var description: String {
        path.isEmpty ? "\(source) : \(message)" : "\(source), \(path) : \(message)"
    }
}

/// The checks that JSON decoding alone cannot make.
struct FormValidation {
    let form: Form
    let source: String

    /// Page width and height accepted, in points.
    static let pageSizes = 3.0...14_400.0

    func check() throws(FormError) {
        guard form.id.wholeMatch(of: /[a-z0-9][a-z0-9-]{0,63}/) != nil else {
            throw fail("id", "identifiant invalide ; minuscules, chiffres et tirets attendus (64 au plus).")
        }
        // libharu's bounds for a page (HPDF_MIN_PAGE_SIZE, HPDF_MAX_PAGE_SIZE): outside them
        // every document of the form failed, at each request rather than at load time.
        guard Self.pageSizes.contains(form.page.width), Self.pageSizes.contains(form.page.height) else {
            throw fail("page", "dimensions de \(Int(Self.pageSizes.lowerBound)) à \(Int(Self.pageSizes.upperBound)) points attendues (limites d’une page PDF).")
        }
        guard !form.reasons.isEmpty else { throw fail("reasons", "au moins un motif est attendu.") }
        var codes = Set<String>(), numbers = Set<Int>()
        for (index, reason) in form.reasons.enumerated() {
            let path = "reasons[\(index)]"
            guard reason.code.wholeMatch(of: /[a-z][a-z0-9_]{0,31}/) != nil else {
                throw fail("\(path).code", "code de motif invalide « \(reason.code) » ; minuscules, chiffres et _ attendus.")
            }
            guard codes.insert(reason.code).inserted else {
                throw fail("\(path).code", "code de motif en double « \(reason.code) ».")
            }
            guard numbers.insert(reason.number).inserted else {
                throw fail("\(path).number", "numéro de motif en double (\(reason.number)).")
            }
            try checkPoint(reason.y, axis: \.height, path: "\(path).y")
        }
        for (index, line) in form.qrPayload.lines.enumerated() {
            for name in Self.placeholders(in: line) where !QRPayloadFormat.placeholders.contains(name) {
                let known = QRPayloadFormat.placeholders.sorted().map { "{\($0)}" }.joined(separator: ", ")
                throw fail("qrPayload.lines[\(index)]", "variable inconnue {\(name)} ; acceptées : \(known).")
            }
        }
        let longest = form.qrPayload.longestBytes(reasons: form.reasons)
        guard longest <= QRPayloadFormat.maximumBytes else {
            throw fail("qrPayload", "trop long pour un QR code avec les valeurs les plus longues (\(longest) octets, \(QRPayloadFormat.maximumBytes) au plus) ; raccourcissez le texte fixe.")
        }
        guard !form.qrCodes.isEmpty else { throw fail("qrCodes", "au moins un QR code est attendu.") }
        for (index, placement) in form.qrCodes.enumerated() {
            guard (1...2).contains(placement.page) else {
                throw fail("qrCodes[\(index)].page", "page 1 ou 2 attendue.")
            }
            guard placement.size > 0, placement.x >= 0, placement.y >= 0,
                  placement.x + placement.size <= form.page.width, placement.y + placement.size <= form.page.height else {
                throw fail("qrCodes[\(index)]", "le QR code doit tenir dans la page.")
            }
        }
        let blocks = [("title", form.title), ("legalText", form.legalText)]
            + form.texts.enumerated().map { ("texts[\($0.offset)]", $0.element) }
            + form.fields.all.compactMap { entry in entry.slot.label.map { ("fields.\(entry.key).label", $0) } }
        for (path, block) in blocks {
            guard block.size > 0, block.size <= 72 else { throw fail("\(path).size", "taille de police entre 0 et 72 attendue.") }
            try checkPoint(block.x, axis: \.width, path: "\(path).x")
            try checkPoint(block.y, axis: \.height, path: "\(path).y")
        }
        // Every length below is bounded by the page too: the renderer writes positions as
        // integers of hundredths of a point, and a length near 1e17 overflowed them, which
        // crashed the server as it loaded the form.
        for (path, block) in blocks {
            guard (block.width ?? 1) > 0, (block.width ?? 0) <= form.page.width,
                  (block.leading ?? 1) > 0, (block.leading ?? 0) <= form.page.height else {
                throw fail(path, "width et leading doivent être positifs et tenir dans la page.")
            }
        }
        for (key, slot) in form.fields.all {
            let path = "fields.\(key)"
            try checkPoint(slot.x, axis: \.width, path: "\(path).x")
            try checkPoint(slot.y, axis: \.height, path: "\(path).y")
            guard slot.maxWidth > 0, slot.x + slot.maxWidth <= form.page.width else {
                throw fail("\(path).maxWidth", "la largeur doit rester dans la page.")
            }
            let size = slot.size ?? 11
            guard size > 0, size <= 72, (slot.minSize ?? size) > 0, (slot.minSize ?? size) <= size else {
                throw fail("\(path).size", "tailles positives attendues, minSize ≤ size ≤ 72.")
            }
            guard (slot.fitWidth ?? 1) > 0, (slot.fitWidth ?? 0) <= form.page.width else {
                throw fail("\(path).fitWidth", "largeur positive, dans la page, attendue.")
            }
        }
        let layout = form.reasonLayout
        let (width, height) = (form.page.width, form.page.height)
        let sizes = [layout.boxSize, layout.markSize, layout.textWidth, layout.textSize, layout.textLeading,
                     layout.noteSize, layout.noteLeading]
        let fontSizes = [layout.markSize, layout.textSize, layout.noteSize]
        let offsets = [layout.boxDY, layout.textDY, layout.noteGap, layout.textLeading, layout.noteLeading]
        guard sizes.allSatisfy({ $0 > 0 }), fontSizes.allSatisfy({ $0 <= 72 }), offsets.allSatisfy({ abs($0) <= height }),
              layout.textX >= 0, layout.textX + layout.textWidth <= width,
              (0...width).contains(layout.boxX), layout.boxSize <= width, (0...width).contains(layout.markX) else {
            throw fail("reasonLayout", "tailles positives (polices jusqu’à 72), décalages et texte dans la page attendus.")
        }
        for (index, rule) in (form.rules ?? []).enumerated() {
            try checkPoint(rule.x, axis: \.width, path: "rules[\(index)].x")
            try checkPoint(rule.y, axis: \.height, path: "rules[\(index)].y")
            guard rule.length > 0, rule.x + rule.length <= form.page.width else {
                throw fail("rules[\(index)].length", "longueur positive, dans la page, attendue.")
            }
            guard (rule.dash ?? [1]).allSatisfy({ (1...100).contains($0) }) else {
                throw fail("rules[\(index)].dash", "longueurs entières de 1 à 100 attendues.")
            }
        }
    }

    private func checkPoint(_ value: Double, axis: KeyPath<PageSize, Double>, path: String) throws(FormError) {
        guard value >= 0, value <= form.page[keyPath: axis] else {
            throw fail(path, "position hors de la page (0 à \(form.page[keyPath: axis])).")
        }
    }

    private func fail(_ path: String, _ message: String) -> FormError {
        FormError(source: source, path: path, message: message)
    }

    static func placeholders(in line: String) -> [String] {
        var names: [String] = []
        var rest = Substring(line)
        while let open = rest.firstIndex(of: "{") {
            guard let close = rest[open...].firstIndex(of: "}") else { break }
            names.append(String(rest[rest.index(after: open)..<close]))
            rest = rest[rest.index(after: close)...]
        }
        return names
    }
}
