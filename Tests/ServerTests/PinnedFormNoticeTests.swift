import Foundation
import TestSupport
import Testing

/// A link pinned to a form (`--form couvre-feu-2020-10-17`) printed it in June 2021 and today
/// without a word (issue 40, item 3): `/api/v1/link` says since when the form is no longer in
/// force, for the personal page's notice; a link that follows the calendar says nothing of it.
@Suite struct PinnedFormNoticeTests {
    static func outdated(_ walk: CalendarWalkTests.Walk, token: String, at now: String) throws -> [String: Any]? {
        let link = walk.get("/api/v1/link", at: now, ["t": token])
        #expect(link.status == 200)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(link.body)) as? [String: Any])
        return json["pinnedFormOutdated"] as? [String: Any]
    }

    @Test func aPinnedLinkSaysSinceWhenItsFormIsNoLongerInForce() throws {
        let walk = try CalendarWalkTests.Walk()
        let token = try walk.token(
            reasons: ["travail"], formID: "couvre-feu-2020-10-17", issued: instant("2020-10-20T08:00:00Z"))
        #expect(try Self.outdated(walk, token: token, at: "2020-10-25T12:00") == nil, "in force on 25 October")
        for now in ["2021-06-15T12:00", "2026-11-28T12:00"] {
            let notice = try #require(try Self.outdated(walk, token: token, at: now), "nothing said at \(now)")
            #expect(notice["since"] as? String == "2020-10-29T23:00:00Z", "\(now): \(notice)")
            let text = try #require(notice["text"] as? String)
            #expect(text.hasPrefix("Ce lien imprime toujours le formulaire "), "\(text)")
            #expect(text.contains("qui n’est plus en vigueur depuis le 30\u{A0}octobre 2020"), "\(text)")
        }
    }

    @Test func aLinkPinnedToTheLastVersionSaysTheRulesEndedAndAFollowingLinkSaysNothing() throws {
        let walk = try CalendarWalkTests.Walk()
        let june = try walk.token(
            reasons: ["travail"], formID: "deplacement-2021-06-10", issued: instant("2021-06-10T08:00:00Z"))
        #expect(try Self.outdated(walk, token: june, at: "2021-06-15T12:00") == nil)
        let ended = try #require(try Self.outdated(walk, token: june, at: "2021-07-01T12:00"))
        #expect(
            (ended["text"] as? String)?.hasPrefix("Plus aucune attestation n’est demandée depuis le 20\u{A0}juin 2021")
                == true)

        let following = try walk.token(reasons: ["travail"], issued: instant("2020-10-20T08:00:00Z"))
        #expect(try Self.outdated(walk, token: following, at: "2026-11-28T12:00") == nil)
    }
}
