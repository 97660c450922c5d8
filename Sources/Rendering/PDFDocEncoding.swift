import AttestationKit
import Foundation

/// PDFDocEncoding, the encoding of the document information strings (title, author…). It is
/// Latin-1 except in 0x18–0x1F and 0x80–0xA0, where it differs from CP1252 as well.
enum PDFDocEncoding {
    /// The bytes of `text`; a character with no PDFDocEncoding form is transliterated to ASCII.
    ///
    /// Each character is composed first (NFC): an added form's title typed as a letter and a
    /// combining accent ("e" + U+0301, as some editors save it) is one byte, « é », and a
    /// character only partly encodable is folded whole, not written as its base letter and then
    /// its folded form (« Gdan\u{301}sk » was « Gdannsk »).
    static func encode(_ text: String) -> [UInt8] {
        var bytes: [UInt8] = []
        for character in text {
            let composed = String(character).precomposedStringWithCanonicalMapping
            let encoded = composed.unicodeScalars.map(byte(for:))
            if encoded.allSatisfy({ $0 != nil }) {
                bytes.append(contentsOf: encoded.compactMap { $0 })
            } else {
                bytes.append(contentsOf: ASCIIFolding.fold(composed).utf8)
            }
        }
        return bytes
    }

    /// The byte of `scalar`, nil where PDFDocEncoding has none.
    private static func byte(for scalar: Unicode.Scalar) -> UInt8? {
        let value = scalar.value
        if (0x20...0x7E).contains(value) || (0xA1...0xFF).contains(value) && value != 0xAD { return UInt8(value) }
        return special[value]
    }

    /// The bytes of `text` as a C string, for libharu's document information.
    static func cString(_ text: String) -> [CChar] {
        encode(text).map { CChar(bitPattern: $0) } + [0]
    }

    private static let special: [UInt32: UInt8] = [
        0x02D8: 0x18, 0x02C7: 0x19, 0x02C6: 0x1A, 0x02D9: 0x1B, 0x02DD: 0x1C, 0x02DB: 0x1D, 0x02DA: 0x1E,
        0x02DC: 0x1F, 0x2022: 0x80, 0x2020: 0x81, 0x2021: 0x82, 0x2026: 0x83, 0x2014: 0x84, 0x2013: 0x85,
        0x0192: 0x86, 0x2044: 0x87, 0x2039: 0x88, 0x203A: 0x89, 0x2212: 0x8A, 0x2030: 0x8B, 0x201E: 0x8C,
        0x201C: 0x8D, 0x201D: 0x8E, 0x2018: 0x8F, 0x2019: 0x90, 0x201A: 0x91, 0x2122: 0x92, 0xFB01: 0x93,
        0xFB02: 0x94, 0x0141: 0x95, 0x0152: 0x96, 0x0160: 0x97, 0x0178: 0x98, 0x017D: 0x99, 0x0131: 0x9A,
        0x0142: 0x9B, 0x0153: 0x9C, 0x0161: 0x9D, 0x017E: 0x9E, 0x20AC: 0xA0,
    ]
}
