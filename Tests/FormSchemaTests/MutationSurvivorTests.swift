import AttestationKit
import Foundation
import TestSupport
import Testing

@testable import FormSchema

/// Bugs a mutation audit planted in the calendar and the forms that survived the whole suite
/// (issue 38): each test here fails on its mutant.
@Suite struct MutationSurvivorTests {
    static func paris(_ text: String) -> Date { FormCalendar.Entry.start(parsing: text)! }

    static func form(_ id: String) throws -> Form { try #require(FormCatalog.builtIn.form(id: id), "\(id)") }

    /// The version after an instant is the next one to start, never the one starting at that very
    /// instant: at a change, the offline template then expired at once.
    @Test func theVersionAfterAChangeInstantIsTheNextOneNotItself() throws {
        let calendar = try FormCalendar(catalog: .builtIn)
        for (index, version) in calendar.versions.enumerated().dropLast() {
            #expect(
                calendar.version(after: version.start)?.start == calendar.versions[index + 1].start,
                "at \(version.start)")
        }
        #expect(calendar.version(after: calendar.versions.last!.start) == nil)
    }

    /// Continuations are followed back in time only. November 2020's `achats_culturel_cultuel`
    /// continues October's `achats`; March 2021's `achats` continues the weekend's `courses`,
    /// which continues November's reason. A mutant that followed the lineage forward gave
    /// March's `achats` (and so `courses`) to November's reason: a link of March 2021 opened at
    /// an exit instant of November 2020 got a reason it never had.
    @Test func aReasonIsNeverCarriedBackIntoAnEarlierVersionThroughALaterReasonsLineage() throws {
        let calendar = try FormCalendar(catalog: .builtIn)
        let november = try Self.form("deplacement-2020-11-28")
        #expect(calendar.carryOver(["courses"], into: november) == CarriedReasons(codes: [], missing: ["courses"]))
        // Back in time it is followed, directly and through the versions between.
        #expect(calendar.carryOver(["achats"], into: november).codes == ["achats_culturel_cultuel"])
        let march = try Self.form("deplacement-2021-03-23-mesures-renforcees")
        #expect(calendar.carryOver(["courses"], into: march).codes == ["achats"])
        #expect(calendar.carryOver(["achats_culturel_cultuel"], into: march).codes == ["achats"])
    }

    /// A form that asks for the place of birth only in its QR code still asks for it: the
    /// officer's reader shows it.
    @Test func aPlaceOfBirthWrittenOnlyInTheQRCodeIsAskedFor() throws {
        let base = try builtInJSONObject("deplacement-2021-06-10")
        #expect(
            try FormCatalog.decodeForm(jsonData(base), source: "juin.json").attestationRules.usesBirthPlace == false)
        var withQR = base
        withQR["id"] = "juin-qr-lieu"
        editObject(&withQR, "qrPayload") { payload in
            var lines = payload["lines"] as! [String]
            lines.insert("Lieu de naissance: {birthPlace}", at: 3)
            payload["lines"] = lines
        }
        let form = try FormCatalog.decodeForm(jsonData(withQR), source: "juin-qr.json")
        #expect(!form.fields.contains { $0.value.contains("{birthPlace}") }, "printed nowhere")
        #expect(form.attestationRules.usesBirthPlace, "asked for: the QR code has it")
    }
}
