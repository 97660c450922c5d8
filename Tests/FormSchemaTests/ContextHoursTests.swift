import AttestationKit
import Foundation
import TestSupport
import Testing

@testable import FormSchema

/// A version's contexts say their hours as data, and a link without `context` prints the one
/// whose hours cover the exit instant: the first context whatever the hour printed the curfew
/// form at noon (issue 40).
@Suite struct ContextHoursTests {
    static func paris(_ text: String) -> Date { FormCalendar.Entry.start(parsing: text)! }

    static func defaultContext(at text: String, preferring preferred: String? = nil) throws -> String? {
        let calendar = try FormCalendar(catalog: .builtIn)
        let instant = paris(text)
        let version = try #require(calendar.version(at: instant))
        return version.defaultForm(at: instant, preferring: preferred).inForce?.context
    }

    @Test func onThe8thOfApril2021TheDaytimeFormIsTheDefaultByDayAndTheCurfewOneByNight() throws {
        #expect(try Self.defaultContext(at: "2021-04-08T12:00") == "journee")
        #expect(try Self.defaultContext(at: "2021-04-08T06:00") == "journee", "its start is within")
        #expect(try Self.defaultContext(at: "2021-04-08T18:59") == "journee")
        #expect(try Self.defaultContext(at: "2021-04-08T19:00") == "couvre-feu", "its end is not")
        #expect(try Self.defaultContext(at: "2021-04-09T02:30") == "couvre-feu", "across midnight")
        #expect(try Self.defaultContext(at: "2021-04-09T05:59") == "couvre-feu")
    }

    @Test func onThe20thOfMarch2021TheReinforcedMeasuresFormIsTheDefaultOnlyByDay() throws {
        #expect(try Self.defaultContext(at: "2021-03-20T11:00") == "mesures-renforcees")
        #expect(try Self.defaultContext(at: "2021-03-20T20:00") == "couvre-feu")
    }

    /// The link's own context where its hours cover the instant, never outside them.
    @Test func aLinksOwnContextIsItsDefaultOnlyWithinItsHours() throws {
        #expect(try Self.defaultContext(at: "2021-04-08T20:00", preferring: "journee") == "couvre-feu")
        #expect(try Self.defaultContext(at: "2021-04-08T12:00", preferring: "couvre-feu") == "journee")
        #expect(try Self.defaultContext(at: "2021-04-08T12:00", preferring: "week-end") == "journee")
        // 18 March 2021 (a Thursday) at noon: neither the curfew (18h-6h) nor the week-end
        // (6h-18h, Saturdays and Sundays) covers it: the link's own, else the one that comes next.
        #expect(try Self.defaultContext(at: "2021-03-18T12:00", preferring: "week-end") == "week-end")
        #expect(try Self.defaultContext(at: "2021-03-18T12:00") == "couvre-feu")
    }

    @Test func hoursAcrossMidnightAndOnSomeDaysCoverWhatTheySay() throws {
        let curfew = ContextHours(from: 19 * 60, until: 6 * 60)
        #expect(curfew.covers(Self.paris("2021-04-08T23:00")))
        #expect(!curfew.covers(Self.paris("2021-04-08T06:00")))
        #expect(curfew.text == "19h-6h")
        let weekEnd = ContextHours(from: 6 * 60, until: 18 * 60, days: [6, 7])
        #expect(weekEnd.covers(Self.paris("2021-03-20T10:00")), "a Saturday")
        #expect(!weekEnd.covers(Self.paris("2021-03-19T10:00")), "a Friday")
        #expect(weekEnd.text == "6h-18h, samedi et dimanche")
        #expect(weekEnd.nextStart(after: Self.paris("2021-03-18T12:00")) == Self.paris("2021-03-20T06:00"))
        let night = ContextHours(from: 22 * 60 + 30, until: 5 * 60, days: [5])
        #expect(night.covers(Self.paris("2021-03-20T04:00")), "Friday's night, on Saturday morning")
        #expect(!night.covers(Self.paris("2021-03-21T04:00")), "not Saturday's")
        #expect(night.text == "22h30-5h, vendredi")
    }

    @Test func anAreaOrHoursWithoutAContextAreRefused() throws {
        let data = try FormCalendarTests.derived(from: "deplacement-2021-06-10", as: "juin-zone") {
            var inForce = $0["inForce"] as! [String: Any]
            inForce["area"] = "Paris"
            $0["inForce"] = inForce
        }
        var catalog = FormCatalog.builtIn
        #expect {
            try catalog.add(json: data, source: "juin-zone.json")
        } throws: { error in
            "\(error)".contains("inForce.area") && "\(error)".contains("inForce.context")
        }
    }

    @Test func theHoursOfTheBuiltInContextsAreWhatTheirNamesSay() throws {
        for form in FormCatalog.builtIn.forms {
            guard let context = form.inForce?.context, let name = form.inForce?.contextName else { continue }
            let hours = try #require(form.inForce?.hours, "\(form.id) has contexts: its hours are data")
            #expect(name.hasSuffix(hours.text.split(separator: ",")[0]), "\(form.id) (\(context)): \(name)")
        }
        #expect(try FormCalendarTests.form("deplacement-2021-03-23-mesures-renforcees").inForce?.area != nil)
        #expect(try FormCalendarTests.form("deplacement-2021-04-07-journee").inForce?.area == nil)
    }

    /// Malformed hours are refused in French, naming the key, what is wrong and what is accepted.
    @Test(
        arguments: [
            (["from": "7h", "until": "06:00"], "inForce.hours.from", "HH:MM attendu"),
            (["from": "19:00", "until": "24:00"], "inForce.hours.until", "HH:MM attendu"),
            (["from": "19:00", "until": "19:00"], "inForce.hours.until", "début et fin égaux"),
            (["from": "19:00", "until": "06:00", "days": [8]], "inForce.hours.days[0]", "1 (lundi) à 7 (dimanche)"),
            (["from": "19:00", "until": "06:00", "days": [6, 6]], "inForce.hours.days[1]", "chacun une fois"),
            (["from": "19:00", "until": "06:00", "days": [Int]()], "inForce.hours.days", "au moins un jour"),
        ] as [([String: any Sendable], String, String)])
    func malformedHoursAreRefusedNamingTheKey(hours: [String: any Sendable], path: String, said: String) throws {
        let data = try FormCalendarTests.derived(from: "deplacement-2021-04-07-journee", as: "journee-heures") {
            var inForce = $0["inForce"] as! [String: Any]
            inForce["hours"] = hours
            $0["inForce"] = inForce
        }
        var catalog = FormCatalog.builtIn
        #expect {
            try catalog.add(json: data, source: "journee-heures.json")
        } throws: { error in
            let message = "\(error)"
            return message.contains(path) && message.contains(said)
        }
    }
}
