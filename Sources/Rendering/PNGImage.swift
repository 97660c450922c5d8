import CPNG

/// Writes PNG with libpng's simplified API, which reports errors by return value instead of
/// longjmp (which Swift cannot survive).
enum PNGImage {
    /// A two-colour image, one byte per pixel: 0 for black, 1 for white. It is written as a
    /// 1-bit palette PNG, a sixteenth of the data of 8-bit grey, and libpng skips its costly
    /// per-row filter search for palette images.
    static func encode(blackAndWhite pixels: [UInt8], width: Int, height: Int) throws(RenderingError) -> [UInt8] {
        precondition(pixels.count >= width * height)
        // Stored deflate blocks are the worst case: the packed rows plus a little per block and chunk.
        return try pixels.withUnsafeBytes { source in
            Result { () throws(RenderingError) in
                try palettePNG(
                    width: width, height: height, palette: [0x00, 0xFF], rows: source.baseAddress!, stride: width,
                    capacity: (width / 8 + 2) * height * 2 + 1024)
            }
        }.get()
    }

    /// Ink from 0 (paper) to 255 (black), one byte a pixel, rows `stride` bytes apart, written
    /// as a 4-bit palette PNG of 16 greys: the ink is rounded to the nearest sixteenth (in place:
    /// `ink` holds palette indices afterwards, 0 the paper). Antialiased text keeps its look, and
    /// the file is two thirds of an 8-bit grey one (112 KB against 174 KB for page 1 of form
    /// 2020-11-28 at 150 dpi), libpng again skipping its filter search.
    static func encode(
        ink: UnsafeMutableBufferPointer<UInt8>, width: Int, height: Int, stride: Int
    ) throws(RenderingError) -> [UInt8] {
        precondition(ink.count >= stride * height && stride >= width)
        quantize(ink)
        // Index i is the grey of i sixteenths of ink. Stored deflate blocks are the worst case:
        // the packed rows, a filter byte a row, and a little per block and chunk.
        return try palettePNG(
            width: width, height: height, palette: (0..<16).map { UInt8(255 - $0 * 17) }, rows: ink.baseAddress!,
            stride: stride, capacity: ((width + 1) / 2 + 1) * height * 101 / 100 + 1024)
    }

    /// One byte a pixel, each an index into `palette` (grey levels), rows `stride` bytes apart,
    /// written as a palette PNG of as many bits a pixel as the palette needs, in at most
    /// `capacity` bytes. zlib level 3 and no row filter instead of libpng's defaults
    /// (`PNG_IMAGE_FLAG_FAST`): a QR code's rows repeat whole, which even fast deflate finds;
    /// its 400 px PNG costs 2,725,120 instructions instead of 3,836,310 (callgrind-per-render
    /// 200) and weighs 1,167 bytes instead of 986.
    private static func palettePNG(
        width: Int, height: Int, palette: [UInt8], rows: UnsafeRawPointer, stride: Int, capacity: Int
    ) throws(RenderingError) -> [UInt8] {
        var image = png_image()
        image.version = UInt32(PNG_IMAGE_VERSION)
        image.width = UInt32(width)
        image.height = UInt32(height)
        image.format = UInt32(PNG_FORMAT_GRAY) | UInt32(PNG_FORMAT_FLAG_COLORMAP)
        image.colormap_entries = UInt32(palette.count)
        image.flags = UInt32(PNG_IMAGE_FLAG_FAST)
        defer { png_image_free(&image) }
        var size = capacity
        var output = [UInt8](repeating: 0, count: size)
        let written = output.withUnsafeMutableBytes { memory in
            palette.withUnsafeBytes { colormap in
                png_image_write_to_memory(
                    &image, memory.baseAddress, &size, 0, rows, Int32(stride), colormap.baseAddress)
            }
        }
        guard written != 0 else { throw .png }
        output.removeSubrange(size...)
        return output
    }

    /// Each ink level to its palette index, the nearest of 0, 17, …, 255 divided by 17; the
    /// paper (0, most of a page) is skipped eight bytes at a time, as it stays 0.
    private static func quantize(_ ink: UnsafeMutableBufferPointer<UInt8>) {
        let table = inkIndex
        let raw = UnsafeMutableRawBufferPointer(ink)
        var index = 0
        table.withUnsafeBufferPointer { table in
            while index + 8 <= raw.count {
                if raw.loadUnaligned(fromByteOffset: index, as: UInt64.self) != 0 {
                    for byte in index..<index + 8 { ink[byte] = table[Int(ink[byte])] }
                }
                index += 8
            }
            while index < raw.count {
                ink[index] = table[Int(ink[index])]
                index += 1
            }
        }
    }

    private static let inkIndex: [UInt8] = (0...255).map { UInt8(($0 * 15 + 127) / 255) }
}
