import AttestationKit
import Foundation

/// The forms a deployment knows: the built-in official versions plus any added as JSON.
public struct FormCatalog: Sendable {
    /// The forms links may name, in catalog order: built-in forms first, then added ones in
    /// the order they were added.
    public private(set) var forms: [Form]
    /// Built-in forms that use what this server's renderer does not draw yet
    /// (`Form.awaitingRenderer`): listed, never minted nor drawn.
    public let pendingForms: [Form]
    /// The form used when a link or a command names none.
    public let defaultFormID: String
    /// The JSON file of each added form, by id: where an error found when the form is
    /// prepared for drawing points the administrator (not at the configuration).
    public private(set) var sourceFiles: [String: String] = [:]

    /// The built-in documents (Forms/), in catalog order, with the file each comes from.
    static let builtInDocuments: [(source: String, bytes: [UInt8])] = [
        "deplacement-2020-11-28.json", "deplacement-2020-11-02.json", "deplacement-2021-06-10.json",
        "deplacement-2021-05-23.json", "deplacement-2021-05-04.json", "deplacement-2021-04-07-couvre-feu.json",
        "deplacement-2021-04-07-journee.json", "deplacement-2021-03-23-couvre-feu.json",
        "deplacement-2021-03-23-mesures-renforcees.json", "deplacement-2021-03-17.json",
        "deplacement-2021-03-01.json", "couvre-feu-2021-01-25.json", "couvre-feu-2021-01-04.json",
        "couvre-feu-2020-12-15.json", "deplacement-2020-10-30.json", "couvre-feu-2020-10-17.json",
    ].map { ($0, EmbeddedFiles.required("Forms/\($0)")) }

    /// The JSON file a built-in form comes from, as shipped (its name and bytes), with the files
    /// its forms name (`fonts[].file`, `images[].file`) and their bytes: what an administrator
    /// copies to start a version of their own (`attestation-admin forms export`). `id` is a
    /// form's id (`deplacement-2021-03-17-week-end` gives the document of both its contexts).
    public static func builtInDocument(
        of id: String
    ) -> (fileName: String, bytes: [UInt8], files: [(name: String, bytes: [UInt8])])? {
        for document in builtInDocuments {
            guard let forms = try? decodeForms(Data(document.bytes), source: document.source, files: .builtIn),
                forms.contains(where: { $0.id == id })
            else { continue }
            var files: [(name: String, bytes: [UInt8])] = []
            for form in forms {
                for font in form.fonts where !files.contains(where: { $0.name == font.fileName }) {
                    files.append((font.fileName, font.bytes))
                }
                for image in form.images {
                    guard let name = image.fileName, !files.contains(where: { $0.name == name }) else { continue }
                    files.append((name, image.bytes))
                }
            }
            return (document.source, document.bytes, files)
        }
        return nil
    }

    /// The official forms; `deplacement-2020-11-28` is the default.
    public static let builtIn: FormCatalog = {
        do {
            var ready: [Form] = []
            var pending: [Form] = []
            for document in builtInDocuments {
                for form in try decodeForms(Data(document.bytes), source: document.source, files: .builtIn) {
                    if form.awaitingRenderer.isEmpty { ready.append(form) } else { pending.append(form) }
                }
            }
            return FormCatalog(forms: ready, pendingForms: pending, defaultFormID: "deplacement-2020-11-28")
        } catch {
            fatalError("built-in form is invalid: \(error)")
        }
    }()

    init(forms: [Form], pendingForms: [Form] = [], defaultFormID: String) {
        self.forms = forms
        self.pendingForms = pendingForms
        self.defaultFormID = defaultFormID
    }

    public var defaultForm: Form { form(id: defaultFormID)! }

    public func form(id: String) -> Form? { forms.first { $0.id == id } }

    /// A form of the catalog, ready or pending.
    public func anyForm(id: String) -> Form? { form(id: id) ?? pendingForms.first { $0.id == id } }

    /// Adds the forms of a JSON document (one, or one per context). `source` names the file in
    /// error messages. Nothing is added unless every form of the document can be: valid, with
    /// a new id, and drawn by this server's renderer (fail closed).
    public mutating func add(json: Data, source: String) throws(FormError) {
        let added = try Self.decodeForms(json, source: source)
        for form in added {
            if let feature = form.awaitingRenderer.first {
                throw FormError(
                    source: source, path: feature.path,
                    message:
                        "\(feature.description) : pas encore dessiné par ce serveur ; ce formulaire sera accepté quand le rendu le prendra en charge."
                )
            }
            guard anyForm(id: form.id) == nil, added.filter({ $0.id == form.id }).count == 1 else {
                throw FormError(
                    source: source, path: "id",
                    message: "le formulaire « \(form.id) » existe déjà ; choisissez un autre id.")
            }
        }
        forms.append(contentsOf: added)
        for form in added { sourceFiles[form.id] = source }
    }

    /// Decodes and checks a form document: the first of its forms (its first context).
    public static func decodeForm(_ data: Data, source: String) throws(FormError) -> Form {
        try decodeForms(data, source: source)[0]
    }

    /// Decodes and checks a form document, in either schema version: syntax (with line and
    /// column), unknown keys, and everything that would fail when drawing or encoding, each an
    /// error naming its JSON path. A document with contexts gives one form per context.
    public static func decodeForms(_ data: Data, source: String) throws(FormError) -> [Form] {
        try decodeForms(data, source: source, files: nil)
    }

    /// `files`: where the fonts and images the document names are read; beside `source` when nil.
    /// `checked`: whether the document gets the checks of a file written by hand (strict syntax,
    /// unknown keys, the texts' layout); by default all but built-in documents do.
    ///
    /// A built-in document cannot change after the build, and every process decodes the 16 of
    /// them at its start: their checks are made by the tests (`BuiltInFormCheckTests`), not at
    /// each start. The strict reading and the round trip that finds unknown keys were 54 % of
    /// that decoding (`attestation-admin mint`, callgrind, debug build: 542 M instructions for
    /// the catalog, 247 M without them; the whole command 743 M, 448 M), as the layout checks
    /// were 3/4 of it before (`FormBuilder`). An added form, or a copy of a built-in one, is
    /// always checked.
    static func decodeForms(
        _ data: Data, source: String, files: FormFiles?, checked: Bool? = nil
    ) throws(FormError) -> [Form] {
        let checked = checked ?? !(files?.isBuiltIn ?? false)
        let document: FormDocumentV2
        var aliases: [(version2: String, version1: String)] = []
        var positions = StrictJSON.Positions()
        if checked {
            let parsed: StrictJSON.Document
            do {
                parsed = try StrictJSON.parse(data)
                switch try FormDocument.version(of: parsed.value) {
                case 1:
                    (document, aliases) = try StrictJSON.decode(FormDocumentV1.self, from: data, parsed: parsed)
                        .upgraded()
                default:
                    document = try StrictJSON.decode(FormDocumentV2.self, from: data, parsed: parsed)
                }
            } catch {
                throw FormError(source: source, failure: error)
            }
            positions = parsed.positions
        } else {
            do {
                let decoder = JSONDecoder()
                if try decoder.decode(SchemaVersion.self, from: data).schema == 2 {
                    document = try decoder.decode(FormDocumentV2.self, from: data)
                } else {
                    (document, aliases) = try decoder.decode(FormDocumentV1.self, from: data).upgraded()
                }
            } catch {
                throw FormError(source: source, path: "", message: "JSON illisible : \(error).")
            }
        }
        return try FormBuilder(
            document: document, source: source, positions: positions, pathAliases: aliases, files: files,
            checksLayout: checked
        ).build()
    }

    /// The schema version a built-in document says it follows (none: 1).
    private struct SchemaVersion: Decodable {
        let schema: Int?
    }
}

/// A form document that cannot be used, with the JSON path of the problem and, when known, the
/// line and column where it is in the file.
public struct FormError: Error, Sendable, Equatable, CustomStringConvertible {
    public let source: String
    public let path: String
    public let message: String
    public let line: Int?
    public let column: Int?

    public init(source: String, path: String, message: String, line: Int? = nil, column: Int? = nil) {
        (self.source, self.path, self.message, self.line, self.column) = (source, path, message, line, column)
    }

    init(source: String, failure: StrictJSON.Failure) {
        self.init(
            source: source, path: failure.path, message: failure.message, line: failure.line, column: failure.column)
    }

    /// The message with its place in the file: `clé inconnue (ligne 40, colonne 7).`
    public var locatedMessage: String {
        guard let line, let column else { return message }
        let bare = message.hasSuffix(".") ? String(message.dropLast()) : message
        return "\(bare) (ligne \(line), colonne \(column))."
    }

    public var description: String {
        path.isEmpty ? "\(source) : \(locatedMessage)" : "\(source), \(path) : \(locatedMessage)"
    }
}
