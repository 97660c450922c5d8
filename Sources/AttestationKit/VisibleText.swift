/// Text shown back to a person, an error naming what they gave: what would not show, or would
/// act instead of showing (control characters, a NUL, a terminal's escape, line breaks,
/// bidirectional overrides and other format characters), is written out as `U+0000`, so a
/// message names the value without carrying its bytes into a page, a JSON body or a terminal.
public enum VisibleText {
    /// `text` with each invisible character written as `U+XXXX`.
    public static func escaped(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isInvisible) else { return text }
        var result = ""
        for scalar in text.unicodeScalars {
            if isInvisible(scalar) { result += codePoint(scalar) } else { result.unicodeScalars.append(scalar) }
        }
        return result
    }

    /// A character named in a message: `« 😀 » (U+1F600)`, or `U+0000` alone when it does not show.
    public static func named(_ scalar: Unicode.Scalar) -> String {
        isInvisible(scalar) ? codePoint(scalar) : "« \(scalar) » (\(codePoint(scalar)))"
    }

    /// `text` between French guillemets held to it by narrow no-break spaces (U+202F), as French
    /// typography writes them: never « or » alone at the end or the start of a line. For what the
    /// site shows; the terminal's messages (`named`, the admin CLI) keep plain spaces.
    public static func quoted(_ text: String) -> String {
        "«\u{202F}\(text)\u{202F}»"
    }

    /// `U+0041`: at least four hexadecimal digits, in capitals, as Unicode writes them.
    public static func codePoint(_ scalar: Unicode.Scalar) -> String {
        let hex = String(scalar.value, radix: 16, uppercase: true)
        return "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
    }

    static func isInvisible(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .control, .format, .lineSeparator, .paragraphSeparator, .surrogate: true
        default: false
        }
    }
}
