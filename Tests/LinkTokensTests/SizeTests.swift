import AttestationKit
import FormSchema
import Foundation
import TestSupport
import Testing

@testable import LinkTokens

@Suite("Link size")
struct SizeTests {
    static let base = "https://attestation.example.org/attestation.pdf?t="

    @Test func typicalLinkIsUnder400Characters() throws {
        let contents = LinkFixture.contents(reasons: ["travail"])
        let token = try LinkToken.sign(contents, with: LinkFixture.key)
        let link = Self.base + token
        print("link for Camille Dupont, travail: \(link.count) characters (token \(token.count))")
        #expect(link.count < 400)
        #expect(URL(string: link) != nil)
        #expect(link.addingPercentEncoding(withAllowedCharacters: .urlQueryAllowed) == link, "no escaping needed")
        #expect(LinkToken.verify(token, keys: LinkFixture.ring, now: LinkFixture.now).isValid)
    }

    @Test func everyOptionStillFitsUnder400Characters() throws {
        let contents = LinkFixture.contents(
            reasons: FormCatalog.builtIn.defaultForm.reasons.map(\.code), expiresAt: instant("2021-06-30T22:00:00Z"),
            timeZone: "America/Martinique", lockReasons: true)
        let link = Self.base + (try LinkToken.sign(contents, with: LinkFixture.key))
        print("link for Camille Dupont, all nine reasons, expiry, zone, lock: \(link.count) characters")
        #expect(link.count < 500)
    }

    @Test func tokenSizeIsTheSumOfItsFields() throws {
        // Binary and compact: 1 version + 12 key id + 12 link id + 3 issued + 1 flags + 23 form
        // + 8 + 7 + 3 + 5 + 21 + 3 + 6 (person) + 1 + 8 (reason) + 64 signature = 178 bytes.
        let token = try LinkToken.sign(LinkFixture.contents(), with: LinkFixture.key)
        #expect(try tokenBytes(token).count == 178)
        #expect(token.count == (178 * 4 + 2) / 3)
    }
}
