import AttestationKit
import CCairo
import FormSchema
import Foundation
import Synchronization

/// A page of the attestation as a greyscale PNG, drawn by cairo from the same PageDrawing as
/// the PDF: the text with the PDF's own advance widths (so every glyph lands where a PDF
/// reader puts it), the shapes with their widths and dashes, the QR code's modules unsmoothed.
///
/// The page is drawn on an 8-bit alpha surface (CAIRO_FORMAT_A8) whose alpha is the ink: 0 is
/// the paper, 255 black, and a grey ink of level g is drawn with alpha 1 − g. Ink is drawn
/// with OVER, cairo's and pixman's fast path, on a quarter of an RGB surface's memory, and the
/// alpha is turned into the PNG's grey levels in one pass. (A first version kept the paper's
/// whiteness and removed it with DEST_OUT, which composites every glyph run through a mask of
/// its own: 166 million instructions for page 1 of form 2020-11-28 at 150 dpi, against 83
/// million now, `Benchmarks/callgrind-per-render 50 page1-png`.)
///
/// The PNG is written by libpng (PNGImage), not by cairo_surface_write_to_png_stream: cairo
/// writes 8 bits a pixel with libpng's default filtering and compression, 174 KB and 379 million
/// instructions for page 1 of form 2020-11-28 at 150 dpi where 16 grey levels at 4 bits a pixel
/// with libpng's fast settings take 112 KB and 65 million (measured on pdftoppm's picture of
/// that page; the issue allows 150 KB).
enum RasterPage {
    /// The picture of `page`, `dpi` pixels an inch (72 points).
    static func png(
        _ page: PageDrawing, dpi: Int, qr: QRMatrix, pictures: [FormPicture] = [], fonts: RasterFonts,
        metrics: StandardFontMetrics,
        unicodeFont: TrueTypeFont?
    ) throws(RenderingError) -> [UInt8] {
        let scale = Double(dpi) / 72
        // As pdftoppm sizes its picture: every pixel the page touches.
        let width = Int((page.width * scale).rounded(.up))
        let height = Int((page.height * scale).rounded(.up))
        func canvas(_ context: OpaquePointer) -> Canvas {
            Canvas(
                context: context, scale: scale, pageHeight: page.height, fonts: fonts, metrics: metrics,
                unicodeFont: unicodeFont, qr: qr, pictures: pictures)
        }
        // The form's fixed drawing is the same for everyone: drawn once per resolution, then
        // copied under each attestation's items.
        let fixed =
            page.fixed.items.isEmpty
            ? nil
            : try page.fixed.raster.picture(dpi: dpi) { () throws(RenderingError) in
                try drawn(width: width, height: height, under: nil) { context throws(RenderingError) in
                    var fixedCanvas = canvas(context)
                    try fixedCanvas.draw(page.fixed.items)
                } then: { ink, _ in
                    Array(ink)
                }
            }
        return try drawn(width: width, height: height, under: fixed) { context throws(RenderingError) in
            var pageCanvas = canvas(context)
            try pageCanvas.draw(page.items)
        } then: { ink, stride throws(RenderingError) in
            try PNGImage.encode(ink: ink, width: width, height: height, stride: stride)
        }
    }

    /// Draws on a new A8 surface, blank or holding `base` (the bytes of a surface of the same
    /// size), then hands its bytes and stride to `then`, before the surface goes.
    private static func drawn<T>(
        width: Int, height: Int, under base: [UInt8]?,
        draw: (OpaquePointer) throws(RenderingError) -> Void,
        then: (UnsafeMutableBufferPointer<UInt8>, Int) throws(RenderingError) -> T
    ) throws(RenderingError) -> T {
        // Blank paper, no ink.
        let (surface, pixels, stride) = try alphaSurface(width: width, height: height)
        defer { cairo_surface_destroy(surface) }
        let ink = UnsafeMutableBufferPointer(start: pixels, count: stride * height)
        if let base {
            precondition(base.count == ink.count)
            _ = ink.update(fromContentsOf: base)
            cairo_surface_mark_dirty(surface)
        }
        do {
            guard let context = cairo_create(surface) else { throw RenderingError.raster("cairo_create") }
            defer { cairo_destroy(context) }
            try draw(context)
            let status = cairo_status(context)
            guard status == CAIRO_STATUS_SUCCESS else {
                throw RenderingError.raster(String(cString: cairo_status_to_string(status)))
            }
        }
        cairo_surface_flush(surface)
        return try then(ink, stride)
    }

    /// A new 8-bit alpha surface, zeroed by pixman (no ink), with its pixels and the bytes of a
    /// row: the page's, a picture's, the QR code's. The caller destroys it.
    private static func alphaSurface(
        width: Int, height: Int
    ) throws(RenderingError) -> (surface: OpaquePointer, pixels: UnsafeMutablePointer<UInt8>, stride: Int) {
        guard let surface = cairo_image_surface_create(CAIRO_FORMAT_A8, Int32(width), Int32(height)) else {
            throw .raster("cairo_image_surface_create")
        }
        guard cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS, let pixels = cairo_image_surface_get_data(surface)
        else {
            let reason = String(cString: cairo_status_to_string(cairo_surface_status(surface)))
            cairo_surface_destroy(surface)
            throw .raster(reason)
        }
        return (surface, pixels, Int(cairo_image_surface_get_stride(surface)))
    }

    /// Drawing on one page's surface, in points from the page's lower-left corner as PDF counts
    /// them, turned into pixels from the top left.
    private struct Canvas {
        let context: OpaquePointer
        let scale: Double
        let pageHeight: Double
        let fonts: RasterFonts
        let metrics: StandardFontMetrics
        let unicodeFont: TrueTypeFont?
        let qr: QRMatrix
        let pictures: [FormPicture]
        private var glyphs: [cairo_glyph_t] = []
        /// What is set on the context, to skip the calls that change nothing.
        private var face: OpaquePointer?
        private var fontSize = 0.0
        private var ink: Colour?

        init(
            context: OpaquePointer, scale: Double, pageHeight: Double, fonts: RasterFonts, metrics: StandardFontMetrics,
            unicodeFont: TrueTypeFont?, qr: QRMatrix, pictures: [FormPicture]
        ) {
            (self.context, self.scale, self.pageHeight, self.fonts) = (context, scale, pageHeight, fonts)
            (self.metrics, self.unicodeFont, self.qr, self.pictures) = (metrics, unicodeFont, qr, pictures)
            cairo_set_font_options(context, fonts.options)
        }

        func x(_ points: Double) -> Double { points * scale }
        /// As poppler computes it (pageHeight × scale − points × scale), so that a value on a
        /// pixel's edge rounds the same way.
        func y(_ points: Double) -> Double { pageHeight * scale - points * scale }

        mutating func draw(_ items: [DrawingItem]) throws(RenderingError) {
            for item in items {
                switch item {
                case .text(let run): try text(run)
                case .reasonMarks(let runs): for run in runs { try text(run) }
                case .rectangle(let rectangle):
                    setInk(rectangle.colour)
                    cairo_set_line_width(context, rectangle.lineWidth * scale)
                    cairo_set_dash(context, nil, 0, 0)
                    cairo_rectangle(
                        context, x(rectangle.x), y(rectangle.y + rectangle.height),
                        rectangle.width * scale, rectangle.height * scale)
                    cairo_stroke(context)
                case .line(let line):
                    setInk(line.colour)
                    cairo_set_line_width(context, line.lineWidth * scale)
                    let dashes = line.dash.map { $0 * scale }
                    cairo_set_dash(context, dashes, Int32(dashes.count), 0)
                    cairo_move_to(context, x(line.x1), y(line.y1))
                    cairo_line_to(context, x(line.x2), y(line.y2))
                    cairo_stroke(context)
                case .qrCode(let box): try qrCode(box)
                case .picture(let number): try picture(pictures[number])
                }
            }
        }

        /// Each glyph at the pen position the PDF's widths give, the pen moving from the run's
        /// start: the same place a PDF reader draws it.
        private mutating func text(_ run: TextRun) throws(RenderingError) {
            setInk(run.colour)
            let advance = run.size / 1000
            var pen = run.x
            glyphs.removeAll(keepingCapacity: true)
            // The baseline on the row that holds it, as poppler places glyphs (cairo would take
            // the nearest row edge): the same rows as pdftoppm's picture of the PDF.
            let baseline = (y(run.y) - 1e-6).rounded(.down)
            var standard: (face: OpaquePointer, glyphs: [UInt])?
            if case .standard(let font, _) = run.text {
                guard let found = fonts.standard(font) else { throw .raster("no raster face for \(font.rawValue)") }
                standard = found
            }
            let runFace = standard?.face ?? fonts.unicode
            // poppler draws a glyph whose font box is over 50 pixels high (its glyph cache's
            // `glyphH`, the box truncated plus 3) at the whole pixel left of its position, a
            // smaller one at a quarter pixel; cairo 1.16 rounds every glyph to the nearest pixel.
            // Taking poppler's pixel for the large ones brought page 1 at 300 dpi from 96.9 % to
            // 99.0 % of inked pixels equal after the blur (form 2020-11-02).
            let boxPixels = fonts.boxHeight(runFace) * run.size * scale
            let wholePixel = Int(boxPixels) + 3 > 50
            func column(_ points: Double) -> Double { wholePixel ? x(points).rounded(.down) : x(points) }
            switch run.text {
            case .standard(let font, let bytes):
                setFont(runFace, size: run.size)
                let table = standard!.glyphs
                let widths = metrics.widths(font)
                for byte in bytes {
                    glyphs.append(cairo_glyph_t(index: table[Int(byte)], x: column(pen), y: baseline))
                    pen += Double(widths[Int(byte)]) * advance
                    // PDF's word spacing: added after every single-byte code 32.
                    if byte == 0x20 { pen += run.wordSpacing }
                }
            case .unicode(let scalars):
                // The same file as the PDF's Unicode font: HarfBuzz's glyph numbers are FreeType's.
                guard let unicodeFont else { preconditionFailure("Unicode text without the Unicode font") }
                setFont(fonts.unicode, size: run.size)
                for scalar in scalars {
                    let glyph = unicodeFont.glyph(for: scalar)
                    glyphs.append(cairo_glyph_t(index: UInt(glyph), x: column(pen), y: baseline))
                    pen += Double(unicodeFont.width(ofGlyph: glyph)) * advance
                }
            }
            cairo_show_glyphs(context, glyphs, Int32(glyphs.count))
        }

        private mutating func setFont(_ newFace: OpaquePointer, size: Double) {
            if face != newFace {
                cairo_set_font_face(context, newFace)
                face = newFace
            }
            if fontSize != size {
                cairo_set_font_size(context, size * scale)
                fontSize = size
            }
        }

        private mutating func setInk(_ colour: Colour) {
            guard ink != colour else { return }
            // The ink's darkness is the alpha the surface keeps.
            cairo_set_source_rgba(context, 0, 0, 0, colour.darkness)
            ink = colour
        }

        /// The QR code as pdftoppm, the tests' reference, draws the PDF's image of it
        /// (QRCodeImage.swift: two pixels a module, not to be smoothed). The image fills whole
        /// pixels, from the one holding its left (top) edge to the one after its right (bottom)
        /// edge. Enlarged four times or more, each image pixel covers whole pixels, ⌊i × size /
        /// side⌋ from the start for image pixel i; enlarged less, it is smoothed (bilinear);
        /// reduced, each pixel is the mean of the image pixels that start in it. Drawn so, the
        /// code is read back by zbarimg at the same resolutions as pdftoppm's picture of the PDF
        /// (72 to 200 dpi every 4, three people: both fail on page 1 only at 96 dpi, and for the
        /// longest identity from 72 to 104 and at 144), where sharp modules at every size failed
        /// more often (72, 88 dpi) and the image smoothed at every size far more. The sharp and
        /// reduced images are drawn as the modules' rectangles, their edges where those rules
        /// put them (a pixel half covered where it holds two image pixels of different modules):
        /// pixman fills whole pixels on its fast path, where the image through a pattern cost
        /// 18 million instructions for page 2 at 150 dpi.
        private mutating func qrCode(_ box: QRCodeBox) throws(RenderingError) {
            setInk(.black)
            let module = box.size / Double(qr.width + 2)
            let side = qr.width * QRMatrix.imagePixelsPerModule
            let left = Int(x(box.x + module).rounded(.down))
            let right = Int(x(box.x + box.size - module).rounded(.down)) + 1
            let top = Int(y(box.y + box.size - module).rounded(.down))
            let bottom = Int(y(box.y + module).rounded(.down)) + 1
            let (width, height) = (right - left, bottom - top)
            if width >= side, width < 4 * side {
                try smoothedImage(left: left, top: top, width: width, height: height, side: side)
                return
            }
            /// Where the edge before module `index` falls, from `start`, over `size` pixels.
            func edge(_ index: Int, from start: Int, over size: Int) -> Double {
                let pixel = index * QRMatrix.imagePixelsPerModule
                if size >= side { return Double(start + pixel * size / side) }
                // The pixel in which image pixel `pixel` lies, and the image pixels it holds.
                var holder = pixel * size / side
                while (holder + 1) * side / size <= pixel { holder += 1 }
                while holder * side / size > pixel { holder -= 1 }
                let first = holder * side / size
                let count = (holder + 1) * side / size - first
                return Double(start + holder) + Double(pixel - first) / Double(count)
            }
            for rectangle in qr.rectangles() {
                let x0 = edge(rectangle.x, from: left, over: width)
                let y0 = edge(rectangle.y, from: top, over: height)
                cairo_rectangle(
                    context, x0, y0, edge(rectangle.x + rectangle.width, from: left, over: width) - x0,
                    edge(rectangle.y + rectangle.height, from: top, over: height) - y0)
            }
            cairo_fill(context)
        }

        /// A form's picture scaled into its rectangle with cairo's filter, as poppler smooths an
        /// enlarged or reduced image: what it covers is taken off the ink under it (DEST_OUT by
        /// its alpha), then its own ink added (ADD), so an opaque picture hides the text under it.
        private mutating func picture(_ picture: FormPicture) throws(RenderingError) {
            setInk(.black)
            cairo_save(context)
            cairo_rectangle(
                context, x(picture.image.x), y(picture.image.y + picture.image.height), picture.image.width * scale,
                picture.image.height * scale)
            cairo_clip(context)
            cairo_set_operator(context, CAIRO_OPERATOR_DEST_OUT)
            try mask(picture.alpha, of: picture.image)
            cairo_set_operator(context, CAIRO_OPERATOR_ADD)
            try mask(picture.ink, of: picture.image)
            cairo_restore(context)
        }

        /// Paints the current source through `pixels` (A8, the picture's size) scaled to the
        /// picture's rectangle.
        private func mask(_ pixels: [UInt8], of placed: FormImage) throws(RenderingError) {
            let (side, height) = (placed.pixelWidth, placed.pixelHeight)
            let (image, data, stride) = try RasterPage.alphaSurface(width: side, height: height)
            defer { cairo_surface_destroy(image) }
            pixels.withUnsafeBufferPointer { ink in
                for row in 0..<height {
                    (data + row * stride).update(from: ink.baseAddress! + row * side, count: side)
                }
            }
            cairo_surface_mark_dirty(image)
            guard let pattern = cairo_pattern_create_for_surface(image) else {
                throw .raster("cairo_pattern_create_for_surface")
            }
            defer { cairo_pattern_destroy(pattern) }
            cairo_pattern_set_filter(pattern, CAIRO_FILTER_GOOD)
            let left = x(placed.x)
            let top = y(placed.y + placed.height)
            let (width, tall) = (placed.width * scale, placed.height * scale)
            var matrix = cairo_matrix_t()
            let (scaleX, scaleY) = (Double(side) / width, Double(height) / tall)
            cairo_matrix_init(&matrix, scaleX, 0, 0, scaleY, -left * scaleX, -top * scaleY)
            cairo_pattern_set_matrix(pattern, &matrix)
            cairo_mask(context, pattern)
        }

        /// The image of the modules (1 is dark), enlarged into the pixels given with cairo's
        /// bilinear filter.
        private func smoothedImage(left: Int, top: Int, width: Int, height: Int, side: Int) throws(RenderingError) {
            let (bits, _, bytesPerRow) = qr.bitmap(scale: QRMatrix.imagePixelsPerModule)
            let (image, data, stride) = try RasterPage.alphaSurface(width: side, height: side)
            defer { cairo_surface_destroy(image) }
            for row in 0..<side {
                for column in 0..<side where bits[row * bytesPerRow + column / 8] & (0x80 >> UInt8(column % 8)) != 0 {
                    data[row * stride + column] = 0xFF
                }
            }
            cairo_surface_mark_dirty(image)
            guard let pattern = cairo_pattern_create_for_surface(image) else {
                throw .raster("cairo_pattern_create_for_surface")
            }
            defer { cairo_pattern_destroy(pattern) }
            cairo_pattern_set_filter(pattern, CAIRO_FILTER_BILINEAR)
            // The edge pixels repeated outward, so the smoothing stops at the image's edges.
            cairo_pattern_set_extend(pattern, CAIRO_EXTEND_PAD)
            // From the page's pixels to the image's.
            let (scaleX, scaleY) = (Double(side) / Double(width), Double(side) / Double(height))
            var matrix = cairo_matrix_t()
            cairo_matrix_init(&matrix, scaleX, 0, 0, scaleY, -Double(left) * scaleX, -Double(top) * scaleY)
            cairo_pattern_set_matrix(pattern, &matrix)
            cairo_save(context)
            cairo_rectangle(context, Double(left), Double(top), Double(width), Double(height))
            cairo_clip(context)
            cairo_mask(context, pattern)
            cairo_restore(context)
        }
    }
}

/// The picture of a form's fixed drawing at the last resolution asked, shared by the threads
/// of the renderer: a page image then costs a copy of it, not drawing the form's hundreds of
/// lines again. One resolution only, to bound the memory (a byte a pixel: 2.2 MB for an A4 page
/// at 150 dpi, 8.7 MB at 300); another resolution replaces it.
final class FixedRaster: Sendable {
    private let last = Mutex<(dpi: Int, ink: [UInt8])?>(nil)

    init() {}

    func picture(dpi: Int, draw: () throws(RenderingError) -> [UInt8]) throws(RenderingError) -> [UInt8] {
        if let known = last.withLock({ $0 }), known.dpi == dpi { return known.ink }
        // Drawn outside the lock: two first requests may both draw it, none waits for the other.
        let ink = try draw()
        last.withLock { $0 = (dpi, ink) }
        return ink
    }
}
