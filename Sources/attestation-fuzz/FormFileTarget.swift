import AttestationKit
import FormSchema
import Foundation
import Rendering

/// `font-file` and `png-picture`: a file an administrator drops beside a form in
/// `formsDirectory`, a TrueType font or a PNG logo, read as the server reads it. The form is the
/// built-in one of 10 June 2021 under another id, its `Luciole` font (the values' and the
/// reasons') or its first picture replaced by the input, written to a folder of this process.
///
/// The property is the server's promise: a file is refused at load, naming the form's key
/// (`fonts[0].file`, `images[0].file`) or the file, or the form draws every document a person
/// can ask for, the PDF and a page image. A font whose `hhea` claimed 65535 metrics crashed
/// libharu, then a reload, then every restart; a PNG of 190 KB claiming 14000 × 14000 pixels
/// took 1.77 GB (issue 38): the crash seeds of Tests/Fuzz/Corpus keep them.
enum FormFileTarget {
    enum Kind: String {
        case font = "fuzz.ttf"
        case picture = "fuzz.png"
    }

    static func runFont(_ input: [UInt8]) { run(input, as: .font) }
    static func runPicture(_ input: [UInt8]) { run(input, as: .picture) }

    /// The folder of this process, and the form's JSON naming `fuzz.ttf` and `fuzz.png`.
    static let folder: URL = {
        let folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("attestation-fuzz-\(getpid())", isDirectory: true)
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        atexit { try? FileManager.default.removeItem(at: FormFileTarget.folder) }
        return folder
    }()

    /// The built-in form whose files are replaced: fonts and pictures, both written by a person's values.
    static let base = FormCatalog.builtIn.form(id: "deplacement-2021-06-10")!

    /// The form's JSON as `Form` encodes it, its id changed and its file renamed. Kept as bytes:
    /// a static `Data` (its storage pointer packed in an enum's spare bits) is reported as leaked
    /// by LeakSanitizer, which fails make test's fuzz-replay.
    static let formJSON: [Kind: [UInt8]] = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let text = String(decoding: try! encoder.encode(base), as: UTF8.self)
        var forms: [Kind: [UInt8]] = [:]
        for kind in [Kind.font, .picture] {
            let file = kind == .font ? "Luciole-Regular.ttf" : "RF.png"
            precondition(text.contains("\"\(file)\""), "\(file) absent du formulaire de juin 2021")
            let edited = text.replacingOccurrences(of: "\"\(file)\"", with: "\"\(kind.rawValue)\"")
                .replacingOccurrences(
                    of: "\"id\":\"\(base.id)\"", with: "\"id\":\"fuzz-\(kind == .font ? "police" : "image")\"")
            forms[kind] = Array(edited.utf8)
        }
        return forms
    }()

    static func run(_ input: [UInt8], as kind: Kind) {
        let file = folder.appendingPathComponent(kind.rawValue)
        guard (try? Data(input).write(to: file)) != nil else {
            require(false, "écriture impossible dans \(folder.path)")
            return
        }
        let source = folder.appendingPathComponent("form-\(kind == .font ? "police" : "image").json").path
        let form: Form
        do {
            form = try FormCatalog.decodeForm(Data(formJSON[kind]!), source: source)
        } catch {
            let key = kind == .font ? "fonts[" : "images[0]"
            require(
                error.source == source && error.path.hasPrefix(key) && !error.message.isEmpty,
                "refus qui ne nomme pas la clé du fichier (\(key)) : \(error.path)")
            return
        }
        if kind == .picture, let picture = form.images.first {
            require(
                picture.pixelWidth * picture.pixelHeight <= FormImage.maximumPixels,
                "image acceptée au-delà de \(FormImage.maximumPixels) pixels")
        }
        let renderer: AttestationRenderer
        do { renderer = try AttestationRenderer(forms: [form]) } catch {
            // Refused when the renderer prepares the form: what ServiceSnapshot.load and
            // `forms check` report, with the file's name.
            require(
                error.description.contains(kind == .font ? "police" : "image"),
                "refus au dessin qui ne dit pas quel fichier : \(error.description)")
            return
        }
        do {
            let attestation = try Attestation(
                identity: FormJSONTarget.person, form: form, reasonCodes: [form.reasons[0].code], now: Fixture.now)
            let pdf = try renderer.pdf(attestation)
            require(pdf.starts(with: Array("%PDF-".utf8)), "PDF sans en-tête")
            let page = try renderer.pagePNG(attestation, page: 1, dpi: AttestationRenderer.pageDPIs.lowerBound)
            require(page.starts(with: [0x89, 0x50, 0x4E, 0x47]), "image de page sans signature PNG")
        } catch {
            require(false, "fichier accepté au chargement, puis impossible à dessiner : \(error)")
        }
    }
}
