import CHarfBuzz
import Foundation

/// A TrueType font file (DejaVu Sans by default), read once through HarfBuzz, from which each
/// document embeds a subset holding only the glyphs it prints, made by HarfBuzz's hb-subset.
///
/// Why not libharu's loader: see `HaruDocument.embed`. The face is prepared once for repeated
/// subsetting (hb_subset_preprocess): a PDF with a name outside WinAnsi then costs 3,868,861
/// instructions instead of 9,033,724 (Benchmarks/callgrind-per-render 200), for about 3 MB
/// more memory (4.9 MB against 1.9 MB for the face, C test). With hb-subset that PDF cost
/// 4,252,453 instructions where the 450-line subsetter written here before cost 4,106,968,
/// 0.45 ms median (attestation-bench), under the 0.6 ms asked.
///
/// HarfBuzz's faces and fonts are immutable once made and safe to use from any thread, so one
/// instance serves every thread of the renderer.
final class TrueTypeFont: @unchecked Sendable {
    let path: String
    /// The font's PostScript name (`DejaVuSans`), for `/BaseFont`.
    let postScriptName: String
    let unitsPerEm: Int
    let glyphCount: Int
    /// Font descriptor values, in thousandths of an em.
    let ascent: Int
    let descent: Int
    let capHeight: Int
    let boundingBox: (Int, Int, Int, Int)
    let italicAngle: Double

    /// The face prepared for repeated subsetting, and a font on it at one unit a font unit.
    private let face: OpaquePointer
    private let font: OpaquePointer

    /// Reads and checks the file; any problem is `.unicodeFont(path:)`.
    static func load(path: String) throws(RenderingError) -> TrueTypeFont {
        // Read into memory, not mapped as hb_blob_create_from_file would: a font file
        // rewritten in place while the server runs must not crash it (SIGBUS).
        guard let contents = FileManager.default.contents(atPath: path), !contents.isEmpty else {
            throw .unicodeFont(path: path)
        }
        return try load([UInt8](contents), path: path)
    }

    /// Checks a font's bytes, read from `path`; any problem is `.unicodeFont(path:)`.
    static func load(_ contents: [UInt8], path: String) throws(RenderingError) -> TrueTypeFont {
        guard !contents.isEmpty else { throw .unicodeFont(path: path) }
        // DUPLICATE: HarfBuzz keeps its own copy, freed with the last face using it.
        guard
            let blob = contents.withUnsafeBytes({ bytes in
                hb_blob_create(
                    bytes.baseAddress?.assumingMemoryBound(to: CChar.self), UInt32(bytes.count),
                    HB_MEMORY_MODE_DUPLICATE, nil, nil)
            })
        else { throw .unicodeFont(path: path) }
        defer { hb_blob_destroy(blob) }
        guard isWholeTrueTypeFile(blob) else { throw .unicodeFont(path: path) }
        let original = hb_face_create(blob, 0)
        defer { hb_face_destroy(original) }
        for tag in ["head", "hhea", "maxp", "hmtx", "loca", "glyf", "cmap"] {
            let table = hb_face_reference_table(original, Self.tag(tag))
            defer { hb_blob_destroy(table) }
            guard hb_blob_get_length(table) > 0 else { throw .unicodeFont(path: path) }
        }
        guard hb_face_get_upem(original) > 0, hb_face_get_glyph_count(original) > 0,
            let face = hb_subset_preprocess(original)
        else { throw .unicodeFont(path: path) }
        return TrueTypeFont(path: path, face: face)
    }

    /// TrueType outlines (0x00010000 or 'true': not CFF, not a collection), and every table
    /// of the directory inside the file: HarfBuzz cuts a table that runs past the end of the
    /// file short instead of refusing it, which would embed a font with glyphs missing.
    private static func isWholeTrueTypeFile(_ blob: OpaquePointer) -> Bool {
        var length: UInt32 = 0
        guard let data = hb_blob_get_data(blob, &length) else { return false }
        let bytes = UnsafeRawBufferPointer(start: data, count: Int(length))
        func u32(_ offset: Int) -> Int? {
            guard offset + 4 <= bytes.count else { return nil }
            return bytes[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
        }
        guard let version = u32(0), version == 0x0001_0000 || version == 0x7472_7565,
            let tableCount = u32(4).map({ $0 >> 16 }), tableCount > 0
        else { return false }
        for index in 0..<tableCount {
            let entry = 12 + 16 * index
            guard let offset = u32(entry + 8), let size = u32(entry + 12), offset + size <= bytes.count else {
                return false
            }
        }
        return true
    }

    private init(path: String, face: OpaquePointer) {
        self.path = path
        self.face = face
        font = hb_font_create(face)
        // hb_font_create scales to the units per em: advances and extents in font units.
        unitsPerEm = Int(hb_face_get_upem(face))
        glyphCount = Int(hb_face_get_glyph_count(face))
        let perMille = { [unitsPerEm] (value: Int32) in Int(value) * 1000 / unitsPerEm }

        var position: hb_position_t = 0
        hb_ot_metrics_get_position_with_fallback(font, HB_OT_METRICS_TAG_HORIZONTAL_ASCENDER, &position)
        ascent = perMille(position)
        hb_ot_metrics_get_position_with_fallback(font, HB_OT_METRICS_TAG_HORIZONTAL_DESCENDER, &position)
        descent = perMille(position)
        // CapHeight: the top of "H", as libharu measured it.
        var h: hb_codepoint_t = 0
        var extents = hb_glyph_extents_t()
        if hb_font_get_nominal_glyph(font, 0x48, &h) != 0, hb_font_get_glyph_extents(font, h, &extents) != 0 {
            capHeight = perMille(extents.y_bearing)
        } else {
            capHeight = ascent
        }
        italicAngle = Double(hb_style_get_value(font, HB_STYLE_TAG_SLANT_ANGLE))
        boundingBox =
            Self.headBoundingBox(face).map { (perMille($0.0), perMille($0.1), perMille($0.2), perMille($0.3)) }
            ?? (0, descent, 1000, ascent)
        postScriptName = Self.postScriptName(face) ?? "UnicodeFont"
    }

    deinit {
        hb_font_destroy(font)
        hb_face_destroy(face)
    }

    /// The glyph of a character; 0 (.notdef, a box) when the font has none.
    func glyph(for scalar: Unicode.Scalar) -> UInt16 {
        var glyph: hb_codepoint_t = 0
        guard hb_font_get_nominal_glyph(font, scalar.value, &glyph) != 0, glyph <= UInt16.max else { return 0 }
        return UInt16(glyph)
    }

    /// Advance width in thousandths of an em, truncated as libharu truncated it: the PDF's
    /// `/W` array and the layout use this same number.
    func width(ofGlyph glyph: UInt16) -> Int {
        Int(hb_font_get_glyph_h_advance(font, hb_codepoint_t(glyph))) * 1000 / unitsPerEm
    }

    // MARK: - Subset

    /// Tables a PDF reader does not use: text in a PDF is drawn glyph by glyph, already
    /// shaped, so the layout tables only make the subset larger and slower to make.
    private static let droppedTables = ["GSUB", "GPOS", "GDEF", "kern", "FFTM", "gasp"]

    /// A TrueType font with the glyphs `glyphs` (and the components of composite ones, at
    /// every level), .notdef's outline (a box, for the characters the font lacks), and a
    /// `cmap` from each character of `characters` to its glyph; the glyphs are renumbered,
    /// and `newGlyphs[i]` is the subset's number of `glyphs[i]`.
    func subset(
        _ glyphs: [UInt16], characters: [Unicode.Scalar?]
    ) throws(RenderingError) -> (program: [UInt8], newGlyphs: [UInt16]) {
        guard let input = hb_subset_input_create_or_fail() else { throw .fontSubsetFailed }
        defer { hb_subset_input_destroy(input) }
        let glyphSet = hb_subset_input_glyph_set(input)
        for glyph in glyphs { hb_set_add(glyphSet, hb_codepoint_t(glyph)) }
        let unicodeSet = hb_subset_input_unicode_set(input)
        for (scalar, glyph) in zip(characters, glyphs) where glyph != 0 {
            if let scalar { hb_set_add(unicodeSet, scalar.value) }
        }
        let dropped = hb_subset_input_set(input, HB_SUBSET_SETS_DROP_TABLE_TAG)
        for tag in Self.droppedTables { hb_set_add(dropped, Self.tag(tag)) }
        hb_subset_input_set_flags(input, HB_SUBSET_FLAGS_NOTDEF_OUTLINE.rawValue)

        guard let plan = hb_subset_plan_create_or_fail(face, input) else { throw .fontSubsetFailed }
        defer { hb_subset_plan_destroy(plan) }
        let mapping = hb_subset_plan_old_to_new_glyph_mapping(plan)
        var newGlyphs: [UInt16] = []
        newGlyphs.reserveCapacity(glyphs.count)
        for glyph in glyphs {
            let new = hb_map_get(mapping, hb_codepoint_t(glyph))
            // hb_map_get answers HB_MAP_VALUE_INVALID, (hb_codepoint_t) -1, for a glyph not kept.
            guard new <= UInt16.max else { throw .fontSubsetFailed }
            newGlyphs.append(UInt16(new))
        }
        guard let subset = hb_subset_plan_execute_or_fail(plan) else { throw .fontSubsetFailed }
        defer { hb_face_destroy(subset) }
        let blob = hb_face_reference_blob(subset)
        defer { hb_blob_destroy(blob) }
        var length: UInt32 = 0
        guard let data = hb_blob_get_data(blob, &length), length > 0 else { throw .fontSubsetFailed }
        return ([UInt8](UnsafeRawBufferPointer(start: data, count: Int(length))), newGlyphs)
    }

    // MARK: - Reading

    static func tag(_ name: String) -> hb_tag_t {
        name.utf8.reduce(0) { $0 << 8 | hb_tag_t($1) }
    }

    /// xMin, yMin, xMax, yMax of the `head` table, in font units.
    private static func headBoundingBox(_ face: OpaquePointer) -> (Int32, Int32, Int32, Int32)? {
        let head = hb_face_reference_table(face, tag("head"))
        defer { hb_blob_destroy(head) }
        var length: UInt32 = 0
        guard let data = hb_blob_get_data(head, &length), length >= 44 else { return nil }
        let bytes = UnsafeRawBufferPointer(start: data, count: Int(length))
        func i16(_ offset: Int) -> Int32 {
            Int32(Int16(bitPattern: UInt16(bytes[offset]) << 8 | UInt16(bytes[offset + 1])))
        }
        return (i16(36), i16(38), i16(40), i16(42))
    }

    /// Name 6, cleaned into a PDF name without delimiters or spaces.
    private static func postScriptName(_ face: OpaquePointer) -> String? {
        var length: UInt32 = 64
        var buffer = [CChar](repeating: 0, count: Int(length) + 1)
        hb_ot_name_get_utf8(face, chb_name_id_postscript_name(), nil, &length, &buffer)
        let text = String(decoding: buffer.prefix(Int(length)).map { UInt8(bitPattern: $0) }, as: UTF8.self)
        let cleaned = String(
            text.unicodeScalars.filter {
                $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "-" || $0 == "_")
            }
            .map(Character.init))
        return cleaned.isEmpty ? nil : cleaned
    }
}
