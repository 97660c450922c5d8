import AttestationKit
import Foundation
import TestSupport
import Testing

@testable import Rendering

/// The words of page 1, extracted by pdftotext, against the official template's text.
@Suite("Text of page 1")
struct TextTests {
    private func pageOneText(_ pdf: [UInt8], layout: Bool, in directory: URL) throws -> String {
        let path = try write(pdf, named: "text-\(UUID().uuidString).pdf", in: directory)
        let options = (layout ? ["-layout"] : []) + ["-enc", "UTF-8", "-f", "1", "-l", "1", path, "-"]
        return try Tool.run("pdftotext", options, in: directory).text
    }

    /// The reference .txt is `pdftotext -layout` of the official template, so the order is
    /// compared in the same mode. In the default mode poppler's reading-order heuristic moves
    /// the column of trailing commas of the 2020-11-02 form after the labels — on the official
    /// PDF itself too — so there every official word is only required to be present (as many
    /// times), not in order.
    @Test("the official form's words appear, in order, on page 1", arguments: builtInFormIDs)
    func officialWordsInOrder(formID: String) throws {
        let official = TextTests.officialWords(try Reference.officialText(formID))
        try #require(official.count > 400, "the official text has only \(official.count) words")
        // Any reason set works: the marks are extra words, allowed in a subsequence.
        let attestation = try Fixture.attestation(try Fixture.camille(), formID: formID)
        let pdf = try Fixture.renderer().pdf(attestation)

        try withScratchDirectory { directory in
            let layoutWords = TextTokens.words(try pageOneText(pdf, layout: true, in: directory))
            if let index = TextTokens.firstUnmatched(official, in: layoutWords) {
                let context = official[max(0, index - 6)..<min(official.count, index + 6)].joined(separator: " ")
                Issue.record(
                    "\(formID): official word #\(index) «\(official[index])» not found in order (pdftotext -layout); official context: \(context)"
                )
            }

            let defaultWords = TextTokens.words(try pageOneText(pdf, layout: false, in: directory))
            var available = Dictionary(defaultWords.map { ($0, 1) }, uniquingKeysWith: +)
            var missing: [String] = []
            for word in official {
                if let count = available[word], count > 0 { available[word] = count - 1 } else { missing.append(word) }
            }
            #expect(missing.isEmpty, "\(formID): official words missing from pdftotext (default mode): \(missing)")
        }
    }

    @Test("the tokenizer drops numbering and keeps words and punctuation")
    func tokenizer() {
        #expect(
            TextTokens.words(" 1. Déplacements d’exercice ;\n 2\n. n°2020-1310 à: x") == [
                "Déplacements", "d", "’", "exercice", ";", "n", "°", "-", "à", ":", "x",
            ])
        #expect(TextTokens.firstUnmatched(["a", "c"], in: ["a", "b", "c"]) == nil)
        #expect(TextTokens.firstUnmatched(["c", "a"], in: ["a", "b", "c"]) == 1)
    }

    @Test("the person's values are printed on page 1", arguments: builtInFormIDs)
    func filledValues(formID: String) throws {
        let attestation = try Fixture.attestation(try Fixture.camille(), formID: formID)
        let pdf = try Fixture.renderer().pdf(attestation)
        let text = try withScratchDirectory { try pageOneText(pdf, layout: false, in: $0) }
        for value in [
            "Camille Dupont", "01/01/1970", "Lyon", "999 avenue de France 75001 Paris", "Paris",
            "28/11/2020", "08:15",
        ] {
            #expect(text.contains(value), "\(formID): «\(value)» is not on page 1")
        }
        // The city is written twice: in the address and after "Fait à".
        #expect(text.components(separatedBy: "Paris").count - 1 == 2, "\(formID): «Paris» should appear twice")
        // Exactly one mark per chosen reason.
        let marks = TextTokens.words(text).filter { $0 == "x" }.count
        #expect(
            marks == attestation.reasons.count, "\(formID): \(marks) marks for \(attestation.reasons.count) reasons")
    }

    static func officialWords(_ text: String) -> [String] { TextTokens.words(text) }
}
