import AttestationKit
import CHaru

/// A person's value fitted into its slot: Helvetica when WinAnsi can write it, else the
/// embedded Unicode font; shrunk as the official generator shrinks the city, then, for
/// very long values, shrunk more or wrapped onto a second line rather than run off the page.
struct FieldText {
    private let font: HPDF_Font
    private let lines: [[UInt8]]
    private let size: Double
    private let slot: FieldSlot

    /// The smallest type used before wrapping, and the smallest at all.
    static let smallestSingleLine = 6.0
    static let smallest = 4.0

    init(value: String, slot: FieldSlot, fonts: inout PageFonts) throws(RenderingError) {
        self.slot = slot
        let bytes: [UInt8]
        if let encoded = WinAnsi.encode(value) {
            font = try fonts.standardFont(.regular)
            bytes = encoded
        } else {
            font = try fonts.unicodeFont()
            bytes = Array(value.utf8)
        }
        let font = self.font
        let perPoint = textWidth(bytes, font: font, size: 1)
        let start = slot.size ?? 11
        let minimum = slot.minSize ?? start
        let fit = slot.fitWidth ?? slot.maxWidth

        // The official rule: one point at a time, down to the minimum, until it fits.
        var size = start
        while size > minimum, perPoint * size > fit { size -= 1 }
        if perPoint * size <= slot.maxWidth {
            (self.size, lines) = (size, [bytes])
            return
        }
        let shrunk = (slot.maxWidth / perPoint * 2).rounded(.down) / 2
        if shrunk >= Self.smallestSingleLine {
            (self.size, lines) = (shrunk, [bytes])
            return
        }
        size = min(minimum, Self.smallestSingleLine)
        while true {
            let wrapped = Self.wrap(bytes, width: slot.maxWidth, font: font, size: size)
            if wrapped.count <= 2 || size <= Self.smallest {
                (self.size, lines) = (size, Array(wrapped.prefix(2)))
                return
            }
            size -= 0.5
        }
    }

    func draw(on page: HPDF_Page, fonts: inout PageFonts) throws(RenderingError) {
        fonts.select(font, size: size, on: page)
        for (index, line) in lines.enumerated() {
            let y = slot.y - Double(index) * size * 1.15
            (line.map { CChar(bitPattern: $0) } + [0]).withUnsafeBufferPointer {
                _ = HPDF_Page_TextOut(page, Float(slot.x), Float(y), $0.baseAddress)
            }
        }
    }

    /// Breaks at spaces; a single word wider than the line is cut where it overflows.
    private static func wrap(_ bytes: [UInt8], width: Double, font: HPDF_Font, size: Double) -> [[UInt8]] {
        var lines: [[UInt8]] = []
        var line: [UInt8] = []
        for word in bytes.split(separator: 0x20) {
            let candidate = line.isEmpty ? Array(word) : line + [0x20] + word
            if textWidth(candidate, font: font, size: size) <= width || line.isEmpty && word.count == 1 {
                line = candidate
            } else if !line.isEmpty, textWidth(Array(word), font: font, size: size) <= width {
                lines.append(line)
                line = Array(word)
            } else {
                // Cut an over-long word on a UTF-8 character boundary.
                var rest = candidate[...]
                while textWidth(Array(rest), font: font, size: size) > width, rest.count > 1 {
                    var cut = rest.startIndex + 1
                    while cut < rest.endIndex, textWidth(Array(rest[..<(cut + 1)]), font: font, size: size) <= width { cut += 1 }
                    while cut < rest.endIndex, rest[cut] & 0xC0 == 0x80 { cut -= 1 }
                    lines.append(Array(rest[..<cut]))
                    rest = rest[cut...]
                }
                line = Array(rest)
            }
        }
        lines.append(line)
        return lines
    }
}
