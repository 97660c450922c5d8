import AttestationKit
import CZlib
import FormSchema
import Synchronization

/// A form's own TrueType font (Luciole in the versions of 2021) made ready to embed, once,
/// when the form loads: the subset of the glyphs the form can print in it (made by HarfBuzz's
/// hb-subset) deflated at zlib's best level, its `/Widths` and its descriptor's values. A
/// document then only copies these bytes into a simple TrueType font in WinAnsiEncoding
/// (`HaruDocument.embed(_:)`, EmbeddedFont.swift) and writes its text with it.
///
/// Why not libharu's own TrueType loader, as before: it parsed the whole file in every
/// document (read from a memfd) and deflated the font again at every save, zlib being 57 % of
/// the instructions of a PDF of 9 June 2021 and HPDF_MemCpy 14 % (232.7 M instructions per PDF
/// through the server against 4.1 M for the version of 28 November 2020, issue 37). It also
/// crashed on a font whose `hhea` lies about its metrics (issue 38), which HarfBuzz refuses.
///
/// Which glyphs: every character of the fixed text, the reasons' marks and their boxes written
/// in the font (and the digits and signs of the dates and times written in it), and, for a
/// font a person's identity is written in, every WinAnsi character the font has: a value is written in a form's font only when the font has all its characters
/// (`TextFont.encode`), otherwise in the Unicode font. The subset is then the same for every
/// person, which the offline template needs (the page writes the same bytes as the server).
struct PreparedFont: Sendable {
    /// `/BaseFont`: a tag of six capitals, the same for the same subset, then the PostScript name.
    let name: String
    /// The subset's TrueType program, deflated, and its length before (`/Length1`).
    let program: [UInt8]
    let programLength: Int
    /// Whether the subset has a glyph for each byte (WinAnsi code): a document's text in this
    /// font uses no other (`covers`).
    let codes: [Bool]
    /// `/Widths` from `firstCode` to 255, in thousandths of an em, as FormSchema's `FontFile`
    /// measured them for the layout (0 for a character the font lacks).
    let widths: [Int]
    static let firstCode: UInt8 = 32
    let flags: Int
    let italicAngle: Double
    let ascent: Int
    let descent: Int
    let capHeight: Int
    let boundingBox: (Int, Int, Int, Int)

    func covers(_ bytes: [UInt8]) -> Bool { bytes.allSatisfy { codes[Int($0)] } }

    /// Prepares `font` (a form's font file) for the bytes `codes`; the same file and codes are
    /// prepared once per process (forms share their fonts, a reload keeps them).
    static func prepare(_ font: FontFile, codes: Set<UInt8>, form: String) throws(RenderingError) -> PreparedFont {
        let key = Key(bytes: font.bytes, codes: codes)
        if let known = cache.withLock({ $0[key] }) { return known }
        let prepared: PreparedFont
        do {
            prepared = try PreparedFont(font, codes: codes, form: form)
        } catch {
            if case .layout = error { throw error }
            throw .layout(
                form: form,
                "police « \(font.name) » (\(font.builtInBytes == nil ? font.path : font.fileName)) inutilisable : \(error.description)"
            )
        }
        cache.withLock { cache in
            // A few fonts in a few subsets at most; an administrator's edits should not pile up.
            if cache.count >= 32 { cache.removeAll() }
            cache[key] = prepared
        }
        return prepared
    }

    private struct Key: Hashable {
        let bytes: [UInt8]
        let codes: Set<UInt8>
    }

    private static let cache = Mutex<[Key: PreparedFont]>([:])

    private init(_ file: FontFile, codes: Set<UInt8>, form: String) throws(RenderingError) {
        let font = try TrueTypeFont.load(file.bytes, path: file.path)
        let textFont = TextFont.file(file)
        let measured = textFont.widths
        // Only the characters the font has: the others never reach it (`TextFont.encode`).
        let kept = codes.filter { $0 >= Self.firstCode && measured[Int($0)] != 0 }.sorted()
        var glyphs: [UInt16] = []
        var characters: [Unicode.Scalar?] = []
        var covered = [Bool](repeating: false, count: 256)
        for code in kept {
            guard let scalar = WinAnsiText.decode(code) else { continue }
            let glyph = font.glyph(for: scalar)
            // FormSchema's reader found this glyph (it measured a width); HarfBuzz, which
            // subsets, must find one too, or a person's text would fail at their request.
            guard glyph != 0 else {
                throw .layout(
                    form: form,
                    "police « \(file.name) » (\(file.builtInBytes == nil ? file.path : file.fileName)) inutilisable : sa table cmap ne donne pas de glyphe à « \(Character(scalar)) » (U+\(String(scalar.value, radix: 16, uppercase: true))) pour HarfBuzz ; la police est peut-être corrompue."
                )
            }
            glyphs.append(glyph)
            characters.append(scalar)
            covered[Int(code)] = true
        }
        let (program, _) = try font.subset(glyphs, characters: characters)
        self.program = try Deflate.compress(program, level: Z_BEST_COMPRESSION)
        programLength = program.count
        self.codes = covered
        widths = (Int(Self.firstCode)...255).map { measured[$0] }
        name = "\(fontSubsetTag(program.lazy.map(UInt64.init)))+\(font.postScriptName)"
        italicAngle = font.italicAngle
        // Nonsymbolic (32): the glyphs are reached through WinAnsiEncoding's characters; Italic (64).
        flags = 32 | (font.italicAngle != 0 ? 64 : 0)
        (ascent, descent, capHeight, boundingBox) = (font.ascent, font.descent, font.capHeight, font.boundingBox)
    }
}
