import CPNG

/// Writes an 8-bit greyscale image as PNG with libpng's simplified API, which reports errors
/// by return value instead of longjmp (which Swift cannot survive).
enum PNGImage {
    static func encode(gray pixels: [UInt8], width: Int, height: Int) throws(RenderingError) -> [UInt8] {
        var image = png_image()
        image.version = UInt32(PNG_IMAGE_VERSION)
        image.width = UInt32(width)
        image.height = UInt32(height)
        image.format = UInt32(PNG_FORMAT_GRAY)
        defer { png_image_free(&image) }

        // Stored blocks are the worst case: the raw rows plus a little per block and chunk.
        var capacity = (width + 1) * height + (width + 1) * height / 1000 + 1024
        var output = [UInt8](repeating: 0, count: capacity)
        let written = output.withUnsafeMutableBytes { memory in
            pixels.withUnsafeBytes { source in
                png_image_write_to_memory(&image, memory.baseAddress, &capacity, 0, source.baseAddress, 0, nil)
            }
        }
        guard written != 0 else { throw .png }
        output.removeSubrange(capacity...)
        return output
    }
}
