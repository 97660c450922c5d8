import AttestationKit
import CHaru

/// A person's value fitted into its slot: Helvetica when WinAnsi can write it, else the
/// embedded Unicode font; shrunk as the official generator shrinks the city, then, for
/// very long values, shrunk more or wrapped onto a second line rather than run off the page.
///
/// A value is measured when created and drawn later: the Unicode font is embedded in between,
/// once every value has given it its characters.
struct FieldText {
    /// The font of a value and what its units are: CP1252 bytes of a standard font, or codes
    /// of the document's Unicode font (one per character).
    private enum Font {
        case standard(HPDF_Font)
        case unicode(widths: [Int])

        /// The width of `units` in points.
        func width(_ units: ArraySlice<UInt16>, size: Double) -> Double {
            switch self {
            case .standard(let font):
                let bytes = units.map { UInt8(truncatingIfNeeded: $0) }
                return textWidth(bytes, font: font, size: size)
            case .unicode(let widths):
                return Double(units.reduce(0) { $0 + widths[Int($1)] }) * size / 1000
            }
        }
    }

    private let font: Font
    private let lines: [[UInt16]]
    private let size: Double
    private let slot: FieldSlot

    /// The smallest type used before wrapping, and the smallest at all.
    static let smallestSingleLine = 6.0
    static let smallest = 4.0

    init(value: String, slot: FieldSlot, fonts: inout PageFonts) throws(RenderingError) {
        self.slot = slot
        let units: [UInt16]
        let space: UInt16?
        if let encoded = WinAnsi.encode(value) {
            font = .standard(try fonts.standardFont(.regular))
            units = encoded.map(UInt16.init)
            space = 0x20
        } else {
            units = try fonts.encodeUnicode(value)
            font = .unicode(widths: fonts.unicodeWidths)
            space = fonts.unicodeSpace
        }
        let font = self.font
        let perPoint = font.width(units[...], size: 1)
        let start = slot.size ?? 11
        let minimum = slot.minSize ?? start
        let fit = slot.fitWidth ?? slot.maxWidth

        // The official rule: one point at a time, down to the minimum, until it fits.
        var size = start
        while size > minimum, perPoint * size > fit { size -= 1 }
        if perPoint * size <= slot.maxWidth {
            (self.size, lines) = (size, [units])
            return
        }
        let shrunk = (slot.maxWidth / perPoint * 2).rounded(.down) / 2
        if shrunk >= Self.smallestSingleLine {
            (self.size, lines) = (shrunk, [units])
            return
        }
        size = min(minimum, Self.smallestSingleLine)
        while true {
            let wrapped = Self.wrap(units, space: space, width: slot.maxWidth, font: font, size: size)
            if wrapped.count <= 2 || size <= Self.smallest {
                (self.size, lines) = (size, Array(wrapped.prefix(2)))
                return
            }
            size -= 0.5
        }
    }

    func draw(on page: HPDF_Page, fonts: inout PageFonts) throws(RenderingError) {
        switch font {
        case .standard(let font):
            fonts.select(font, size: size, on: page)
            for (index, line) in lines.enumerated() {
                (line.map { CChar(bitPattern: UInt8(truncatingIfNeeded: $0)) } + [0]).withUnsafeBufferPointer {
                    _ = HPDF_Page_TextOut(page, Float(slot.x), Float(baseline(index)), $0.baseAddress)
                }
            }
        case .unicode:
            try fonts.selectUnicode(size: size, on: page)
            for (index, line) in lines.enumerated() {
                // libharu places the line (and so knows where the text matrix is, for the
                // TextOut calls that follow); the codes are written as they are.
                HPDF_Page_SetTextMatrix(page, 1, 0, 0, 1, Float(slot.x), Float(baseline(index)))
                var content = ContentStream()
                content.hexString(line)
                content.append(" Tj\n")
                try fonts.document.append(content, to: page)
            }
        }
    }

    private func baseline(_ line: Int) -> Double { slot.y - Double(line) * size * 1.15 }

    /// Breaks at spaces; a single word wider than the line is cut where it overflows.
    private static func wrap(_ units: [UInt16], space: UInt16?, width: Double, font: Font, size: Double) -> [[UInt16]] {
        var lines: [[UInt16]] = []
        var line: [UInt16] = []
        let words = if let space { units.split(separator: space) } else { [units[...]] }
        for word in words {
            let candidate = line.isEmpty ? Array(word) : line + [space!] + word
            if font.width(candidate[...], size: size) <= width || line.isEmpty && word.count == 1 {
                line = candidate
            } else if !line.isEmpty, font.width(word, size: size) <= width {
                lines.append(line)
                line = Array(word)
            } else {
                // Cut an over-long word: every unit is one character.
                var rest = candidate[...]
                while font.width(rest, size: size) > width, rest.count > 1 {
                    var cut = rest.startIndex + 1
                    while cut < rest.endIndex, font.width(rest[..<(cut + 1)], size: size) <= width { cut += 1 }
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
