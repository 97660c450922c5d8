import AttestationKit
import CHaru
import CZlib

extension QRMatrix {
    /// Pixels a module in the PDF's image of the code. poppler smooths an image it enlarges
    /// less than four times, whatever its /Interpolate says, and at one pixel a module that
    /// blur made page 1's 92 pt code unreadable at 150 dpi (zbarimg, longest identity); at two
    /// the blur is half a module: zbarimg reads that code from 120 dpi, where the vector
    /// rectangles drawn before needed 150. Three read the same and four worse, for more bytes.
    static let imagePixelsPerModule = 2

    /// The modules as a 1-bit image, `scale` pixels a module: rows from the top, each padded
    /// to whole bytes, the leftmost pixel in the high bit; 1 is dark.
    func bitmap(scale: Int) -> (bytes: [UInt8], side: Int, bytesPerRow: Int) {
        let side = width * scale
        let bytesPerRow = (side + 7) / 8
        var bytes = [UInt8](repeating: 0, count: bytesPerRow * side)
        modules.withUnsafeBufferPointer { modules in
            bytes.withUnsafeMutableBufferPointer { bytes in
                for row in 0..<width {
                    let top = row * scale * bytesPerRow
                    for column in 0..<width where modules[row * width + column] {
                        for pixel in column * scale..<(column + 1) * scale {
                            bytes[top + pixel / 8] |= 0x80 >> UInt8(pixel % 8)
                        }
                    }
                    // The other rows of the module row are copies of its first.
                    for copy in 1..<scale {
                        let target = top + copy * bytesPerRow
                        _ = bytes[target..<target + bytesPerRow].update(fromContentsOf: bytes[top..<top + bytesPerRow])
                    }
                }
            }
        }
        return (bytes, side, bytesPerRow)
    }
}

extension HaruDocument {
    /// The QR code as an image XObject that any page of the document can draw: 1 bit a pixel,
    /// deflated here at zlib's fastest level, or stored for the offline template, whose page
    /// writes a new code's bits in place. libharu's own 1-bit image (hpdf.h's
    /// LoadRaw1BitImageFromMem) always CCITT-encodes: a quarter of a PDF's instructions, and a
    /// bigger image. Measured (Benchmarks/callgrind-per-render 200, instructions per PDF):
    /// 2,551,995 with CCITT, 2,082,451 deflated (form 2020-11-28); 2,775,738 and 2,247,349
    /// (2020-11-02); the image 1,181 bytes with CCITT, 572 deflated; the pixels the same.
    func image(_ qr: QRMatrix, deflated: Bool) throws(RenderingError) -> HPDF_Image {
        let (bytes, side, _) = qr.bitmap(scale: QRMatrix.imagePixelsPerModule)
        // DeviceGray: 0 is black, so the bitmap's 1 (dark) bits are inverted.
        let bits = bytes.map { ~$0 }
        let image = try self.image(
            deflated ? try Deflate.compress(bits, level: Z_BEST_SPEED) : bits, deflated: deflated, width: side,
            height: side, colourSpace: "DeviceGray", bits: 1)
        try disableInterpolation(image)
        return image
    }

    /// Draws the code in `placement` (x, y of its bottom-left corner and side in points,
    /// including a quiet zone of one module, as the official generator draws it).
    func draw(_ image: HPDF_Image, modules: Int, in placement: QRCodeBox, on page: HPDF_Page) throws(RenderingError) {
        let module = placement.size / Double(modules + 2)
        let side = placement.size - 2 * module
        let status = HPDF_Page_DrawImage(
            page, image, HPDF_REAL(placement.x + module), HPDF_REAL(placement.y + module), HPDF_REAL(side),
            HPDF_REAL(side))
        guard status == HPDF_OK else { throw error("HPDF_Page_DrawImage") }
    }
}
