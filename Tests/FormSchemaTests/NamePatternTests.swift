import Foundation
import Testing

@testable import FormSchema

/// The hand-written checks of names accept exactly what the regexes they replaced accepted:
/// the regexes are the oracle, on every string of a small alphabet up to the lengths where the
/// limits bite, and on the cases at the edges.
@Suite("Name patterns")
struct NamePatternTests {
    /// Strings of `alphabet` from length 0 to `length`.
    static func strings(of alphabet: [String], upTo length: Int) -> [String] {
        var all = [""]
        var level = [""]
        for _ in 0..<length {
            level = level.flatMap { prefix in alphabet.map { prefix + $0 } }
            all += level
        }
        return all
    }

    static let alphabet = ["a", "Z", "0", "_", "-", ".", "é", " ", "\u{0661}"]
    static let edges = [
        String(repeating: "a", count: 31), String(repeating: "a", count: 32), String(repeating: "a", count: 33),
        String(repeating: "b", count: 63), String(repeating: "b", count: 64), String(repeating: "b", count: 65),
        String(repeating: "c", count: 128), String(repeating: "c", count: 129), "a\u{301}", "a\r\n",
    ]
    static var samples: [String] { strings(of: alphabet, upTo: 3) + edges }

    @Test func reasonCodesAsTheRegexSaid() {
        for text in Self.samples {
            #expect(
                NamePattern.reasonCode.matches(text) == (text.wholeMatch(of: /[a-z][a-z0-9_]{0,31}/) != nil),
                "\(text.debugDescription)")
        }
    }

    @Test func idsAndFontNamesAsTheRegexSaid() {
        for text in Self.samples {
            #expect(
                NamePattern.formID.matches(text) == (text.wholeMatch(of: /[a-z0-9][a-z0-9-]{0,63}/) != nil),
                "\(text.debugDescription)")
            #expect(
                NamePattern.contextID.matches(text) == (text.wholeMatch(of: /[a-z0-9][a-z0-9-]{0,31}/) != nil),
                "\(text.debugDescription)")
            #expect(
                NamePattern.fontName.matches(text) == (text.wholeMatch(of: /[A-Za-z0-9][A-Za-z0-9-]{0,62}/) != nil),
                "\(text.debugDescription)")
        }
    }

    @Test func fileNamesAsTheRegexSaid() {
        let names =
            Self.strings(of: ["a", "_", ".", "-", "é"], upTo: 3).flatMap { stem in
                ["png", "PNG", "jpeg", "ttf", "gif", "png.", ""].map { "\(stem).\($0)" } + [stem + "png"]
            } + ["\(String(repeating: "c", count: 128)).png", "\(String(repeating: "c", count: 129)).png", "a/b.png"]
        for text in names {
            #expect(
                NamePattern.isFileName(text, extensions: ["png", "PNG", "jpg", "JPG", "jpeg", "JPEG"])
                    == (text.wholeMatch(of: /[A-Za-z0-9_][A-Za-z0-9._-]{0,127}\.(png|PNG|jpg|JPG|jpeg|JPEG)/) != nil),
                "\(text.debugDescription)")
            #expect(
                NamePattern.isFileName(text, extensions: ["ttf", "TTF", "otf", "OTF"])
                    == (text.wholeMatch(of: /[A-Za-z0-9_][A-Za-z0-9._-]{0,127}\.(ttf|TTF|otf|OTF)/) != nil),
                "\(text.debugDescription)")
        }
    }

    @Test(arguments: [
        ("2020-12-15T20:00", true), ("2020-12-15T20:0", false), ("2020-12-15 20:00", false),
        ("2020-12-15T20:00Z", false), ("2020/12/15T20:00", false), ("\u{0662}020-12-15T20:00", false),
        ("2020-13-15T20:00", false), ("2020-12-15T24:00", false), ("1999-12-15T20:00", false),
    ])
    func instantsOfParis(text: String, valid: Bool) {
        #expect((FormBuilder.parisInstant(text) != nil) == valid, "\(text)")
    }

    @Test(arguments: [("20:30", 1230), ("00:00", 0), ("2:30", nil), ("24:00", nil), ("20h30", nil), ("20:3a", nil)])
    func hoursAndMinutes(text: String, minutes: Int?) {
        #expect(ContextHours.minutes(parsing: text) == minutes, "\(text)")
    }

    @Test(arguments: [("#FF8000", true), ("#ff8000", true), ("FF8000", false), ("#FF800", false), ("#GG8000", false)])
    func colours(text: String, valid: Bool) {
        #expect((RGBColor(hex: text) != nil) == valid, "\(text)")
    }
}
