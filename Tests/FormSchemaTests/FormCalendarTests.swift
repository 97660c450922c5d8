import AttestationKit
import Foundation
import TestSupport
import Testing

@testable import FormSchema

/// The calendar of versions: which form is in force when, and how a link's reasons cross a change.
@Suite struct FormCalendarTests {
    static func paris(_ text: String) -> Date { FormCalendar.Entry.start(parsing: text)! }

    static func form(_ id: String) throws -> Form { try #require(FormCatalog.builtIn.form(id: id), "\(id)") }

    /// A built-in form's JSON with `change` applied, under another id.
    static func derived(from id: String, as newID: String, _ change: (inout [String: Any]) -> Void) throws -> Data {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Sources/FormSchema/Forms/\(id).json")
        var object = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
        object["id"] = newID
        change(&object)
        return try JSONSerialization.data(withJSONObject: object)
    }

    @Test func theOfficialCalendarHasEveryBuiltInVersionInOrder() throws {
        let calendar = try FormCalendar(catalog: .builtIn)
        #expect(
            calendar.versions.map { $0.forms.map(\.id) } == [
                ["couvre-feu-2020-10-17"], ["deplacement-2020-10-30"], ["deplacement-2020-11-02"],
                ["deplacement-2020-11-28"], ["couvre-feu-2020-12-15"], ["couvre-feu-2021-01-04"],
                ["couvre-feu-2021-01-25"], ["deplacement-2021-03-01"],
                ["deplacement-2021-03-17-couvre-feu", "deplacement-2021-03-17-week-end"],
                ["deplacement-2021-03-23-couvre-feu", "deplacement-2021-03-23-mesures-renforcees"],
                ["deplacement-2021-04-07-couvre-feu", "deplacement-2021-04-07-journee"],
                ["deplacement-2021-05-04"], ["deplacement-2021-05-23"], ["deplacement-2021-06-10"],
            ])
        #expect(calendar.versions.map(\.start) == calendar.versions.map(\.start).sorted())
    }

    @Test func theVersionInForceIsTheLastStartedTheFirstBeforeAnyAndTheLastForEver() throws {
        let calendar = try FormCalendar(catalog: .builtIn)
        #expect(calendar.version(at: Self.paris("2020-11-27T23:59"))?.forms[0].id == "deplacement-2020-11-02")
        #expect(calendar.version(at: Self.paris("2020-11-28T00:00"))?.forms[0].id == "deplacement-2020-11-28")
        #expect(calendar.version(at: Self.paris("2020-01-01T00:00"))?.forms[0].id == "couvre-feu-2020-10-17")
        #expect(calendar.version(at: Date())?.forms[0].id == "deplacement-2021-06-10", "2026: the last")
        #expect(
            calendar.version(at: Self.paris("2021-04-02T23:59"))?.forms[0].id == "deplacement-2021-03-23-couvre-feu")
        #expect(
            calendar.version(at: Self.paris("2021-04-03T00:00"))?.forms[0].id == "deplacement-2021-04-07-couvre-feu")
        #expect(calendar.version(after: Date()) == nil)
        #expect(calendar.version(after: Self.paris("2020-11-27T12:00"))?.start == Self.paris("2020-11-28T00:00"))
    }

    /// The calendar ends when the curfew was lifted, 20 June 2021 at 6h: the `until` of its last
    /// version; a calendar whose last version has none has no end.
    @Test func theOfficialCalendarEndsWhenTheCurfewWasLifted() throws {
        #expect(try FormCalendar(catalog: .builtIn).end == Self.paris("2021-06-20T06:00"))
        var catalog = FormCatalog.builtIn
        try catalog.add(
            json: try Self.derived(from: "deplacement-2021-06-10", as: "juillet") {
                $0["inForce"] = ["from": "2021-07-01T00:00"]
            }, source: "juillet.json")
        #expect(try FormCalendar(catalog: catalog).end == nil, "a version after the end: no end any more")
    }

    /// From April 2021 the reasons were regrouped: the curfew's `judiciaire` and the daytime's
    /// `demarche` are one `convocation_demarches`, `handicap` joined `famille` and `missions`
    /// joined `travail`, through to June; the daytime's `sport` has no curfew counterpart.
    @Test func theReasonsOfMarch2021CrossIntoTheDrawnVersions() throws {
        let calendar = try FormCalendar(catalog: .builtIn)
        let june = try Self.form("deplacement-2021-06-10")
        let carried = calendar.carryOver(["judiciaire", "handicap", "missions", "sport"], into: june)
        #expect(carried.codes == ["convocation_demarches", "famille", "travail"])
        #expect(carried.missing == ["sport"])
        let daytime = try Self.form("deplacement-2021-04-07-journee")
        #expect(
            calendar.carryOver(["demarche", "achats", "culte_culturel"], into: daytime).codes == [
                "convocation_demarches", "achats_culte_culturel",
            ])
    }

    /// `achats` (October) is `achats_culturel_cultuel` in November and `courses` in March; the
    /// curfew forms have none, and `sport_animaux` does not become the curfew's `animaux`.
    @Test func aReasonCrossesChangesThroughTheCodesVersionsContinue() throws {
        let calendar = try FormCalendar(catalog: .builtIn)
        let november = try Self.form("deplacement-2020-11-28")
        #expect(
            calendar.carryOver(["travail", "achats"], into: november)
                == .init(
                    codes: ["travail", "achats_culturel_cultuel"], missing: []))
        #expect(calendar.carryOver(["achats"], into: try Self.form("deplacement-2021-03-01")).codes == ["courses"])
        #expect(
            calendar.carryOver(["achats_culturel_cultuel"], into: try Self.form("deplacement-2020-10-30")).missing
                == ["achats_culturel_cultuel"],
            "one way: November's wider reason is not October's")
        let curfew = try Self.form("couvre-feu-2020-12-15")
        #expect(calendar.carryOver(["achats", "sante"], into: curfew) == .init(codes: ["sante"], missing: ["achats"]))
        #expect(calendar.carryOver(["sport_animaux"], into: curfew).missing == ["sport_animaux"])
        #expect(
            calendar.carryOver(["convocation"], into: try Self.form("deplacement-2021-03-23-couvre-feu")).codes
                == ["judiciaire"])
    }

    /// A link's code with two counterparts in a version is asked for, never guessed.
    @Test func aCodeWithTwoCounterpartsIsMissingRatherThanGuessed() throws {
        var catalog = FormCatalog.builtIn
        try catalog.add(
            json: try Self.derived(from: "deplacement-2021-03-01", as: "essai-deux-suites") { object in
                var reasons = object["reasons"] as! [[String: Any]]
                for index in reasons.indices where ["sport", "animaux"].contains(reasons[index]["code"] as? String) {
                    reasons[index]["continues"] = ["sport_animaux"]
                }
                object["reasons"] = reasons
                object["inForce"] = ["from": "2021-03-02T00:00"]
            }, source: "essai.json")
        let calendar = try FormCalendar(catalog: catalog)
        let form = try #require(catalog.form(id: "essai-deux-suites"))
        #expect(calendar.carryOver(["sport_animaux"], into: form).missing == ["sport_animaux"])
    }

    /// A copy of a built-in version with its own id, dropped in formsDirectory, takes its place.
    @Test func anAddedFormTakesThePlaceOfTheBuiltInOfTheSameStart() throws {
        var catalog = FormCatalog.builtIn
        try catalog.add(
            json: try Self.derived(from: "couvre-feu-2021-01-25", as: "couvre-feu-corrige") { _ in }, source: "c.json")
        let calendar = try FormCalendar(catalog: catalog)
        #expect(calendar.version(at: Self.paris("2021-02-01T12:00"))?.forms.map(\.id) == ["couvre-feu-corrige"])
        #expect(calendar.versions.count == FormCalendar.officialVersionCount)
    }

    /// Two forms at one instant need contexts to tell them apart: a clear error, not a guess.
    @Test func twoFormsAtOneInstantWithoutContextsAreRefused() throws {
        var catalog = FormCatalog.builtIn
        try catalog.add(
            json: try Self.derived(from: "couvre-feu-2021-01-25", as: "a") {
                $0["inForce"] = ["from": "2021-05-01T00:00"]
            },
            source: "a.json")
        try catalog.add(
            json: try Self.derived(from: "couvre-feu-2021-01-25", as: "b") {
                $0["inForce"] = ["from": "2021-05-01T00:00"]
            },
            source: "b.json")
        #expect(throws: CalendarError.self) { try FormCalendar(catalog: catalog) }
        do {
            _ = try FormCalendar(catalog: catalog)
        } catch {
            #expect(error.message.contains("inForce.context"), "\(error)")
        }
    }

    @Test func aScheduleReplacesTheOfficialCalendarAndNamesUnknownForms() throws {
        let schedule = try FormCalendar(
            catalog: .builtIn,
            schedule: [
                .init(start: Self.paris("2020-10-30T00:00"), forms: ["deplacement-2020-11-28"]),
                .init(start: Self.paris("2021-03-17T00:00"), forms: ["deplacement-2021-03-17"]),
            ])
        #expect(schedule.versions.map { $0.forms.count } == [1, 2], "a file with contexts: all its contexts")
        #expect(schedule.version(at: Self.paris("2020-12-20T12:00"))?.forms[0].id == "deplacement-2020-11-28")
        #expect(
            throws: CalendarError(
                path: "calendar[0].forms[0]",
                message:
                    "formulaire « inconnu » inconnu ; un id de attestation-admin forms est attendu (ou celui d’un formulaire à contextes)."
            )
        ) {
            try FormCalendar(catalog: .builtIn, schedule: [.init(start: Date(), forms: ["inconnu"])])
        }
        #expect(throws: CalendarError.self) { try FormCalendar(catalog: .builtIn, schedule: []) }
    }

    @Test(arguments: [
        ("2020-12-15", "date"), ("2020-12-15T25:00", "hour"), ("2021-03-28T02:30", "skipped in spring"),
        ("15/12/2020 20:00", "French order"),
    ])
    func anInForceThatIsNotATimeOfParisIsRefusedAtItsPath(from: String, why: String) throws {
        let data = try Self.derived(from: "couvre-feu-2021-01-25", as: "essai") { $0["inForce"] = ["from": from] }
        #expect(throws: FormError.self, "\(why)") { try FormCatalog.decodeForms(data, source: "essai.json") }
        do { _ = try FormCatalog.decodeForms(data, source: "essai.json") } catch {
            #expect(error.path == "inForce.from" && error.message.contains("AAAA-MM-JJTHH:MM"), "\(error)")
        }
    }

    @Test func aReasonContinuingItselfOrTwiceTheSameIsRefused() throws {
        for continues in [["travail"], ["sante", "sante"], ["Santé"]] {
            let data = try Self.derived(from: "couvre-feu-2021-01-25", as: "essai") { object in
                var reasons = object["reasons"] as! [[String: Any]]
                reasons[0]["continues"] = continues
                object["reasons"] = reasons
            }
            do {
                _ = try FormCatalog.decodeForms(data, source: "essai.json")
                Issue.record("\(continues) accepted")
            } catch {
                #expect(error.path.hasPrefix("reasons[0].continues["), "\(error)")
            }
        }
    }

    /// Written back (`Form`'s JSON) and read again, a form keeps its start, context and continuations.
    @Test func inForceAndContinuationsRoundTrip() throws {
        for id in ["deplacement-2020-11-28", "deplacement-2021-03-23-mesures-renforcees"] {
            let form = try Self.form(id)
            let again = try FormCatalog.decodeForm(try JSONEncoder().encode(form), source: "x.json")
            #expect(again.inForce == form.inForce && again.reasons.map(\.continues) == form.reasons.map(\.continues))
        }
    }

    /// A schedule that names one form twice at one instant is refused, naming the entry: it
    /// crashed the check looking for the other form of the pair.
    @Test func aFormNamedTwiceAtOneInstantIsRefusedNotACrash() throws {
        let entry = FormCalendar.Entry(
            start: Self.paris("2020-01-01T00:00"), forms: ["deplacement-2020-11-02", "deplacement-2020-11-02"])
        let error = try #require(throws: CalendarError.self) {
            try FormCalendar(catalog: .builtIn, schedule: [entry])
        }
        #expect(error.path == "calendar[0].forms[0]")
        #expect(error.message.contains("« deplacement-2020-11-02 » est donné deux fois au même instant"))
    }
}

extension FormCalendar {
    /// The versions of the official calendar today.
    static let officialVersionCount = 14
}
