import AttestationKit
import CCairo
import FormSchema
import Foundation
import Synchronization

/// The fonts of the raster pages as cairo faces over FreeType: URW's clones of the standard
/// fonts from Debian's fonts-urw-base35, metric-compatible with them (Nimbus Sans for
/// Helvetica, Nimbus Roman for Times, Nimbus Mono PS for Courier: the same faces poppler
/// substitutes for the PDF's standard fonts), and the Unicode font file the PDF embeds
/// from. Made once, with the mapping of every WinAnsi byte to its glyph; cairo's faces are safe
/// to share between threads, each drawing on its own surface.
final class RasterFonts: @unchecked Sendable {
    /// The clone of each standard font that is written in WinAnsiEncoding. (Symbol and
    /// ZapfDingbats, in their own encodings, are not drawn yet: Form.awaitingRenderer.)
    static let standardFiles: [StandardFont: String] = [
        .helvetica: "NimbusSans-Regular.otf", .helveticaBold: "NimbusSans-Bold.otf",
        .helveticaOblique: "NimbusSans-Italic.otf", .helveticaBoldOblique: "NimbusSans-BoldItalic.otf",
        .timesRoman: "NimbusRoman-Regular.otf", .timesBold: "NimbusRoman-Bold.otf",
        .timesItalic: "NimbusRoman-Italic.otf", .timesBoldItalic: "NimbusRoman-BoldItalic.otf",
        .courier: "NimbusMonoPS-Regular.otf", .courierBold: "NimbusMonoPS-Bold.otf",
        .courierOblique: "NimbusMonoPS-Italic.otf", .courierBoldOblique: "NimbusMonoPS-BoldItalic.otf",
    ]

    /// cairo_font_face_t of each standard style, and of the Unicode font.
    private let standard: [StandardFont: OpaquePointer]
    /// The faces of the forms' own fonts, by file path, with the glyph of each WinAnsi byte.
    private let files: [String: (face: OpaquePointer, glyphs: [UInt])]
    let unicode: OpaquePointer
    /// The glyph of each WinAnsi byte in each standard face.
    private let standardGlyphs: [StandardFont: [UInt]]
    /// The height of each face's bounding box (FreeType's `bbox`), in ems: poppler places a
    /// glyph on a whole pixel when this box is over 50 pixels high (RasterPage).
    private let boxHeights: [OpaquePointer: Double]
    /// Grey antialiasing, outlines and advances not hinted: glyphs where the PDF puts them, as
    /// poppler draws them (it hints nothing either).
    let options: OpaquePointer

    init(standardDirectory: String, unicodePath: String, formFonts: [String] = []) throws(RenderingError) {
        guard let options = cairo_font_options_create() else { throw .raster("cairo_font_options_create") }
        cairo_font_options_set_antialias(options, CAIRO_ANTIALIAS_GRAY)
        cairo_font_options_set_hint_style(options, CAIRO_HINT_STYLE_NONE)
        cairo_font_options_set_hint_metrics(options, CAIRO_HINT_METRICS_OFF)
        self.options = options
        var faces: [OpaquePointer] = []
        // What was made so far is destroyed when a later font fails (deinit does not run then).
        var complete = false
        defer {
            if !complete {
                for face in faces { cairo_font_face_destroy(face) }
                cairo_font_options_destroy(options)
            }
        }
        var standard: [StandardFont: OpaquePointer] = [:]
        var glyphs: [StandardFont: [UInt]] = [:]
        var heights: [OpaquePointer: Double] = [:]
        for font in StandardFont.allCases {
            guard let file = Self.standardFiles[font] else { continue }
            let path = "\(standardDirectory)/\(file)"
            let face = try Self.face(path: path, package: "fonts-urw-base35", options: options)
            faces.append(face)
            standard[font] = face
            glyphs[font] = try Self.winAnsiGlyphs(face, path: path, options: options)
            heights[face] = try Self.boxHeight(face, path: path, package: "fonts-urw-base35", options: options)
        }
        unicode = try Self.face(path: unicodePath, package: "fonts-dejavu-core", options: options)
        faces.append(unicode)
        heights[unicode] = try Self.boxHeight(
            unicode, path: unicodePath, package: "fonts-dejavu-core", options: options)
        var files: [String: (face: OpaquePointer, glyphs: [UInt])] = [:]
        for path in formFonts where files[path] == nil {
            let face = try Self.face(path: path, package: "the form's fonts", options: options)
            faces.append(face)
            files[path] = (face, try Self.winAnsiGlyphs(face, path: path, options: options))
            heights[face] = try Self.boxHeight(face, path: path, package: "the form's fonts", options: options)
        }
        self.files = files
        boxHeights = heights
        self.standard = standard
        standardGlyphs = glyphs
        complete = true
    }

    deinit {
        for face in standard.values { cairo_font_face_destroy(face) }
        for file in files.values { cairo_font_face_destroy(file.face) }
        cairo_font_face_destroy(unicode)
        cairo_font_options_destroy(options)
    }

    /// The face of a standard font and the glyph of each of its bytes; nil for Symbol and
    /// ZapfDingbats.
    func standard(_ font: TextFont) -> (face: OpaquePointer, glyphs: [UInt])? {
        switch font {
        case .standard(let font):
            guard let face = standard[font], let glyphs = standardGlyphs[font] else { return nil }
            return (face, glyphs)
        case .file(let file):
            return (try? BuiltInFontFiles.path(of: file)).flatMap { files[$0] }
        }
    }

    /// The height of `face`'s bounding box in ems.
    func boxHeight(_ face: OpaquePointer) -> Double { boxHeights[face]! }

    private static func boxHeight(
        _ face: OpaquePointer, path: String, package: String, options: OpaquePointer
    ) throws(RenderingError) -> Double {
        let scaled = scaledFont(face, size: 12, options: options)
        defer { cairo_scaled_font_destroy(scaled) }
        guard let ftFace = cairo_ft_scaled_font_lock_face(scaled) else {
            throw .rasterFont(path: path, package: package)
        }
        defer { cairo_ft_scaled_font_unlock_face(scaled) }
        let box = ftFace.pointee.bbox
        return Double(box.yMax - box.yMin) / Double(ftFace.pointee.units_per_EM)
    }

    /// A face for the font file at `path`, checked by making a scaled font of it now: a file
    /// missing or unreadable is an error here, not a blank image later.
    private static func face(
        path: String, package: String, options: OpaquePointer
    ) throws(RenderingError) -> OpaquePointer {
        guard FileManager.default.isReadableFile(atPath: path), let pattern = FcPatternCreate() else {
            throw .rasterFont(path: path, package: package)
        }
        defer { FcPatternDestroy(pattern) }
        // The file itself, not a fontconfig match: the same font on every machine, or an error.
        guard FcPatternAddString(pattern, FC_FILE, path) != 0, FcPatternAddInteger(pattern, FC_INDEX, 0) != 0,
            let face = cairo_ft_font_face_create_for_pattern(pattern)
        else { throw .rasterFont(path: path, package: package) }
        let scaled = scaledFont(face, size: 12, options: options)
        defer { cairo_scaled_font_destroy(scaled) }
        guard cairo_font_face_status(face) == CAIRO_STATUS_SUCCESS,
            cairo_scaled_font_status(scaled) == CAIRO_STATUS_SUCCESS
        else {
            cairo_font_face_destroy(face)
            throw .rasterFont(path: path, package: package)
        }
        return face
    }

    private static func scaledFont(_ face: OpaquePointer, size: Double, options: OpaquePointer) -> OpaquePointer? {
        var matrix = cairo_matrix_t()
        var identity = cairo_matrix_t()
        cairo_matrix_init_scale(&matrix, size, size)
        cairo_matrix_init_identity(&identity)
        return cairo_scaled_font_create(face, &matrix, &identity, options)
    }

    /// The face's glyph for each WinAnsi byte (0, .notdef, for the bytes WinAnsi leaves undefined).
    private static func winAnsiGlyphs(
        _ face: OpaquePointer, path: String, options: OpaquePointer
    ) throws(RenderingError) -> [UInt] {
        let scaled = scaledFont(face, size: 12, options: options)
        defer { cairo_scaled_font_destroy(scaled) }
        var table = [UInt](repeating: 0, count: 256)
        for byte in 0x20...0xFF {
            guard let scalar = WinAnsi.decode(UInt8(byte)) else { continue }
            let utf8 = Array(String(Character(scalar)).utf8CString)
            var glyphs: UnsafeMutablePointer<cairo_glyph_t>?
            var count: Int32 = 0
            let status = cairo_scaled_font_text_to_glyphs(
                scaled, 0, 0, utf8, Int32(utf8.count - 1), &glyphs, &count, nil, nil, nil)
            defer { cairo_glyph_free(glyphs) }
            guard status == CAIRO_STATUS_SUCCESS else { throw .rasterFont(path: path, package: "fonts-urw-base35") }
            if count == 1, let glyphs { table[byte] = glyphs[0].index }
        }
        return table
    }
}

/// The raster fonts, made on first need and kept for the renderer's lifetime; a failure is tried
/// again next time (the fonts may have been installed since). PDFs never need them.
final class RasterFontSource: Sendable {
    let standardDirectory: String
    let unicodePath: String
    /// The files of the forms' own fonts.
    let formFonts: [String]
    private let fonts = Mutex<RasterFonts?>(nil)

    init(standardDirectory: String, unicodePath: String, formFonts: [String]) {
        self.standardDirectory = standardDirectory
        self.unicodePath = unicodePath
        self.formFonts = formFonts
    }

    func load() throws(RenderingError) -> RasterFonts {
        try fonts.withLock { (fonts: inout RasterFonts?) throws(RenderingError) -> RasterFonts in
            if let fonts { return fonts }
            let loaded = try RasterFonts(
                standardDirectory: standardDirectory, unicodePath: unicodePath, formFonts: formFonts)
            fonts = loaded
            return loaded
        }
    }
}
