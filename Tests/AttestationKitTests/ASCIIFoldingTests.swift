import Foundation
import TestSupport
import Testing

@testable import AttestationKit

@Suite("ASCII folding")
struct ASCIIFoldingTests {
    @Test(arguments: [
        ("François", "Francois"), ("Łukasz Wałęsa", "Lukasz Walesa"), ("Øster", "Oster"), ("Straße", "Strasse"),
        ("Œuvre", "OEuvre"), ("æ", "ae"), ("Nguyễn", "Nguyen"), ("Éloïse", "Eloise"), ("Besançon", "Besancon"),
        ("Zoë", "Zoe"), ("Ærø", "AEro"), ("œil", "oeil"), ("Gdańsk", "Gdansk"), ("Łódź", "Lodz"),
        ("Dvořák", "Dvorak"), ("Ångström", "Angstrom"), ("Ça été là", "Ca ete la"),
        ("Franc\u{327}ois", "Francois"),  // already decomposed
    ])
    func transliterates(input: String, expected: String) {
        #expect(ASCIIFolding.fold(input) == expected)
    }

    @Test(arguments: ["", "Jean Dupont", "O'Brien-Smith, 12 bis", "~!@#$%^&*()_+{}|:\"<>?`-=[]\\;',./", "75001"])
    func printableASCIIIsUnchanged(text: String) {
        #expect(ASCIIFolding.fold(text) == text)
    }

    @Test func nothingNonASCIISurvives() {
        #expect(ASCIIFolding.fold("🌍") == "")
        #expect(ASCIIFolding.fold("a\u{7}b\nc").utf8.allSatisfy { (0x20...0x7E).contains($0) })
    }

    /// Code points from many scripts and categories, surrogates excluded.
    static let ranges: [ClosedRange<UInt32>] = [
        0x0000...0x007F, 0x0080...0x00FF, 0x0100...0x024F, 0x0250...0x02FF, 0x0300...0x036F, 0x0370...0x03FF,
        0x0400...0x04FF, 0x0590...0x06FF, 0x0900...0x097F, 0x0E00...0x0E7F, 0x1E00...0x1EFF, 0x2000...0x206F,
        0x20A0...0x20CF, 0x2100...0x214F, 0x3040...0x30FF, 0x4E00...0x4FFF, 0xAC00...0xAFFF, 0xE000...0xE0FF,
        0xFB00...0xFB4F, 0xFE00...0xFE0F, 0xFF00...0xFFEF, 0x1D400...0x1D4FF, 0x1F300...0x1F64F, 0xE0000...0xE007F,
    ]

    static func randomString(_ generator: inout SeededGenerator) -> String {
        let length = Int.random(in: 0...24, using: &generator)
        var scalars = String.UnicodeScalarView()
        for _ in 0..<length {
            let range = ranges.randomElement(using: &generator)!
            if let scalar = Unicode.Scalar(UInt32.random(in: range, using: &generator)) {
                scalars.append(scalar)
            }
        }
        return String(scalars)
    }

    @Test func outputIsAlwaysPrintableASCII() {
        var generator = SeededGenerator(seed: 0xA77E_57A7)
        for _ in 0..<400 {
            let input = Self.randomString(&generator)
            let folded = ASCIIFolding.fold(input)
            let printable = folded.utf8.allSatisfy { (0x20...0x7E).contains($0) }
            #expect(printable, "fold(\(input.debugDescription)) = \(folded.debugDescription)")
            // Printable ASCII is left as it is, so folding twice changes nothing.
            #expect(ASCIIFolding.fold(folded) == folded)
        }
    }

    @Test func accentsAloneAreDropped() {
        // ASCII letters each followed by combining marks (U+0300…U+036F) fold to the bare letters.
        var generator = SeededGenerator(seed: 1789)
        let letters = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")
        for _ in 0..<200 {
            var bare = ""
            var decorated = ""
            for _ in 0..<Int.random(in: 1...12, using: &generator) {
                let letter = letters.randomElement(using: &generator)!
                bare.append(letter)
                decorated.unicodeScalars.append(contentsOf: letter.unicodeScalars)
                for _ in 0..<Int.random(in: 0...2, using: &generator) {
                    decorated.unicodeScalars.append(
                        Unicode.Scalar(UInt32.random(in: 0x300...0x36F, using: &generator))!)
                }
            }
            #expect(ASCIIFolding.fold(decorated) == bare, "fold(\(decorated.debugDescription))")
            // Also once composed (NFC), as Identity stores it.
            #expect(ASCIIFolding.fold(decorated.precomposedStringWithCanonicalMapping) == bare)
        }
    }

    @Test func randomPrintableASCIIIsUnchanged() {
        var generator = SeededGenerator(seed: 42)
        for _ in 0..<200 {
            let text = String(
                (0..<Int.random(in: 0...30, using: &generator)).map { _ in
                    Character(Unicode.Scalar(UInt8.random(in: 0x20...0x7E, using: &generator)))
                })
            #expect(ASCIIFolding.fold(text) == text)
        }
    }
}
