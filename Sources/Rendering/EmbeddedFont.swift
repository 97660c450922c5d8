import CHaru
import CZlib
import Foundation

/// The Unicode font's use in one document. Each distinct character gets a code (1, 2, …, the
/// CID of the embedded font, which /CIDToGIDMap maps to its glyph in the subset embedded once
/// the values are measured); code 0 is .notdef. A character the font lacks keeps a code of its
/// own (drawn as .notdef), so the text still extracts exactly.
struct UnicodeFontUse {
    let font: TrueTypeFont
    /// By code: the character, the font's glyph, the width in thousandths of an em.
    private(set) var characters: [Unicode.Scalar?] = [nil]
    private(set) var glyphs: [UInt16] = [0]
    private(set) var widths: [Int]
    private var codes: [Unicode.Scalar: UInt16] = [:]

    init(font: TrueTypeFont) {
        self.font = font
        widths = [font.width(ofGlyph: 0)]
    }

    mutating func encode(_ text: [Unicode.Scalar]) -> [UInt16] {
        var result: [UInt16] = []
        result.reserveCapacity(text.count)
        for scalar in text {
            if let code = codes[scalar] {
                result.append(code)
                continue
            }
            // Two-byte codes (Identity-H): far more than a person's fields hold (`Identity.maximumLengths`).
            guard characters.count < 0xFFFF else {
                result.append(0)
                continue
            }
            let code = UInt16(characters.count)
            let glyph = font.glyph(for: scalar)
            codes[scalar] = code
            characters.append(scalar)
            glyphs.append(glyph)
            widths.append(font.width(ofGlyph: glyph))
            result.append(code)
        }
        return result
    }

    /// A subset tag for `/BaseFont` (six capitals), the same for the same characters.
    var subsetTag: String { fontSubsetTag(characters.dropFirst().map { UInt64($0!.value) }) }

    /// The `/ToUnicode` CMap: code → character, for copying and searching the text.
    var toUnicode: [UInt8] {
        var cmap = ContentStream()
        cmap.append(
            """
            /CIDInit /ProcSet findresource begin
            12 dict begin
            begincmap
            /CIDSystemInfo << /Registry (Adobe) /Ordering (UCS) /Supplement 0 >> def
            /CMapName /Adobe-Identity-UCS def
            /CMapType 2 def
            1 begincodespacerange
            <0000> <FFFF>
            endcodespacerange

            """)
        let mapped = Array(characters.enumerated().dropFirst())
        var start = 0
        while start < mapped.count {
            let block = mapped[start..<min(start + 100, mapped.count)]
            cmap.append("\(block.count) beginbfchar\n")
            for (code, scalar) in block {
                cmap.append("<")
                cmap.hex(UInt16(code))
                cmap.append("> <")
                for unit in String(scalar!).utf16 { cmap.hex(unit) }
                cmap.append(">\n")
            }
            cmap.append("endbfchar\n")
            start += 100
        }
        cmap.append(
            """
            endcmap
            CMapName currentdict /CMap defineresource pop
            end
            end

            """)
        return cmap.bytes
    }
}

/// Six capitals for a subset's `/BaseFont` (`ABCDEF+Name`), the same for the same values: an
/// FNV-1a hash of them, in base 26.
func fontSubsetTag(_ values: some Sequence<UInt64>) -> String {
    var hash: UInt64 = 0xCBF2_9CE4_8422_2325
    for value in values { hash = (hash ^ value) &* 0x0100_0000_01B3 }
    var tag = ""
    for _ in 0..<6 {
        tag.append(Character(Unicode.Scalar(UInt8(ascii: "A") + UInt8(hash % 26))))
        hash /= 26
    }
    return tag
}

extension HaruDocument {
    /// The subset of the Unicode font as a Type 0 font (Identity-H, two-byte codes), its
    /// TrueType program embedded and deflated, with widths, a CID-to-glyph map and a ToUnicode map: the font
    /// dictionary, to register on the pages that use it.
    ///
    /// Written with libharu's internal object functions (see HaruInternals.swift): libharu's
    /// own TrueType path (HPDF_UseUTFEncodings, HPDF_LoadTTFontFromFile, the "UTF-8" encoder)
    /// parses the whole font file and embeds its whole tables in every document: 137 million
    /// instructions and 87 KB for a document printing « Łukasz Wałęsa » (callgrind, C loop of
    /// 10 documents, against 89,000 for the same document without the text); it also loses
    /// the second level of composite glyphs (« Nguyễn » printed « Nguyen ») and poppler warns
    /// about its ToUnicode map.
    func embed(_ use: UnicodeFontUse) throws(RenderingError) -> HPDF_Dict {
        let font = use.font
        let (program, newGlyphs) = try font.subset(use.glyphs, characters: use.characters)
        let name = "\(use.subsetTag)+\(font.postScriptName)"

        // Each object is added to its parent as soon as it is made: the document frees it
        // then, whatever fails later.
        // Deflated here at zlib's fastest level rather than by libharu at its default (6):
        // 3,875,201 instead of 4,096,474 instructions per PDF for 15 more bytes.
        let file = try stream(try Deflate.compress(program, level: Z_BEST_SPEED), deflated: true)
        var status = HPDF_Dict_AddNumber(file, "Length1", HPDF_INT32(program.count))

        guard status == HPDF_OK else { throw error("HPDF_Dict_AddNumber (Length1)") }
        // Symbolic (4): the glyphs are reached by index, not through a standard encoding.
        let descriptor = try fontDescriptor(
            name: name, flags: 4, italicAngle: font.italicAngle, ascent: font.ascent, descent: font.descent,
            capHeight: font.capHeight, boundingBox: font.boundingBox, program: file)

        let cidFont = try indirectDictionary()
        let system = try addDictionary("CIDSystemInfo", to: cidFont)
        try addString("Registry", "Adobe", to: system)
        try addString("Ordering", "Identity", to: system)
        status |= HPDF_Dict_AddNumber(system, "Supplement", 0)
        let widths = try addArray("W", to: cidFont)
        status |= HPDF_Array_AddNumber(widths, 1)
        let list = try appendArray(to: widths)
        for width in use.widths.dropFirst() { status |= HPDF_Array_AddNumber(list, HPDF_INT32(width)) }
        status |= HPDF_Dict_AddName(cidFont, "Type", "Font")
        status |= HPDF_Dict_AddName(cidFont, "Subtype", "CIDFontType2")
        status |= HPDF_Dict_AddName(cidFont, "BaseFont", name)
        status |= HPDF_Dict_Add(cidFont, "FontDescriptor", descriptor)
        // Code (CID) i draws the subset's glyph newGlyphs[i], big-endian, two bytes each: a
        // few dozen bytes, stored as they are.
        var map: [UInt8] = []
        map.reserveCapacity(2 * newGlyphs.count)
        for glyph in newGlyphs { map += [UInt8(glyph >> 8), UInt8(glyph & 0xFF)] }
        status |= HPDF_Dict_Add(cidFont, "CIDToGIDMap", try storedStream(map))
        guard status == HPDF_OK else { throw error("HPDF_Dict_Add (CIDFontType2)") }

        let toUnicode = try stream(try Deflate.compress(use.toUnicode, level: Z_BEST_SPEED), deflated: true)
        let type0 = try indirectDictionary()
        let descendants = try addArray("DescendantFonts", to: type0)
        status = HPDF_Array_Add(descendants, cidFont)
        status |= HPDF_Dict_AddName(type0, "Type", "Font")
        status |= HPDF_Dict_AddName(type0, "Subtype", "Type0")
        status |= HPDF_Dict_AddName(type0, "BaseFont", name)
        status |= HPDF_Dict_AddName(type0, "Encoding", "Identity-H")
        status |= HPDF_Dict_Add(type0, "ToUnicode", toUnicode)
        guard status == HPDF_OK else { throw error("HPDF_Dict_Add (Type0)") }
        return type0
    }
}

extension HaruDocument {
    /// A form's own font as a simple TrueType font in WinAnsiEncoding, its subset embedded as
    /// prepared when the form loaded (`PreparedFont`): the font dictionary, to register on the
    /// pages that use it. Only the dictionaries are made here; the program's bytes are copied.
    func embed(_ font: PreparedFont) throws(RenderingError) -> HPDF_Dict {
        let file = try stream(font.program, deflated: true)
        var status = HPDF_Dict_AddNumber(file, "Length1", HPDF_INT32(font.programLength))
        guard status == HPDF_OK else { throw error("HPDF_Dict_AddNumber (Length1)") }
        let descriptor = try fontDescriptor(
            name: font.name, flags: font.flags, italicAngle: font.italicAngle, ascent: font.ascent,
            descent: font.descent, capHeight: font.capHeight, boundingBox: font.boundingBox, program: file)

        let dictionary = try indirectDictionary()
        status |= HPDF_Dict_AddName(dictionary, "Type", "Font")
        status |= HPDF_Dict_AddName(dictionary, "Subtype", "TrueType")
        status |= HPDF_Dict_AddName(dictionary, "BaseFont", font.name)
        status |= HPDF_Dict_AddNumber(dictionary, "FirstChar", HPDF_INT32(PreparedFont.firstCode))
        status |= HPDF_Dict_AddNumber(dictionary, "LastChar", 255)
        status |= HPDF_Dict_AddName(dictionary, "Encoding", "WinAnsiEncoding")
        status |= HPDF_Dict_Add(dictionary, "FontDescriptor", descriptor)
        let widths = try addArray("Widths", to: dictionary)
        for width in font.widths { status |= HPDF_Array_AddNumber(widths, HPDF_INT32(width)) }
        guard status == HPDF_OK else { throw error("HPDF_Dict_Add (TrueType)") }
        return dictionary
    }
}

extension HaruDocument {
    /// A font's `/FontDescriptor` with its TrueType program (`FontFile2`); values in thousandths
    /// of an em.
    func fontDescriptor(
        name: String, flags: Int, italicAngle: Double, ascent: Int, descent: Int, capHeight: Int,
        boundingBox: (Int, Int, Int, Int), program: HPDF_Dict
    ) throws(RenderingError) -> HPDF_Dict {
        let descriptor = try indirectDictionary()
        var status = HPDF_Dict_AddName(descriptor, "Type", "FontDescriptor")
        status |= HPDF_Dict_AddName(descriptor, "FontName", name)
        status |= HPDF_Dict_AddNumber(descriptor, "Flags", HPDF_INT32(flags))
        status |= HPDF_Dict_AddReal(descriptor, "ItalicAngle", HPDF_REAL(italicAngle))
        status |= HPDF_Dict_AddNumber(descriptor, "Ascent", HPDF_INT32(ascent))
        status |= HPDF_Dict_AddNumber(descriptor, "Descent", HPDF_INT32(descent))
        status |= HPDF_Dict_AddNumber(descriptor, "CapHeight", HPDF_INT32(capHeight))
        status |= HPDF_Dict_AddNumber(descriptor, "StemV", 80)
        status |= HPDF_Dict_Add(descriptor, "FontFile2", program)
        guard status == HPDF_OK else { throw error("HPDF_Dict_Add (FontDescriptor)") }
        let box = try addArray("FontBBox", to: descriptor)
        let (left, bottom, right, top) = boundingBox
        for value in [left, bottom, right, top] { status |= HPDF_Array_AddNumber(box, HPDF_INT32(value)) }
        guard status == HPDF_OK else { throw error("HPDF_Array_AddNumber (FontBBox)") }
        return descriptor
    }
}
