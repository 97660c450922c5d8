import AttestationKit
import FormSchema

/// The advance widths of the 14 standard fonts in the encoding the PDF uses for them
/// (WinAnsiEncoding, Symbol's and ZapfDingbats' own), thousandths of an em by byte, so that the
/// layout, the PDF and the raster image all place text with the same numbers: AttestationKit's
/// (made from URW's AFM files), which the load-time checks and the layout of fixed text use.
///
/// Not libharu's own tables, although it draws the PDF: they agree to the unit but for WinAnsi's
/// 0xAD, which libharu measures as a glyph it lacks (the space's width) where PDF readers draw
/// WinAnsiEncoding's `hyphen` (StandardFontMetricsTests).
struct StandardFontMetrics: Sendable {
    private let table: [StandardFont: [Int]]

    /// Made once per process.
    static let shared = Result { () throws(RenderingError) -> StandardFontMetrics in StandardFontMetrics() }

    private init() {
        table = Dictionary(uniqueKeysWithValues: StandardFont.allCases.map { ($0, $0.widths) })
    }

    /// Widths by byte (a form's own font: its file's, FormSchema's `FontFile`).
    func widths(_ font: TextFont) -> [Int] {
        if case .standard(let standard) = font { table[standard]! } else { font.widths }
    }

    /// The width of `text` in points.
    func width(_ text: some Sequence<UInt8>, font: TextFont, size: Double) -> Double {
        let widths = widths(font)
        return Double(text.reduce(0) { $0 + widths[Int($1)] }) * size / 1000
    }
}
