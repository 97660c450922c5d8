import AttestationKit
import FormSchema
import Foundation
import Rendering

/// `form-json`: a form definition as an administrator drops it in `formsDirectory`. A form the
/// loader accepts must encode back to a document it reads the same, join a catalog, and be drawn
/// without a crash: the loader's promise is "never a silently broken PDF".
enum FormJSONTarget {
    static let source = "fuzz.json"

    /// A person whose values take both paths of the PDF: WinAnsi text and the embedded font.
    static let person = Fixture.minh

    static func run(_ input: [UInt8]) {
        let data = Data(input)
        let form: Form
        do {
            form = try FormCatalog.decodeForm(data, source: source)
        } catch {
            require(error.source == source && !error.message.isEmpty, "erreur de formulaire sans message")
            require(error.description.hasPrefix(source), "erreur de formulaire qui ne nomme pas son fichier")
            return
        }

        // Written back (as an administrator's tool would), it reads the same.
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        do {
            let again = try FormCatalog.decodeForm(try encoder.encode(form), source: source)
            require(again == form, "formulaire réécrit relu différemment")
        } catch {
            require(false, "formulaire accepté puis refusé une fois réécrit : \(error)")
        }

        var catalog = FormCatalog.builtIn
        let builtIn = FormCatalog.builtIn.anyForm(id: form.id) != nil
        do {
            try catalog.add(json: data, source: source)
            require(!builtIn && catalog.form(id: form.id) == form, "formulaire ajouté introuvable, ou doublon accepté")
        } catch {
            // A form the renderer does not draw yet is refused where it uses what it lacks.
            require(
                builtIn && error.path == "id" || !form.awaitingRenderer.isEmpty,
                "formulaire valide refusé par le catalogue : \(error)")
        }

        draw(form)
    }

    /// Every reason ticked (a form of one reason at a time: its longest code, the longest QR
    /// payload), leaving now: the PDF for an ordinary person, the QR code for the
    /// longest payload a link can ask for. A form the loader and the renderer took must draw
    /// both: a failure here would be a 500 at every request.
    static func draw(_ form: Form) {
        let renderer: AttestationRenderer
        do { renderer = try AttestationRenderer(forms: [form]) } catch {
            // Refused at load time, with a message: what ServiceSnapshot.load reports.
            require(!error.description.isEmpty, "refus du dessin sans message")
            return
        }
        var codes = form.reasons.map(\.code)
        if form.selection == .exactlyOne, let longest = codes.max(by: { $0.utf8.count < $1.utf8.count }) {
            codes = [longest]
        }
        do {
            let ordinary = try Attestation(identity: person, form: form, reasonCodes: codes, now: Fixture.now)
            let pdf = try renderer.pdf(ordinary)
            require(pdf.starts(with: Array("%PDF-".utf8)), "PDF sans en-tête")
            let longest = try Attestation(
                identity: Fixture.longestInQRCode, form: form, reasonCodes: codes, now: Fixture.now)
            let png = try renderer.qrPNG(longest, size: AttestationRenderer.pngSizes.lowerBound)
            require(png.starts(with: [0x89, 0x50, 0x4E, 0x47]), "PNG sans signature")
        } catch {
            require(false, "formulaire chargé mais impossible à dessiner : \(error)")
        }
    }
}
