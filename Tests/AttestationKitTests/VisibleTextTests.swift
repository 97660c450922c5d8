import TestSupport
import Testing

@testable import AttestationKit

@Suite("Visible text")
struct VisibleTextTests {
    @Test(arguments: [
        ("a\u{0}b", "aU+0000b"), ("\u{1B}[31m", "U+001B[31m"), ("\u{7F}", "U+007F"), ("\u{85}", "U+0085"),
        ("x\ny\tz\r", "xU+000AyU+0009zU+000D"), ("\u{202E}abc", "U+202Eabc"), ("\u{2028}", "U+2028"),
        ("Éloïse « 😀 » ’", "Éloïse « 😀 » ’"), ("", ""),
    ])
    func invisibleCharactersAreWrittenOut(text: String, shown: String) {
        #expect(VisibleText.escaped(text) == shown)
    }

    @Test func aCharacterIsNamedWithItsCodePoint() {
        #expect(VisibleText.named("😀") == "« 😀 » (U+1F600)")
        #expect(VisibleText.named("é") == "« é » (U+00E9)")
        #expect(VisibleText.named("\u{0}") == "U+0000")
        #expect(VisibleText.codePoint("\u{10FFFF}") == "U+10FFFF")
    }
}
