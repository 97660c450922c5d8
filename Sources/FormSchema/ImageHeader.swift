import Foundation

/// The format and pixel size of a PNG or JPEG, from its first bytes.
struct ImageHeader {
    let format: FormImage.Format
    let width: Int
    let height: Int

    init?(bytes: [UInt8]) {
        func bigEndian(_ offset: Int, _ count: Int) -> Int {
            (offset..<offset + count).reduce(0) { $0 << 8 | Int(bytes[$1]) }
        }
        if bytes.count >= 24, bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]),
            bytes[12..<16].elementsEqual("IHDR".utf8)
        {
            (format, width, height) = (.png, bigEndian(16, 4), bigEndian(20, 4))
        } else if bytes.starts(with: [0xFF, 0xD8]) {
            // Segments until a start of frame (SOF0–SOF15 but DHT, JPG and DAC), which holds
            // the height then the width.
            var offset = 2
            var found: (Int, Int)?
            while offset + 9 < bytes.count, bytes[offset] == 0xFF {
                let marker = bytes[offset + 1]
                let length = bigEndian(offset + 2, 2)
                if (0xC0...0xCF).contains(marker), ![0xC4, 0xC8, 0xCC].contains(marker) {
                    found = (bigEndian(offset + 7, 2), bigEndian(offset + 5, 2))
                    break
                }
                guard length >= 2 else { break }
                offset += 2 + length
            }
            guard let found else { return nil }
            (format, width, height) = (.jpeg, found.0, found.1)
        } else {
            return nil
        }
        guard width > 0, height > 0 else { return nil }
    }
}
