import AttestationKit
import FormSchema

// What an attestation's pages draw, independent of the output: the form's layout and the
// person's values turned into text runs, shapes and the QR code, in points from the page's
// lower-left corner, as PDF counts them. Made once per attestation (the form's fixed part once
// per form, in FormLayout) and read by each backend: the PDF writer (libharu) and the raster
// writer (cairo). Something new a form can draw is a new case here, which each backend then
// draws; neither backend lays anything out.

/// One page: its size, the form's fixed drawing, then this attestation's items over it.
struct PageDrawing: Sendable {
    let width: Double
    let height: Double
    /// Laid out once per form and shared by every attestation of it (not copied).
    let fixed: FixedDrawing
    /// The values, the marks of the chosen reasons, the QR codes.
    let items: [DrawingItem]
}

/// A form's fixed drawing of one page, with what each backend prepared from it once.
struct FixedDrawing: Sendable {
    let items: [DrawingItem]
    /// The PDF writer's content stream of `items`, deflated (PDFContent.swift).
    let pdfContent: [UInt8]
    /// The raster writer's picture of `items`, made on first need (RasterPage.swift).
    let raster = FixedRaster()

    static let empty = FixedDrawing(items: [], pdfContent: [])
}

enum DrawingItem: Sendable {
    case text(TextRun)
    /// The marks in the boxes of the chosen reasons, in the attestation's order. (The offline
    /// template's PDF writes every box's mark here instead, for the page to keep or comment out.)
    case reasonMarks([TextRun])
    /// A rectangle's outline.
    case rectangle(StrokedRectangle)
    case line(StrokedLine)
    /// The attestation's QR code in this square, its quiet zone of one module included.
    case qrCode(QRCodeBox)
    /// One of the form's pictures (`FormLayout.pictures`, by index) in its rectangle.
    case picture(Int)
}

/// One line of text in one font and size, from its baseline's left end.
struct TextRun: Sendable {
    enum Text: Sendable {
        /// A standard PDF font, not embedded; the text in the font's encoding: Windows-1252,
        /// as WinAnsiEncoding reads it (Symbol and ZapfDingbats: their own codes).
        case standard(TextFont, bytes: [UInt8])
        /// The Unicode font (DejaVu Sans), for text that Windows-1252 cannot write.
        case unicode([Unicode.Scalar])
    }

    let text: Text
    let size: Double
    let x: Double
    let y: Double
    var colour: Colour = .black
    /// Points added to the advance of every space: a justified line's stretch.
    var wordSpacing = 0.0
}

struct StrokedRectangle: Sendable {
    /// Lower-left corner.
    let x: Double
    let y: Double
    let width: Double
    let height: Double
    let lineWidth: Double
    var colour: Colour = .black
}

struct StrokedLine: Sendable {
    let x1: Double
    let y1: Double
    let x2: Double
    let y2: Double
    let lineWidth: Double
    /// On and off lengths in points; solid when empty.
    let dash: [Double]
    var colour: Colour = .black
}

struct QRCodeBox: Sendable {
    /// Lower-left corner and side, the quiet zone of one module included.
    let x: Double
    let y: Double
    let size: Double
}

enum Colour: Sendable, Equatable {
    /// 0 is black, 1 white.
    case gray(Double)
    /// Red, green and blue, each from 0 to 1.
    case rgb(Double, Double, Double)

    static let black = Colour.gray(0)

    /// A form's colour: a grey when its three components are equal (white is `gray(1)`).
    init(_ colour: RGBColor?) {
        guard let colour else {
            self = .black
            return
        }
        self =
            colour.red == colour.green && colour.green == colour.blue
            ? .gray(colour.red) : .rgb(colour.red, colour.green, colour.blue)
    }

    /// How dark a grey picture shows it, from 0 (white) to 1 (black): PDF's conversion of RGB
    /// to grey (ISO 32000-1, 10.3.3), which poppler's `-gray` pictures use too.
    var darkness: Double {
        switch self {
        case .gray(let level): 1 - level
        case .rgb(let red, let green, let blue): 1 - (0.3 * red + 0.59 * green + 0.11 * blue)
        }
    }
}
