import CCairo
import CHaru
import FormSchema

/// A form's PNG picture (a logo), decoded once when the renderer starts: its bytes go into each
/// PDF through libharu's PNG loader, its ink into the page images through cairo.
///
/// Decoded at start-up rather than at the first request, so that a PNG whose header reads but
/// whose pixels do not is refused with the form, never at a person's request.
struct FormPicture: Sendable {
    let image: FormImage
    /// How dark each pixel shows on a grey picture, 0 (paper) to 255 (black), rows from the top:
    /// (1 − grey) × alpha, grey as PDF turns RGB into grey (0.3 R + 0.59 G + 0.11 B), which
    /// poppler's `-gray` pictures use too.
    let ink: [UInt8]
    /// How much each pixel covers what is under it, 0 to 255: an opaque picture hides the
    /// form's text under it, as in the PDF.
    let alpha: [UInt8]
    /// The picture laid on white paper, 8-bit RGB from the top, when it has an alpha channel: what
    /// the PDF holds instead of colour plus soft mask. libharu writes a PNG's soft mask
    /// uncompressed whatever the compression mode (RF.png and TAC.png of 2021: 776 KB a PDF
    /// of 885 KB); on a white page the picture shows the same.
    let onWhite: [UInt8]?

    init(_ image: FormImage, form: String) throws(RenderingError) {
        guard image.format == .png else { throw .layout(form: form, "image JPEG non dessinée") }
        self.image = image
        (ink, alpha, onWhite) = try Self.decode(image.bytes, form: form)
    }

    private static func decode(
        _ bytes: [UInt8], form: String
    ) throws(RenderingError) -> ([UInt8], [UInt8], [UInt8]?) {
        final class Reader {
            let bytes: [UInt8]
            var offset = 0
            init(_ bytes: [UInt8]) { self.bytes = bytes }
        }
        let reader = Reader(bytes)
        let surface = withExtendedLifetime(reader) {
            cairo_image_surface_create_from_png_stream(
                { closure, data, length in
                    let reader = Unmanaged<Reader>.fromOpaque(closure!).takeUnretainedValue()
                    let count = Int(length)
                    guard let data, reader.offset + count <= reader.bytes.count else { return CAIRO_STATUS_READ_ERROR }
                    reader.bytes.withUnsafeBufferPointer { source in
                        data.update(from: source.baseAddress! + reader.offset, count: count)
                    }
                    reader.offset += count
                    return CAIRO_STATUS_SUCCESS
                }, Unmanaged.passUnretained(reader).toOpaque())
        }
        guard let surface else { throw .layout(form: form, "image PNG illisible") }
        defer { cairo_surface_destroy(surface) }
        guard cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS, let data = cairo_image_surface_get_data(surface)
        else { throw .layout(form: form, "image PNG illisible") }
        cairo_surface_flush(surface)
        let width = Int(cairo_image_surface_get_width(surface))
        let height = Int(cairo_image_surface_get_height(surface))
        let stride = Int(cairo_image_surface_get_stride(surface))
        let format = cairo_image_surface_get_format(surface)
        var ink = [UInt8](repeating: 0, count: width * height)
        var alphas = [UInt8](repeating: 255, count: width * height)
        var onWhite = [UInt8](repeating: 255, count: width * height * 3)
        for row in 0..<height {
            for column in 0..<width {
                let pixel = data + row * stride
                let value: Double
                switch format {
                case CAIRO_FORMAT_ARGB32, CAIRO_FORMAT_RGB24:
                    // Native-endian 32-bit words, colour premultiplied by alpha.
                    let word = pixel.withMemoryRebound(to: UInt32.self, capacity: width) { $0[column] }
                    let alpha = format == CAIRO_FORMAT_RGB24 ? 255.0 : Double(word >> 24 & 0xFF)
                    let (red, green, blue) = (Double(word >> 16 & 0xFF), Double(word >> 8 & 0xFF), Double(word & 0xFF))
                    // Premultiplied grey g·a: darkness = a − g·a.
                    value = alpha - (0.3 * red + 0.59 * green + 0.11 * blue)
                    alphas[row * width + column] = UInt8(alpha)
                    // Over white: c·a + 255·(1 − a), c·a being what cairo holds.
                    let paper = 255 - alpha
                    let at = (row * width + column) * 3
                    onWhite[at] = UInt8(min(255, red + paper))
                    onWhite[at + 1] = UInt8(min(255, green + paper))
                    onWhite[at + 2] = UInt8(min(255, blue + paper))
                case CAIRO_FORMAT_A8:
                    value = Double(pixel[column])
                default:
                    throw .layout(form: form, "image PNG d’un format inattendu")
                }
                ink[row * width + column] = UInt8(max(0, min(255, value.rounded())))
            }
        }
        let transparent = format == CAIRO_FORMAT_ARGB32
        return (ink, alphas, transparent ? onWhite : nil)
    }
}

extension HaruDocument {
    /// A PNG picture as an image of the document, through libharu's own PNG loader (public
    /// API), deflated: libharu compresses nothing else in these documents (`HaruDocument.init`),
    /// so image compression is on only while it loads the picture.
    func png(_ bytes: [UInt8]) throws(RenderingError) -> HPDF_Image {
        HPDF_SetCompressionMode(handle, HPDF_UINT(HPDF_COMP_IMAGE))
        defer { HPDF_SetCompressionMode(handle, HPDF_UINT(HPDF_COMP_NONE)) }
        let image = bytes.withUnsafeBufferPointer {
            HPDF_LoadPngImageFromMem(handle, $0.baseAddress, HPDF_UINT($0.count))
        }
        guard let image else { throw error("HPDF_LoadPngImageFromMem") }
        return image
    }

    /// A form's picture as an image of the document: laid on white when it has an alpha
    /// channel (`FormPicture.onWhite`), else through libharu's PNG loader.
    func image(of picture: FormPicture) throws(RenderingError) -> HPDF_Image {
        guard let pixels = picture.onWhite else { return try png(picture.image.bytes) }
        return try rgbImage(pixels, width: picture.image.pixelWidth, height: picture.image.pixelHeight)
    }

    /// 8-bit RGB pixels, rows from the top, as a deflated image of the document.
    func rgbImage(_ pixels: [UInt8], width: Int, height: Int) throws(RenderingError) -> HPDF_Image {
        HPDF_SetCompressionMode(handle, HPDF_UINT(HPDF_COMP_IMAGE))
        defer { HPDF_SetCompressionMode(handle, HPDF_UINT(HPDF_COMP_NONE)) }
        let image = pixels.withUnsafeBufferPointer {
            HPDF_LoadRawImageFromMem(
                handle, $0.baseAddress, HPDF_UINT(width), HPDF_UINT(height), HPDF_CS_DEVICE_RGB, 8)
        }
        guard let image else { throw error("HPDF_LoadRawImageFromMem") }
        return image
    }

    /// Draws `image` with its lower-left corner at (x, y), `width` × `height` points.
    func draw(
        _ image: HPDF_Image, x: Double, y: Double, width: Double, height: Double, on page: HPDF_Page
    )
        throws(RenderingError)
    {
        guard
            HPDF_Page_DrawImage(page, image, HPDF_REAL(x), HPDF_REAL(y), HPDF_REAL(width), HPDF_REAL(height))
                == HPDF_OK
        else { throw error("HPDF_Page_DrawImage") }
    }
}
