import AttestationKit
import CHaru

/// The advance widths of Helvetica and its bold and oblique in WinAnsiEncoding, thousandths of
/// an em by byte: libharu's own tables, read once, so that the layout, the PDF and the raster
/// image all place text with the numbers PDF readers use (the standard fonts' metrics).
///
/// Read into arrays rather than asked of libharu at each measure: libharu's fonts belong to a
/// document, and its width function sums the same integers (Type1Font_TextWidth), so the sums
/// here are the same to the unit.
struct StandardFontMetrics: Sendable {
    private let regular: [Int]
    private let bold: [Int]
    private let italic: [Int]

    /// Read from a scratch document, once per process.
    static let shared = Result { () throws(RenderingError) -> StandardFontMetrics in try StandardFontMetrics() }

    private init() throws(RenderingError) {
        let document = try HaruDocument()
        func widths(_ style: FontStyle) throws(RenderingError) -> [Int] {
            let font = try document.standardFont(style)
            return (0...255).map { (byte: Int) in
                var single = UInt8(byte)
                return Int(HPDF_Font_TextWidth(font, &single, 1).width)
            }
        }
        regular = try widths(.regular)
        bold = try widths(.bold)
        italic = try widths(.italic)
        try document.check()
    }

    /// Widths by WinAnsi byte.
    func widths(_ style: FontStyle) -> [Int] {
        switch style {
        case .regular: regular
        case .bold: bold
        case .italic: italic
        }
    }

    /// The width of `text` in points.
    func width(_ text: some Sequence<UInt8>, style: FontStyle, size: Double) -> Double {
        let table = widths(style)
        return Double(text.reduce(0) { $0 + table[Int($1)] }) * size / 1000
    }
}
