import CZlib

/// zlib-format compression, as PDF's FlateDecode reads it.
enum Deflate {
    /// The bytes compressed, by default at the best level: for content laid out once at
    /// start-up, so the time spent here is not spent per document.
    ///
    /// The window and the hash table are no larger than the input needs: compress2's defaults
    /// (a 32 KiB window, memLevel 8) allocate and clear about 256 KiB for each call, for a QR
    /// image of 1.7 KB or a font subset of a few, in every document. Freed, that much goes
    /// back to the kernel at once under the server's trim threshold (AllocatorSettings), and
    /// perf showed the madvise and its TLB shootdowns at 5.5 % of the server's time, the page
    /// faults after at 1.8 %. Measured under wrk -c64 (server CPU over 10 s / attestations
    /// rendered): 510, 573, 545 µs a PDF with compress2; 445, 428, 436 µs with this.
    static func compress(_ bytes: [UInt8], level: Int32 = Z_BEST_COMPRESSION) throws(RenderingError) -> [UInt8] {
        // zlib's window is 2^9 to 2^15 bytes; one that holds the whole input finds every match.
        var windowBits: Int32 = 9
        while windowBits < 15 && 1 << windowBits < bytes.count { windowBits += 1 }
        // memLevel sizes the hash table (2^(memLevel+7) entries) and the output buffer.
        let memoryLevel = max(1, min(8, windowBits - 7))
        var stream = z_stream()
        var status = deflateInit2_(
            &stream, level, Z_DEFLATED, windowBits, memoryLevel, Z_DEFAULT_STRATEGY, ZLIB_VERSION,
            Int32(MemoryLayout<z_stream>.size))
        guard status == Z_OK else { throw .compressionFailed(status) }
        defer { deflateEnd(&stream) }
        var output = [UInt8](repeating: 0, count: Int(deflateBound(&stream, uLong(bytes.count))))
        status = output.withUnsafeMutableBufferPointer { out in
            bytes.withUnsafeBufferPointer { input in
                stream.next_in = UnsafeMutablePointer(mutating: input.baseAddress)
                stream.avail_in = uInt(input.count)
                stream.next_out = out.baseAddress
                stream.avail_out = uInt(out.count)
                return deflate(&stream, Z_FINISH)
            }
        }
        guard status == Z_STREAM_END else { throw .compressionFailed(status) }
        output.removeSubrange(Int(stream.total_out)...)
        return output
    }
}
