import AttestationKit
import FormSchema

/// A person's value fitted into its slot, as text runs: in the slot's font (Helvetica unless
/// the form says another) when WinAnsi can write it, else the Unicode font; shrunk as the
/// official generator shrinks the city, then, for very long values, shrunk more or wrapped onto
/// a second line rather than run off the page.
///
/// Measured with the widths PDF readers use (StandardFontMetrics, and the Unicode font's
/// advances truncated to thousandths of an em as its `/W` array gives them), so every backend
/// draws the same lines at the same size.
enum FieldText {
    /// A character of a value: a WinAnsi byte of a standard font, or a Unicode scalar of the
    /// Unicode font, with its width in thousandths of an em.
    private struct Unit {
        let value: UInt32
        let width: Int
    }

    /// The width of `units` in points.
    private static func width(_ units: ArraySlice<Unit>, size: Double) -> Double {
        Double(units.reduce(0) { $0 + $1.width }) * size / 1000
    }

    /// The smallest type used before wrapping, and the smallest at all.
    static let smallestSingleLine = 6.0
    static let smallest = 4.0

    static func runs(
        value: String, slot: FieldSlot, metrics: StandardFontMetrics,
        unicodeFont: () throws(RenderingError) -> TrueTypeFont
    ) throws(RenderingError) -> [TextRun] {
        let units: [Unit]
        let unicode: Bool
        // A form's own font may lack a WinAnsi letter: the value then goes to the Unicode font.
        if let encoded = WinAnsi.encode(value), slot.font.isStandard || slot.font.encode(value) != nil {
            let table = metrics.widths(slot.font)
            units = encoded.map { Unit(value: UInt32($0), width: table[Int($0)]) }
            unicode = false
        } else {
            let font = try unicodeFont()
            units = value.unicodeScalars.map { Unit(value: $0.value, width: font.width(ofGlyph: font.glyph(for: $0))) }
            unicode = true
        }
        // `fitWidth` measures the values alone, not the slot's fixed words around them ("Fait à
        // {city}": the 2021 generators fitted the city alone).
        let (prefix, suffix) = slot.fixedWords
        var fitted = units[...]
        if value.unicodeScalars.starts(with: prefix.unicodeScalars),
            value.unicodeScalars.reversed().starts(with: suffix.unicodeScalars.reversed())
        {
            let count = { (text: String) in unicode ? text.unicodeScalars.count : WinAnsi.encode(text)?.count ?? 0 }
            let (head, tail) = (count(prefix), count(suffix))
            if head + tail <= units.count { fitted = units[head..<(units.count - tail)] }
        }
        let (size, lines) = fit(units, fitted: fitted, slot: slot)
        return lines.enumerated().map { index, line in
            let text: TextRun.Text =
                unicode
                ? .unicode(line.map { Unicode.Scalar($0.value)! })
                : .standard(slot.font, bytes: line.map { UInt8(truncatingIfNeeded: $0.value) })
            return TextRun(text: text, size: size, x: slot.x, y: slot.y - Double(index) * size * 1.15)
        }
    }

    /// The type size and the lines (one or two); `fitted`, the values without the fixed words
    /// around them, is what must fit `fitWidth`.
    private static func fit(_ units: [Unit], fitted: ArraySlice<Unit>, slot: FieldSlot) -> (Double, [[Unit]]) {
        let perPoint = width(units[...], size: 1)
        let start = slot.size ?? 11
        let minimum = slot.minSize ?? start

        // The official rule: one point at a time, down to the minimum, until it fits.
        var size = start
        if let fitWidth = slot.fitWidth {
            let fittedPerPoint = width(fitted, size: 1)
            while size > minimum, fittedPerPoint * size > fitWidth { size -= 1 }
        } else {
            while size > minimum, perPoint * size > slot.maxWidth { size -= 1 }
        }
        if perPoint * size <= slot.maxWidth { return (size, [units]) }
        let shrunk = (slot.maxWidth / perPoint * 2).rounded(.down) / 2
        if shrunk >= smallestSingleLine { return (shrunk, [units]) }
        size = min(minimum, smallestSingleLine)
        while true {
            let wrapped = wrap(units, width: slot.maxWidth, size: size)
            if wrapped.count <= 2 || size <= smallest { return (size, Array(wrapped.prefix(2))) }
            size -= 0.5
        }
    }

    /// Breaks at spaces; a single word wider than the line is cut where it overflows.
    private static func wrap(_ units: [Unit], width maximum: Double, size: Double) -> [[Unit]] {
        var lines: [[Unit]] = []
        var line: [Unit] = []
        // Words are joined again with one space: there is one when there are two words.
        let space = units.first { $0.value == 0x20 }
        for word in units.split(whereSeparator: { $0.value == 0x20 }) {
            let candidate = line.isEmpty ? Array(word) : line + [space!] + word
            if width(candidate[...], size: size) <= maximum || line.isEmpty && word.count == 1 {
                line = candidate
            } else if !line.isEmpty, width(word, size: size) <= maximum {
                lines.append(line)
                line = Array(word)
            } else {
                // Cut an over-long word: every unit is one character.
                var rest = candidate[...]
                while width(rest, size: size) > maximum, rest.count > 1 {
                    var cut = rest.startIndex + 1
                    while cut < rest.endIndex, width(rest[..<(cut + 1)], size: size) <= maximum { cut += 1 }
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
