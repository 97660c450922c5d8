import Foundation

/// Folds text to printable ASCII for the QR payload, as the official generator did, but with a
/// real transliteration where it dropped letters: `Łukasz` → `Lukasz` (not `ukasz`),
/// `Øster` → `Oster`, `Straße` → `Strasse`, `Œuvre` → `OEuvre`.
public enum ASCIIFolding {
    public static func fold(_ text: String) -> String {
        if text.utf8.allSatisfy(isPrintableASCII) { return text }

        // Accents only (the common French case): drop combining marks, no ICU transliterator.
        let stripped = String(
            String.UnicodeScalarView(
                text.decomposedStringWithCanonicalMapping.unicodeScalars.filter {
                    $0.properties.generalCategory != .nonspacingMark
                }))
        if stripped.utf8.allSatisfy(isPrintableASCII) { return stripped }

        let transliterated =
            text.applyingTransform(StringTransform("Any-Latin; Latin-ASCII"), reverse: false) ?? stripped
        // Whatever has no ASCII form (emoji, symbols) is dropped, as the official generator did.
        return String(decoding: transliterated.utf8.filter(isPrintableASCII), as: UTF8.self)
    }

    private static func isPrintableASCII(_ byte: UInt8) -> Bool { (0x20...0x7E).contains(byte) }
}
