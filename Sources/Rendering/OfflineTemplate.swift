import AttestationKit
import CHaru
import FormSchema
import Foundation

/// A person's attestation with its variable parts left open, for the personal page to fill
/// without the network: the PDF as the server draws it, with the exit date and time, the
/// reasons' marks, the QR image's bits and the creation date of the metadata at known byte
/// ranges, each to be overwritten by bytes of the same length (so the cross-reference table
/// stays true), and the QR payload with the person's values already folded.
///
/// The renderer stays on the server: the page writes dates, times, marks and the QR code's
/// modules, nothing else. The QR image has a fixed version, the smallest that holds this
/// person's longest payload (every reason chosen; in a form of exactly one reason, the one of
/// the longest code), so any choice fits in it. A template is of one context of its version:
/// offline the page makes none for an exit outside that context's hours unless the person
/// chose it (hors-ligne.js), since only the server has the other context's form.
public struct OfflineTemplate: Sendable {
    /// The document, with its dates and times written as the placeholders below, every mark
    /// drawn, and the QR image uncompressed.
    public let pdf: [UInt8]
    /// Where each date and time the page prints goes: the placeholder's name (`exitDate`,
    /// `exitTime`, `exitTimeH`, `creationDate`, `creationTime`, `creationTimeH`) and its bytes,
    /// as libharu writes them in a PDF string (`pdfText`). A form may print a value several
    /// times, or never.
    public let texts: [(value: String, range: Range<Int>)]
    /// Where the metadata's creation date goes, `D:YYYYMMDDHHmmSS+HH'mm'` (23 bytes; libharu
    /// writes `Z00'00'` for UTC).
    public let creationDate: Range<Int>
    /// The byte that starts each reason's mark, `(x) Tj` (the form's mark), in the form's
    /// order: `(` when the reason is chosen, `%` otherwise (the line becomes a comment, no mark
    /// is drawn).
    public let marks: [(code: String, offset: Int)]
    /// For a form whose mark replaces the box (`markReplacesBox`), the byte that starts each
    /// reason's box text, `([ ]) Tj`: `(` when the reason is not chosen, `%` when it is (its mark
    /// is then drawn in its place); empty for other forms.
    public let boxes: [(code: String, offset: Int)]
    /// The QR image: `side` rows of `bytesPerRow` bytes from the top, 1 bit a pixel, the
    /// leftmost pixel in the high bit, 0 dark, `scale` pixels a module; `modules` is
    /// 17 + 4 × `version`, without the quiet zone.
    public let qrImage: Range<Int>
    public let qrVersion: Int
    public let qrModules: Int
    public let qrScale: Int
    public let qrBytesPerRow: Int
    /// The QR payload: text, and the names of the values the page writes (`creationDate`,
    /// `creationTime`, `creationTimeH`, `exitDate`, `exitTime`, `exitTimeH`, `reasons`).
    public let payload: [QRPayload.Segment]

    /// What the template prints for each date and time: the length of every real value, and
    /// nothing an identity value could be without being found (each must occur exactly as often
    /// as the form's fields name it).
    public static let placeholders: [String: String] = [
        "exitDate": "00/00/0000", "exitTime": "00:00", "exitTimeH": "00h00",
        "creationDate": "99/99/9999", "creationTime": "99:99", "creationTimeH": "99h99",
    ]

    /// Text as libharu writes it inside a PDF string, which escapes `/` in octal
    /// (HPDF_NEEDS_ESCAPE): the bytes the page writes for a date.
    public static func pdfText(_ text: String) -> String {
        text.replacingOccurrences(of: "/", with: "\\057")
    }

    /// The values the page writes into the payload.
    public static let openValues: Set<String> = [
        "creationDate", "creationTime", "creationTimeH", "exitDate", "exitTime", "exitTimeH", "reasons",
    ]

    /// Every character a date or time may print, `01/02/2021`, `21:30`, `21h30`: a form's own
    /// font that writes only dates and times has these glyphs (`FormLayout.preparedFonts`).
    static let writtenCharacters = Array("0123456789/:h".utf8)
}

extension AttestationRenderer {
    /// The offline template of an identity's attestations in a form and a time zone.
    public func offlineTemplate(
        identity: Identity, form: Form, timeZone: TimeZone, now: Date = Date()
    ) throws(RenderingError) -> OfflineTemplate {
        // The longest payload this person can have, so that the code's version holds every
        // choice: every reason, or, in a form of exactly one reason, the one of the longest code.
        let longest = form.reasons.max { $0.code.utf8.count < $1.code.utf8.count }!
        let codes = form.selection == .exactlyOne ? [longest.code] : form.reasons.map(\.code)
        let attestation: Attestation
        do {
            attestation = try Attestation(
                identity: identity, form: form, reasonCodes: codes, timeZone: timeZone, now: now)
        } catch {
            throw .layout(form: form.id, "modèle hors ligne impossible : \(error.description)")
        }
        let qr = try QRMatrix(encoding: QRPayload(attestation).bytes)
        let pdf = try render(attestation, qr: qr, template: true)
        func fail(_ what: String) -> RenderingError {
            .layout(form: form.id, "modèle hors ligne impossible : \(what).")
        }

        func unique(_ text: String) throws(RenderingError) -> Range<Int> {
            let found = pdf.occurrences(of: Array(text.utf8))
            guard found.count == 1 else { throw fail("« \(text) » trouvé \(found.count) fois") }
            return found[0]
        }

        // Each date and time as often as the fields print it; a field printing the reasons
        // would change length with them.
        let named = form.fields.flatMap { FieldValues.placeholderNames(in: $0.value) }
        guard !named.contains("reasons") else { throw fail("un champ imprime les motifs") }
        var texts: [(value: String, range: Range<Int>)] = []
        for (name, placeholder) in OfflineTemplate.placeholders.sorted(by: { $0.key < $1.key }) {
            let found = pdf.occurrences(of: Array(OfflineTemplate.pdfText(placeholder).utf8))
            let expected = named.filter { $0 == name }.count
            guard found.count == expected else {
                throw fail("« \(placeholder) » trouvé \(found.count) fois pour \(expected)")
            }
            texts += found.map { (name, $0) }
        }
        let creation = try unique("/CreationDate (D:")
        let creationDate = creation.upperBound - 2..<creation.upperBound + 21
        guard pdf.count > creationDate.upperBound, pdf[creationDate.upperBound] == UInt8(ascii: ")") else {
            throw fail("date de création inattendue")
        }

        // The marks, and the boxes they replace: the blocks of bytes the renderer wrote for them
        // on each page, each found once.
        let layout = try layout(of: form.attestationRules)
        var marks: [(code: String, offset: Int)] = []
        var boxes: [(code: String, offset: Int)] = []
        for page in layout.markedPages.sorted() {
            let block = AttestationRenderer.templateMarks(form, layout, page: page)
            let start = try unique(String(decoding: block.content.bytes, as: UTF8.self)).lowerBound
            marks += block.offsets.map { (code: $0.code, offset: start + $0.offset) }
            let replaced = AttestationRenderer.templateBoxes(form, layout, page: page)
            if !replaced.offsets.isEmpty {
                let start = try unique(String(decoding: replaced.content.bytes, as: UTF8.self)).lowerBound
                boxes += replaced.offsets.map { (code: $0.code, offset: start + $0.offset) }
            }
        }

        // The QR code's data: the only stream after a dictionary of `/Subtype /Image` with one
        // bit a pixel (a form's pictures have eight).
        let (_, side, bytesPerRow) = qr.bitmap(scale: QRMatrix.imagePixelsPerModule)
        let images = pdf.occurrences(of: Array("/Subtype /Image".utf8)).compactMap { subtype -> Range<Int>? in
            guard
                let stream = pdf.occurrences(
                    of: Array("stream\r\n".utf8), in: subtype.upperBound..<pdf.count, first: true
                ).first,
                !pdf.occurrences(
                    of: Array("/BitsPerComponent 1\n".utf8), in: subtype.upperBound..<stream.lowerBound, first: true
                ).isEmpty
            else { return nil }
            return stream
        }
        guard images.count == 1, let stream = images.first else {
            throw fail("image du QR code trouvée \(images.count) fois")
        }
        let qrImage = stream.upperBound..<stream.upperBound + side * bytesPerRow
        // libharu ends every stream with "\nendstream" (hpdf_dict.c).
        guard pdf[qrImage.upperBound...].starts(with: "\nendstream".utf8) else {
            throw fail("image du QR code de taille inattendue")
        }
        return OfflineTemplate(
            pdf: pdf, texts: texts, creationDate: creationDate, marks: marks, boxes: boxes, qrImage: qrImage,
            qrVersion: (qr.width - 17) / 4, qrModules: qr.width, qrScale: QRMatrix.imagePixelsPerModule,
            qrBytesPerRow: bytesPerRow,
            payload: QRPayload.segments(attestation, open: OfflineTemplate.openValues))
    }
}

extension [UInt8] {
    /// Where `needle` occurs in `range` (all of the bytes by default), without overlaps, the
    /// first only when `first`; each candidate found by memchr, checked by memcmp. The standard
    /// library's generic `ranges(of:)` compares element by element through its collection
    /// protocols, which over the template of a drawn version (about 100 KB, a search per date,
    /// mark and image) cost more than drawing the document. (glibc's memmem needs _GNU_SOURCE,
    /// which Swift's Glibc module does not define.)
    func occurrences(of needle: [UInt8], in range: Range<Int>? = nil, first: Bool = false) -> [Range<Int>] {
        let range = range ?? 0..<count
        guard !needle.isEmpty, range.count >= needle.count else { return [] }
        var found: [Range<Int>] = []
        withUnsafeBytes { haystack in
            needle.withUnsafeBytes { needle in
                let base = haystack.baseAddress!
                // The last offset where a match can start.
                let last = range.upperBound - needle.count
                var start = range.lowerBound
                while start <= last, let candidate = memchr(base + start, Int32(needle[0]), last - start + 1) {
                    let offset = base.distance(to: UnsafeRawPointer(candidate))
                    if memcmp(candidate, needle.baseAddress!, needle.count) == 0 {
                        found.append(offset..<offset + needle.count)
                        if first { return }
                        start = offset + needle.count
                    } else {
                        start = offset + 1
                    }
                }
            }
        }
        return found
    }
}
