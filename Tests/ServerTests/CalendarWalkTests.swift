import AttestationConfiguration
import AttestationKit
import AttestationService
import FormSchema
import Foundation
import HTTPServer
import LinkTokens
import Logging
import Synchronization
import TestSupport
import Testing

/// One link minted on 29 October 2020, opened through every official change of form to March
/// 2021 by the service itself with its clock set to each day: the version in force at the exit
/// instant, its reasons carried over or asked for, and a pinned link unchanged.
@Suite struct CalendarWalkTests {
    /// The service with a clock the test sets, on a site made by `attestation-admin init`.
    final class Walk: Sendable {
        let site: TestSite
        let service: Service
        let key: SigningKey
        private let moment = Moment()

        /// The clock's reading, shared with the service's closure.
        final class Moment: Sendable {
            let value = Mutex(Date())
        }

        init() throws {
            site = try TestSite()
            let snapshot = try ServiceSnapshot.load(configurationFile: URL(fileURLWithPath: site.config))
            let moment = self.moment
            service = Service(
                snapshot: snapshot, logger: Logger(label: "calendar-walk", factory: { _ in SwiftLogNoOpLogHandler() }),
                metricsExposition: { [] }, clock: { moment.value.withLock { $0 } })
            key = try SigningKey(
                fileContents: Data(contentsOf: URL(fileURLWithPath: site.scratch.path("keys/k1.key"))))
        }

        var calendar: FormCalendar { service.snapshot.state.calendar }

        /// A link for Camille signed with the site's key, minted at `issued`.
        func token(reasons: [String], formID: String? = nil, context: String? = nil, issued: Date) throws -> String {
            let identity = try Identity(
                firstName: "Camille", lastName: "Dupont", birthDate: "01/01/1970", birthPlace: "Lyon",
                address: "999 avenue de France", zipCode: "75001", city: "Paris",
                today: CalendarDate(year: 2020, month: 10, day: 29)!)
            return try LinkToken.sign(
                LinkContents(
                    issuedAt: issued, formID: formID, context: context, identity: identity, reasons: reasons),
                with: key)
        }

        /// The service's answer at `now` (Paris time, `2020-11-28T00:10`).
        func get(_ path: String, at now: String, _ query: [String: String]) -> HTTPResponse {
            moment.value.withLock { $0 = FormCalendar.Entry.start(parsing: now)! }
            return service.respond(
                to: HTTPRequest(
                    method: "GET", path: path,
                    query: query.sorted { $0.key < $1.key }.map { QueryItem(name: $0.key, value: $0.value) }))
        }

        /// The PDF the renderer draws for `form` itself, for the same person, instant and reasons.
        func expectedPDF(
            token: String, form: Form, reasons: [String], exit: ExitTime, at now: String
        ) throws
            -> [UInt8]
        {
            let instant = FormCalendar.Entry.start(parsing: now)!
            let contents = try #require(
                {
                    if case .valid(let contents, _) = LinkToken.verify(
                        token, keys: service.snapshot.state.keys, now: instant)
                    {
                        return contents
                    }
                    return nil
                }())
            let attestation = try Attestation(
                identity: contents.identity, form: form, reasonCodes: reasons, exit: exit, now: instant)
            return try service.snapshot.renderer.pdf(attestation)
        }

        /// The reasons of the QR code of a PDF (zbarimg on the page of its first code: the second
        /// for the « mesures renforcées »), as `Motifs: a, b`.
        func qrReasons(_ pdf: [UInt8], page: Int = 1) throws -> String {
            let file = site.scratch.path("walk-\(UUID().uuidString).pdf")
            try Data(pdf).write(to: URL(fileURLWithPath: file))
            let payload = try #require(try decodedQRCodes(in: file, scratch: site.scratch, pages: page...page).first)
            let lines = payload.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
            let line = try #require(lines.first { $0.hasPrefix("Motifs") }, "\(payload)")
            return line.hasSuffix(";") ? String(line.dropLast()) : line
        }
    }

    static let minted = "2020-10-29T10:00"

    /// Every official version, the day after it came into force at noon: the form printed, and
    /// what becomes of a link's reason `achats` (October 2020) in each.
    @Test func aLinkMintedOn29October2020PrintsEachVersionInForceWithItsReasonCarriedOrAskedFor() throws {
        let walk = try Walk()
        let calendar = walk.calendar
        let token = try walk.token(reasons: ["achats"], issued: FormCalendar.Entry.start(parsing: Self.minted)!)
        // What each version makes of `achats`, in its context at noon: the code it prints, or
        // nil where it has no counterpart (the person is asked).
        let expected: [String: String?] = [
            "couvre-feu-2020-10-17": nil, "deplacement-2020-10-30": "achats", "deplacement-2020-11-02": "achats",
            "deplacement-2020-11-28": "achats_culturel_cultuel", "couvre-feu-2020-12-15": nil,
            "couvre-feu-2021-01-04": nil, "couvre-feu-2021-01-25": nil, "deplacement-2021-03-01": "courses",
            "deplacement-2021-03-17-couvre-feu": nil, "deplacement-2021-03-23-mesures-renforcees": "achats",
            "deplacement-2021-04-07-journee": "achats_culte_culturel", "deplacement-2021-05-04": nil,
            "deplacement-2021-05-23": nil,
            "deplacement-2021-06-10": nil,
        ]
        var seen: [String] = []
        for version in calendar.versions where version.start >= FormCalendar.Entry.start(parsing: "2020-10-17T00:00")! {
            let day = LocalDateTime(version.start.addingTimeInterval(12 * 3600), in: .paris)
            let now = String(format: "%04d-%02d-%02dT12:00", day.date.year, day.date.month, day.date.day)
            // At noon, the daytime form where a version has one (issue 40).
            let form = version.defaultForm(at: FormCalendar.Entry.start(parsing: now)!)
            seen.append(form.id)
            let response = walk.get("/attestation.pdf", at: now, ["t": token])
            guard let code = expected[form.id] else {
                Issue.record("\(form.id): a version this test does not know; add it to the walk")
                continue
            }
            if let code {
                #expect(response.status == 200, "\(now) \(form.id): \(String(decoding: response.body, as: UTF8.self))")
                let pdf = try walk.expectedPDF(token: token, form: form, reasons: [code], exit: .now, at: now)
                #expect(response.body == pdf, "\(now): the PDF of \(form.id) for \(code), byte for byte")
                #expect(
                    try walk.qrReasons(response.body, page: form.qrCodes[0].page) == "Motifs: \(code)",
                    "\(now) \(form.id)")
            } else {
                #expect(response.status == 409, "\(now) \(form.id): \(response.status)")
                let message = String(decoding: response.body, as: UTF8.self)
                #expect(message.contains("«\u{202F}achats\u{202F}»") && message.contains("reasons"), "\(message)")
                for reason in form.reasons { #expect(message.contains(reason.code), "\(form.id): \(message)") }
                // The person chooses: the same link with a reason of the version in force.
                let chosen = walk.get("/attestation.pdf", at: now, ["t": token, "reasons": "sante"])
                #expect(chosen.status == 200, "\(now) \(form.id) with reasons=sante")
                let pdf = try walk.expectedPDF(token: token, form: form, reasons: ["sante"], exit: .now, at: now)
                #expect(chosen.body == pdf, "\(now): \(form.id) with sante, byte for byte")
            }
        }
        #expect(Set(seen) == Set(expected.keys), "every official version walked: \(seen)")

        // By day in April 2021, the third lockdown's shopping: `achats` of October is carried
        // through `courses`/`achats` into `achats_culte_culturel`, drawn in Luciole.
        let now = "2021-04-10T12:00"
        let daytime = walk.get("/attestation.pdf", at: now, ["t": token, "context": "journee"])
        #expect(daytime.status == 200, "\(String(decoding: daytime.body, as: UTF8.self))")
        let form = try #require(walk.service.snapshot.state.catalog.form(id: "deplacement-2021-04-07-journee"))
        #expect(
            daytime.body
                == (try walk.expectedPDF(
                    token: token, form: form, reasons: ["achats_culte_culturel"], exit: .now, at: now)))
        #expect(try walk.qrReasons(daytime.body) == "Motifs: achats_culte_culturel")
    }

    /// Past 20 June 2021 at 6h no attestation was asked: the link still prints the last version
    /// (of 9 June), today (2026) as on 21 June 2021, and the page's JSON says since when.
    @Test func pastTheEndOfTheCalendarALinkPrintsTheLastVersionAndSaysSo() throws {
        let walk = try Walk()
        let token = try walk.token(reasons: ["travail"], issued: FormCalendar.Entry.start(parsing: Self.minted)!)
        let last = try #require(walk.service.snapshot.state.catalog.form(id: "deplacement-2021-06-10"))
        for now in ["2021-06-20T05:59", "2021-06-21T12:00", "2026-11-26T12:00"] {
            let response = walk.get("/attestation.pdf", at: now, ["t": token])
            #expect(
                response.body
                    == (try walk.expectedPDF(token: token, form: last, reasons: ["travail"], exit: .now, at: now)),
                "\(now)")
            let link = walk.get("/api/v1/link", at: now, ["t": token])
            let json = try #require(try JSONSerialization.jsonObject(with: Data(link.body)) as? [String: Any])
            let version = try #require(json["version"] as? [String: Any])
            if now == "2021-06-20T05:59" {
                #expect(version["ended"] is NSNull && version["endedText"] is NSNull, "not yet: \(version)")
            } else {
                #expect(version["ended"] as? String == "2021-06-20T04:00:00Z", "\(version)")
                let text = try #require(version["endedText"] as? String)
                #expect(text.contains("20\u{A0}juin 2021 à 6\u{A0}h") && text.contains("9\u{A0}juin 2021"), "\(text)")
            }
        }
    }

    /// Just after a change, `offset=-20` is an exit under the version before it; `Cree le`
    /// stays the real moment.
    @Test func anOffsetThatCrossesAChangePrintsTheVersionOfTheExitInstant() throws {
        let walk = try Walk()
        let token = try walk.token(reasons: ["achats"], issued: FormCalendar.Entry.start(parsing: Self.minted)!)
        let catalog = walk.service.snapshot.state.catalog
        let now = "2020-11-28T00:10"
        let late = walk.get("/attestation.pdf", at: now, ["t": token, "offset": "-20"])
        #expect(late.status == 200)
        let before = try #require(catalog.form(id: "deplacement-2020-11-02"))
        #expect(
            late.body
                == (try walk.expectedPDF(
                    token: token, form: before, reasons: ["achats"], exit: .offset(minutes: -20), at: now)),
            "an exit at 23:50 on 27 November: the version of 2 November")
        let file = walk.site.scratch.path("late.pdf")
        try Data(late.body).write(to: URL(fileURLWithPath: file))
        let payload = try decodedQRCodes(in: file, scratch: walk.site.scratch, pages: 1...1).joined()
        #expect(payload.contains("Cree le: 28/11/2020 a 00h10"), "\(payload)")
        #expect(payload.contains("Sortie: 27/11/2020 a 23:50"), "\(payload)")

        let onTime = walk.get("/attestation.pdf", at: now, ["t": token])
        let after = try #require(catalog.form(id: "deplacement-2020-11-28"))
        #expect(
            onTime.body
                == (try walk.expectedPDF(
                    token: token, form: after, reasons: ["achats_culturel_cultuel"], exit: .now, at: now)))
    }

    /// Where a version has contexts, `context` chooses; the link's own default otherwise; a
    /// context the version does not have is a 400 naming those it has.
    @Test func theContextChoosesTheFormOfTheVersionInForce() throws {
        let walk = try Walk()
        let issued = FormCalendar.Entry.start(parsing: Self.minted)!
        let token = try walk.token(reasons: ["achats"], issued: issued)
        let catalog = walk.service.snapshot.state.catalog
        let now = "2021-03-18T12:00"
        #expect(walk.get("/attestation.pdf", at: now, ["t": token]).status == 409, "curfew, the first context")
        let weekEnd = walk.get("/attestation.pdf", at: now, ["t": token, "context": "week-end"])
        #expect(weekEnd.status == 200)
        let form = try #require(catalog.form(id: "deplacement-2021-03-17-week-end"))
        #expect(
            weekEnd.body
                == (try walk.expectedPDF(token: token, form: form, reasons: ["courses"], exit: .now, at: now)))

        let byDefault = try walk.token(reasons: ["achats"], context: "week-end", issued: issued)
        #expect(walk.get("/attestation.pdf", at: now, ["t": byDefault]).body == weekEnd.body)

        let unknown = walk.get("/attestation.pdf", at: now, ["t": token, "context": "plage"])
        #expect(unknown.status == 400)
        let message = String(decoding: unknown.body, as: UTF8.self)
        #expect(message.contains("couvre-feu") && message.contains("week-end"), "\(message)")

        let renforcees = walk.get(
            "/attestation.pdf", at: "2021-03-25T20:00", ["t": byDefault, "context": "mesures-renforcees"])
        #expect(renforcees.status == 200, "achats is a reason of the « mesures renforcées »")
        // The link's default context is not one of this version: at 20h the curfew's hours, and
        // the 409 names the context that has the reason.
        let refused = walk.get("/attestation.pdf", at: "2021-03-25T20:00", ["t": byDefault])
        #expect(refused.status == 409)
        let hint = String(decoding: refused.body, as: UTF8.self)
        #expect(hint.contains("context=mesures-renforcees") && !hint.contains("context=couvre-feu"), "\(hint)")
        // A context of an earlier version (a Shortcut written then) is refused, naming the day
        // and the contexts of that day: it printed the curfew form for the weekend one (issue 38).
        let earlier = walk.get(
            "/attestation.pdf", at: "2021-03-25T12:00", ["t": token, "context": "week-end", "reasons": "sante"])
        #expect(earlier.status == 400)
        let said = String(decoding: earlier.body, as: UTF8.self)
        #expect(said.contains("inconnu le 25\u{A0}mars 2021"), "\(said)")
        #expect(said.contains("couvre-feu, mesures-renforcees"), "\(said)")
    }

    /// Without `context`, the form whose hours cover the exit instant: on 8 April 2021 at noon
    /// a link printed « Je me déplace entre 19h et 6h », a document that did not cover the person
    /// stopped (issue 40). The offset decides as the exit instant does; the page's JSON gives
    /// each context's hours and where it applies.
    @Test func withoutAContextALinkPrintsTheFormWhoseHoursCoverTheExitInstant() throws {
        let walk = try Walk()
        let token = try walk.token(reasons: ["travail"], issued: FormCalendar.Entry.start(parsing: Self.minted)!)
        let catalog = walk.service.snapshot.state.catalog
        for (now, offset, formID) in [
            ("2021-04-08T12:00", nil, "deplacement-2021-04-07-journee"),
            ("2021-04-08T20:00", nil, "deplacement-2021-04-07-couvre-feu"),
            ("2021-04-08T19:10", "-20", "deplacement-2021-04-07-journee"),
            ("2021-04-09T06:10", "-20", "deplacement-2021-04-07-couvre-feu"),
            ("2021-03-20T11:00", nil, "deplacement-2021-03-23-mesures-renforcees"),
            ("2021-03-20T21:00", nil, "deplacement-2021-03-23-couvre-feu"),
        ] {
            let form = try #require(catalog.form(id: formID))
            var query = ["t": token]
            query["offset"] = offset
            let response = walk.get("/attestation.pdf", at: now, query)
            #expect(response.status == 200, "\(now): \(String(decoding: response.body, as: UTF8.self))")
            let exit: ExitTime = offset.map { .offset(minutes: Int($0)!) } ?? .now
            #expect(
                response.body
                    == (try walk.expectedPDF(token: token, form: form, reasons: ["travail"], exit: exit, at: now)),
                "\(now) offset \(offset ?? "0"): \(formID)")
        }
        let link = walk.get("/api/v1/link", at: "2021-03-20T11:00", ["t": token])
        let json = try #require(try JSONSerialization.jsonObject(with: Data(link.body)) as? [String: Any])
        let version = try #require(json["version"] as? [String: Any])
        #expect(version["context"] as? String == "mesures-renforcees")
        let contexts = try #require(version["contexts"] as? [[String: Any]])
        #expect(contexts.map { $0["hoursText"] as? String } == ["19h-6h", "6h-19h"])
        #expect(contexts.map { ($0["hours"] as? [String: Any])?["from"] as? String } == ["19:00", "06:00"])
        #expect(contexts[0]["area"] is NSNull, "everywhere: null, not absent")
        #expect((contexts[1]["area"] as? String)?.contains("16 départements") == true)
    }

    /// A context of another version on every route that takes one: 400, never the version's
    /// default form (on 20 March 2021, `week-end` and `journee` printed the curfew form on all
    /// five routes, and `mesures-renforcees` did on 3 April; issue 38).
    @Test func aContextOfAnotherVersionIsRefusedOnEveryRoute() throws {
        let walk = try Walk()
        let token = try walk.token(reasons: ["travail"], issued: FormCalendar.Entry.start(parsing: Self.minted)!)
        let routes = [
            "/attestation.pdf", "/attestation.png", "/attestation-papier.pdf", "/api/v1/link", "/api/v1/template",
        ]
        for (day, refused, accepted) in [
            ("2021-03-20T11:00", ["week-end", "journee"], ["couvre-feu", "mesures-renforcees"]),
            ("2021-04-03T11:00", ["mesures-renforcees", "week-end"], ["couvre-feu", "journee"]),
        ] {
            for route in routes {
                for context in refused {
                    let answer = walk.get(route, at: day, ["t": token, "context": context])
                    #expect(answer.status == 400, "\(route) at \(day) with \(context): \(answer.status)")
                }
                for context in accepted {
                    let answer = walk.get(route, at: day, ["t": token, "context": context])
                    #expect(answer.status == 200, "\(route) at \(day) with \(context): \(answer.status)")
                }
            }
        }
    }

    /// The page's JSON and its offline template: the version in force, its contexts, the
    /// reasons asked for, and a template that stops serving at the next change.
    @Test func thePageAndItsTemplateKnowTheVersionAndTheNextChange() throws {
        let walk = try Walk()
        let token = try walk.token(reasons: ["achats"], issued: FormCalendar.Entry.start(parsing: Self.minted)!)
        let link = walk.get("/api/v1/link", at: "2021-03-18T12:00", ["t": token])
        let json = try #require(try JSONSerialization.jsonObject(with: Data(link.body)) as? [String: Any])
        let version = try #require(json["version"] as? [String: Any])
        #expect(version["startText"] as? String == "17\u{A0}mars 2021", "a no-break space after the day")
        #expect(
            (version["contexts"] as? [[String: Any]])?.compactMap { $0["id"] as? String } == ["couvre-feu", "week-end"])
        #expect(version["context"] as? String == "couvre-feu")
        #expect(version["nextChange"] as? String == "2021-03-19T23:00:00Z")
        let last = walk.get("/api/v1/link", at: "2021-06-15T12:00", ["t": token])
        let lastVersion = try #require(
            (try JSONSerialization.jsonObject(with: Data(last.body)) as? [String: Any])?["version"] as? [String: Any])
        #expect(lastVersion["nextChange"] is NSNull, "null, not absent: \(lastVersion)")
        #expect(json["missingReasons"] as? [String] == ["achats"])
        #expect(json["defaultReasons"] as? [String] == [])
        let weekEnd = walk.get("/api/v1/link", at: "2021-03-18T12:00", ["t": token, "context": "week-end"])
        let other = try #require(try JSONSerialization.jsonObject(with: Data(weekEnd.body)) as? [String: Any])
        #expect(other["defaultReasons"] as? [String] == ["courses"])
        #expect((other["form"] as? [String: Any])?["id"] as? String == "deplacement-2021-03-17-week-end")

        let template = walk.get("/api/v1/template", at: "2020-11-27T20:00", ["t": token])
        let info = try #require(try JSONSerialization.jsonObject(with: Data(template.body)) as? [String: Any])
        #expect(info["formID"] as? String == "deplacement-2020-11-02")
        #expect(info["offlineUntil"] as? String == "2020-11-27T23:00:00Z", "no later than the change of 28 November")
    }

    /// A link that names its form (every link minted before the calendar) prints it whatever
    /// the date, and refuses `context`.
    @Test func aPinnedLinkPrintsItsFormAfterEveryChange() throws {
        let walk = try Walk()
        let token = try walk.token(
            reasons: ["achats_culturel_cultuel"], formID: "deplacement-2020-11-28",
            issued: FormCalendar.Entry.start(parsing: Self.minted)!)
        let form = try #require(walk.service.snapshot.state.catalog.form(id: "deplacement-2020-11-28"))
        for now in ["2020-12-20T12:00", "2021-03-25T12:00"] {
            let response = walk.get("/attestation.pdf", at: now, ["t": token])
            #expect(
                response.body
                    == (try walk.expectedPDF(
                        token: token, form: form, reasons: ["achats_culturel_cultuel"], exit: .now, at: now)))
        }
        #expect(
            walk.get("/attestation.pdf", at: "2021-03-25T12:00", ["t": token, "context": "couvre-feu"]).status == 400)
    }
}
