import AttestationKit
import FormSchema
import Foundation
import TestSupport
import Testing

@testable import Rendering

/// Where the values land on page 1, against the official generator's positions (README §6).
@Suite("Positions on page 1")
struct PositionTests {
    static let tolerance = 2.0

    /// The word `text` closest to the official (x, baseline); fails when none is within 2 pt.
    private func check(
        _ text: String, at official: (x: Double, y: Double), field: String, on page: BBoxPage,
        formID: String, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let candidates = page.words.filter { $0.text == text }
        guard !candidates.isEmpty else {
            Issue.record("\(formID), \(field): no word «\(text)» on page 1", sourceLocation: sourceLocation)
            return
        }
        func distance(_ word: Word) -> Double {
            max(abs(word.xMin - official.x), abs(word.baseline(pageHeight: page.height) - official.y))
        }
        let best = candidates.min { distance($0) < distance($1) }!
        let baseline = best.baseline(pageHeight: page.height)
        #expect(
            abs(best.xMin - official.x) <= Self.tolerance,
            "\(formID), \(field): «\(text)» starts at x \(best.xMin), official \(official.x)",
            sourceLocation: sourceLocation)
        #expect(
            abs(baseline - official.y) <= Self.tolerance,
            "\(formID), \(field): «\(text)» has its baseline at y \(baseline), official \(official.y) (\(best))",
            sourceLocation: sourceLocation)
    }

    @Test("the first word of each value is within 2 pt of the official position", arguments: builtInFormIDs)
    func fieldPositions(formID: String) throws {
        let official = try OfficialPositions.of(formID)
        let attestation = try Fixture.attestation(try Fixture.camille(), formID: formID)
        let pdf = try Fixture.renderer().pdf(attestation)
        let page = try withScratchDirectory { try BBox.firstPage(of: pdf, in: $0) }
        let form = try Fixture.form(formID)
        #expect(
            abs(page.width - form.page.width) < 0.01 && abs(page.height - form.page.height) < 0.01,
            "page 1 is \(page.width) × \(page.height)")

        check("Camille", at: official.name, field: "name", on: page, formID: formID)
        check("01/01/1970", at: official.birthDate, field: "birth date", on: page, formID: formID)
        check("Lyon", at: official.birthPlace, field: "place of birth", on: page, formID: formID)
        check("999", at: official.address, field: "address", on: page, formID: formID)
        check("Paris", at: official.city, field: "city after « Fait à »", on: page, formID: formID)
        check("28/11/2020", at: official.exitDate, field: "exit date", on: page, formID: formID)
        check("08:15", at: official.exitTime, field: "exit time", on: page, formID: formID)
    }

    @Test("each chosen reason's mark is in its box, and only those", arguments: builtInFormIDs)
    func reasonMarks(formID: String) throws {
        let official = try OfficialPositions.of(formID)
        let form = try Fixture.form(formID)
        #expect(
            Set(form.reasons.map(\.code)) == Set(official.reasonY.keys), "\(formID): reason codes differ from README §7"
        )
        let renderer = try Fixture.renderer()

        // Every reason at once, then each alone.
        let sets = [form.reasons.map(\.code)] + form.reasons.map { [$0.code] }
        try withScratchDirectory { directory in
            for codes in sets {
                let attestation = try Fixture.attestation(try Fixture.camille(), formID: formID, reasonCodes: codes)
                let page = try BBox.firstPage(of: try renderer.pdf(attestation), in: directory)
                let marks = page.words.filter { $0.text == "x" }
                #expect(marks.count == codes.count, "\(formID), \(codes): \(marks.count) marks")
                for code in codes {
                    let y = try #require(official.reasonY[code])
                    let hit = marks.contains { mark in
                        abs(mark.xMin - official.markX) <= Self.tolerance
                            && abs(mark.baseline(pageHeight: page.height) - y) <= Self.tolerance
                    }
                    #expect(
                        hit,
                        "\(formID): no mark for \(code) at (\(official.markX), \(y)); marks: \(marks.map { "\($0.xMin), \($0.baseline(pageHeight: page.height))" })"
                    )
                }
            }
        }
    }
}
