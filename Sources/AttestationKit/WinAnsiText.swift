/// Windows-1252, the byte encoding of the standard fonts' `WinAnsiEncoding`: the one encoder
/// of the load-time checks and the renderer (Rendering's `WinAnsi`), so that what a form is
/// checked with is what is drawn.
public enum WinAnsiText {
    public static func encode(_ text: String) -> [UInt8]? {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            let value = scalar.value
            if (0x20...0x7E).contains(value) || (0xA0...0xFF).contains(value) {
                bytes.append(UInt8(value))
            } else if let byte = upperControlRange[value] {
                bytes.append(byte)
            } else {
                return nil
            }
        }
        return bytes
    }

    /// The character a CP1252 byte stands for; nil for control codes and the five bytes CP1252
    /// leaves undefined.
    public static func decode(_ byte: UInt8) -> Unicode.Scalar? {
        if (0x20...0x7E).contains(byte) || byte >= 0xA0 { return Unicode.Scalar(byte) }
        return upperControlCharacters[byte]
    }

    private static let upperControlCharacters = Dictionary(
        uniqueKeysWithValues: upperControlRange.map { ($0.value, Unicode.Scalar($0.key)!) })

    /// The printable characters CP1252 puts in 0x80–0x9F, where Latin-1 has control codes.
    private static let upperControlRange: [UInt32: UInt8] = [
        0x20AC: 0x80, 0x201A: 0x82, 0x0192: 0x83, 0x201E: 0x84, 0x2026: 0x85, 0x2020: 0x86,
        0x2021: 0x87, 0x02C6: 0x88, 0x2030: 0x89, 0x0160: 0x8A, 0x2039: 0x8B, 0x0152: 0x8C,
        0x017D: 0x8E, 0x2018: 0x91, 0x2019: 0x92, 0x201C: 0x93, 0x201D: 0x94, 0x2022: 0x95,
        0x2013: 0x96, 0x2014: 0x97, 0x02DC: 0x98, 0x2122: 0x99, 0x0161: 0x9A, 0x203A: 0x9B,
        0x0153: 0x9C, 0x017E: 0x9E, 0x0178: 0x9F,
    ]
}
