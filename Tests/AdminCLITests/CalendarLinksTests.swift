import Foundation
import TestSupport
import Testing

/// `mint` writes links that follow the calendar; `--form` pins, `--context` gives a default, and
/// `forms` shows the calendar.
@Suite struct CalendarLinksTests {
    @Test func aLinkWithoutFormFollowsTheCalendarAndInspectSaysSo() throws {
        let scratch = try initializedSite()
        let link = try mintSucceeding(
            personArguments("Zoé", "Durand") + ["--context", "mesures-renforcees"], in: scratch
        )
        .stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let inspect = try Tool.admin(["inspect", link], in: scratch.url)
        #expect(inspect.stdout.contains("formulaire : selon le calendrier"), "\(inspect.stdout)")
        let listed = try Tool.admin(["links"], in: scratch.url)
        #expect(listed.stdout.contains("selon le calendrier"), "\(listed.stdout)")
    }

    @Test func anUnknownContextOrAContextWithAPinnedFormIsRefused() throws {
        let scratch = try initializedSite()
        let unknown = try Tool.admin(
            ["mint"] + personArguments("Zoé", "Durand") + ["--context", "plage"], in: scratch.url)
        #expect(unknown.status == 65)
        #expect(
            unknown.stderr.contains("--context : contexte inconnu") && unknown.stderr.contains("week-end")
                && unknown.stderr.contains("mesures-renforcees"), "\(unknown.stderr)")
        let pinned = try Tool.admin(
            ["mint"] + personArguments("Zoé", "Durand") + [
                "--form", "deplacement-2021-03-17-week-end", "--context", "week-end",
            ], in: scratch.url)
        #expect(pinned.status == 65)
        #expect(pinned.stderr.contains("--context : un lien à formulaire fixe"), "\(pinned.stderr)")
        #expect(pinned.stdout.isEmpty && unknown.stdout.isEmpty, "no link")
    }

    /// A code of an earlier version is accepted (the link carries it), with a warning when the
    /// version in force has no counterpart; a code of no version is refused.
    @Test func aReasonOfNoVersionIsRefusedAndOneWithoutCounterpartNowIsWarned() throws {
        let scratch = try initializedSite()
        let old = try mintSucceeding(personArguments("Zoé", "Durand") + ["--reason", "sport_animaux"], in: scratch)
        #expect(
            old.stderr.contains("« sport_animaux » : pas d’équivalent dans le formulaire en vigueur"), "\(old.stderr)")
        let none = try Tool.admin(["mint"] + personArguments("Zoé", "Durand") + ["--reason", "plage"], in: scratch.url)
        #expect(none.status == 65)
        #expect(
            none.stderr.contains("motif « plage » inconnu") && none.stderr.contains("convocation_demarches"),
            "\(none.stderr)")
    }

    @Test func formsShowsTheCalendarAndTheVersionInForce() throws {
        let result = try Tool.admin(["forms"])
        #expect(result.status == 0)
        let lines = result.stdout.split(separator: "\n").map(String.init)
        let current = lines.filter { $0.contains("← en vigueur maintenant") }
        #expect(current.count == 1 && current[0].contains("deplacement-2021-06-10"), "\(result.stdout)")
        #expect(
            lines.contains {
                $0.hasPrefix("  20\u{A0}juin 2021 à 6\u{A0}h") && $0.contains("fin : plus aucune attestation")
            },
            "the end of the calendar: \(result.stdout)")
        #expect(lines.contains { $0.hasPrefix("  15\u{A0}décembre 2020") && $0.contains("couvre-feu-2020-12-15") })
        #expect(result.stdout.contains("Prochain changement : aucun prévu"))
        // Which form a link prints at which hour (issue 40).
        #expect(
            result.stdout.contains(
                "deplacement-2021-04-07-couvre-feu (contexte couvre-feu, 19h-6h), deplacement-2021-04-07-journee (contexte journee, 6h-19h)"
            ), "\(result.stdout)")
        let json = try Tool.admin(["forms", "--json"])
        let forms = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]])
        let november = try #require(forms.first { $0["id"] as? String == "deplacement-2020-11-28" })
        #expect(november["inForceFrom"] as? String == "2020-11-27T23:00:00Z")
        #expect(november["inForceNow"] as? Bool == false)
        let renforcees = try #require(
            forms.first { $0["id"] as? String == "deplacement-2021-03-23-mesures-renforcees" })
        #expect(renforcees["contextHours"] as? String == "6h-19h")
        #expect((renforcees["contextArea"] as? String)?.contains("mesures renforcées") == true)
        let reasons = try #require(november["reasons"] as? [[String: Any]])
        #expect(
            reasons.first { $0["code"] as? String == "achats_culturel_cultuel" }?["continues"] as? [String] == [
                "achats"
            ])
    }
}
