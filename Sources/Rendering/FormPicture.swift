import CCairo
import CHaru
import FormSchema
import Synchronization

/// A form's PNG picture (a logo), decoded once when the renderer starts: its colour and alpha
/// deflated once for the PDFs, its ink for the page images (cairo).
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
    /// The picture as the PDF stores it, deflated once: its colour, 8 bits a component from the
    /// top in `colourSpace`, and its alpha as the soft mask when it has an alpha channel. libharu's
    /// PNG loader wrote the soft mask uncompressed whatever the compression mode (RF.png and
    /// TAC.png of 2021: 776 KB of a PDF of 885 KB), and its loaders deflated again in every
    /// document (HaruInternals.swift, 4).
    let pdfColour: [UInt8]
    let colourSpace: String
    let pdfMask: [UInt8]?

    init(_ image: FormImage, form: String) throws(RenderingError) {
        guard image.format == .png else { throw .layout(form: form, "image JPEG non dessinée") }
        self.image = image
        let decoded: Decoded
        if let known = Self.decoded.withLock({ $0[image.bytes] }) {
            decoded = known
        } else {
            let (ink, alpha, rgb) = try Self.decode(image.bytes, form: form, name: Self.name(of: image))
            // No colour: an A8 surface, ink only, drawn grey.
            decoded = Decoded(
                ink: ink, alpha: alpha, pdfColour: try Deflate.compress(rgb ?? ink.map { 255 - $0 }),
                colourSpace: rgb == nil ? "DeviceGray" : "DeviceRGB",
                pdfMask: rgb != nil && alpha.contains { $0 != 255 } ? try Deflate.compress(alpha) : nil)
            Self.decoded.withLock { cache in
                // A few logos; pictures an administrator replaced should not stay held. At most
                // four of the largest accepted (FormImage.maximumPixels), 20 MB each.
                let held = cache.values.reduce(decoded.ink.count) { $0 + $1.ink.count }
                if cache.count >= 16 || held > 4 * FormImage.maximumPixels { cache.removeAll() }
                cache[image.bytes] = decoded
            }
        }
        (ink, alpha) = (decoded.ink, decoded.alpha)
        (pdfColour, colourSpace, pdfMask) = (decoded.pdfColour, decoded.colourSpace, decoded.pdfMask)
    }

    private struct Decoded: Sendable {
        let ink: [UInt8]
        let alpha: [UInt8]
        let pdfColour: [UInt8]
        let colourSpace: String
        let pdfMask: [UInt8]?
    }

    /// Pictures decoded already, by their file's bytes: the logos of 2021 are in three forms,
    /// decoded once (and again at a reload only when they changed). A few at most.
    private static let decoded = Mutex<[[UInt8]: Decoded]>([:])

    /// How an error names the picture: its file, or the form's own data.
    static func name(of image: FormImage) -> String {
        image.fileName.map { "image « \($0) »" } ?? "image en base64 (data)"
    }

    private static func decode(
        _ bytes: [UInt8], form: String, name: String
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
        guard let surface else { throw .layout(form: form, "\(name) illisible (mémoire insuffisante)") }
        defer { cairo_surface_destroy(surface) }
        guard cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS, let data = cairo_image_surface_get_data(surface)
        else {
            throw .layout(
                form: form,
                "\(name) illisible (PNG corrompu, tronqué ou incomplet : signature, en-tête, CRC, palette ou données d’image)"
            )
        }
        cairo_surface_flush(surface)
        let width = Int(cairo_image_surface_get_width(surface))
        let height = Int(cairo_image_surface_get_height(surface))
        let stride = Int(cairo_image_surface_get_stride(surface))
        // FormSchema refused larger headers; this holds for a FormImage made otherwise too.
        guard width * height <= FormImage.maximumPixels else {
            throw .layout(form: form, "\(name) de \(width) × \(height) pixels, trop grande")
        }
        let format = cairo_image_surface_get_format(surface)
        guard [CAIRO_FORMAT_ARGB32, CAIRO_FORMAT_RGB24, CAIRO_FORMAT_A8].contains(format) else {
            throw .layout(form: form, "\(name) d’un format inattendu")
        }
        var ink = [UInt8](repeating: 0, count: width * height)
        var alphas = [UInt8](repeating: 255, count: width * height)
        var colour = [UInt8](repeating: 255, count: width * height * 3)
        // Integer arithmetic on raw buffers: three logos of 2021 in three forms made the server
        // start in 12 s instead of 4 in a debug build with Double and array indexing per pixel.
        // The format compared once: per pixel (cairo's enum through a generic `==`), the
        // comparisons took 2.6 % of an `attestation-server --check-config` under the address
        // sanitizer, the rest of this loop 5.6 % (perf).
        let (isA8, isOpaque) = (format == CAIRO_FORMAT_A8, format == CAIRO_FORMAT_RGB24)
        ink.withUnsafeMutableBufferPointer { ink in
            alphas.withUnsafeMutableBufferPointer { alphas in
                colour.withUnsafeMutableBufferPointer { colour in
                    for row in 0..<height {
                        let pixel = data + row * stride
                        for column in 0..<width {
                            let at = row * width + column
                            guard !isA8 else {
                                ink[at] = pixel[column]
                                continue
                            }
                            // Native-endian 32-bit words, colour premultiplied by alpha.
                            let word = UnsafeRawPointer(pixel).load(fromByteOffset: 4 * column, as: UInt32.self)
                            let alpha = isOpaque ? 255 : Int(word >> 24 & 0xFF)
                            let (red, green, blue) = (Int(word >> 16 & 0xFF), Int(word >> 8 & 0xFF), Int(word & 0xFF))
                            // Premultiplied grey g·a: darkness = a − g·a, grey 0.3 R + 0.59 G + 0.11 B.
                            let darkness = (alpha * 100 - (30 * red + 59 * green + 11 * blue) + 50) / 100
                            ink[at] = UInt8(max(0, min(255, darkness)))
                            alphas[at] = UInt8(alpha)
                            // The colour itself: cairo holds it multiplied by alpha.
                            if alpha > 0 {
                                colour[3 * at] = UInt8(min(255, (red * 255 + alpha / 2) / alpha))
                                colour[3 * at + 1] = UInt8(min(255, (green * 255 + alpha / 2) / alpha))
                                colour[3 * at + 2] = UInt8(min(255, (blue * 255 + alpha / 2) / alpha))
                            }
                        }
                    }
                }
            }
        }
        return (ink, alphas, isA8 ? nil : colour)
    }
}

extension HaruDocument {
    /// A form's picture as an image of the document, with its soft mask if it has one: the
    /// bytes deflated when the form loaded, copied.
    func image(of picture: FormPicture) throws(RenderingError) -> HPDF_Image {
        let (width, height) = (picture.image.pixelWidth, picture.image.pixelHeight)
        let colour = try image(
            picture.pdfColour, deflated: true, width: width, height: height, colourSpace: picture.colourSpace, bits: 8)
        if let alpha = picture.pdfMask {
            let mask = try image(
                alpha, deflated: true, width: width, height: height, colourSpace: "DeviceGray", bits: 8)
            guard HPDF_Image_AddSMask(colour, mask) == HPDF_OK else { throw error("HPDF_Image_AddSMask") }
        }
        return colour
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
