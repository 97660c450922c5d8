import CZlib

/// zlib-format compression, as PDF's FlateDecode reads it.
enum Deflate {
    /// The bytes compressed, by default at the best level: for content laid out once at
    /// start-up, so the time spent here is not spent per document.
    static func compress(_ bytes: [UInt8], level: Int32 = Z_BEST_COMPRESSION) throws(RenderingError) -> [UInt8] {
        var length = compressBound(uLong(bytes.count))
        var output = [UInt8](repeating: 0, count: Int(length))
        let status = output.withUnsafeMutableBufferPointer { out in
            bytes.withUnsafeBufferPointer {
                compress2(out.baseAddress, &length, $0.baseAddress, uLong($0.count), level)
            }
        }
        guard status == Z_OK else { throw .compressionFailed(status) }
        output.removeSubrange(Int(length)...)
        return output
    }
}
