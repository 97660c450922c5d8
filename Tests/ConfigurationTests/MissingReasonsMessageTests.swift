import AttestationConfiguration
import AttestationKit
import Foundation
import LinkTokens
import TestSupport
import Testing

/// The 409 of a link whose reasons the form in force lacks (issue 40, item 4): « n’existe plus »
/// only of a reason the form had when the link was minted, and with contexts, which context's
/// form it speaks of.
@Suite struct MissingReasonsMessageTests {
    /// A link that follows the calendar, Camille's, minted at `issued` with `reasons`.
    static func token(reasons: [String], issued: Date) throws -> String {
        try LinkFixture.token(
            LinkContents(
                issuedAt: issued, formID: nil, identity: LinkFixture.camille, reasons: reasons))
    }

    static func message(
        reasons: [String], issued: Date, now: Date, context: String? = nil
    ) throws -> String {
        let fixture = try ServiceFixture()
        defer { fixture.remove() }
        let state = try fixture.load()
        let request = LinkRequest(token: try token(reasons: reasons, issued: issued), context: context)
        let error = try #require(throws: LinkRequestError.self) { try state.attestation(for: request, now: now) }
        guard case .reasonsNotInForm = error else {
            Issue.record("not the error of missing reasons: \(error)")
            return ""
        }
        return error.description
    }

    @Test func aReasonTheFormNeverHadWhenTheLinkWasMintedDoesNotExistRatherThanNoLonger() throws {
        // Minted on 8 April 2021 with `enfants`, a code of November 2020: April's forms never had it.
        let day = instant("2021-04-08T10:00:00Z")
        let text = try Self.message(reasons: ["enfants"], issued: day, now: day, context: "journee")
        #expect(text.contains("le motif \(VisibleText.quoted("enfants")) de ce lien n’existe pas dans"), "\(text)")
        #expect(!text.contains("n’existe plus"), "\(text)")
    }

    @Test func aReasonTheFormHadWhenTheLinkWasMintedNoLongerExists() throws {
        // Minted on 28 November 2020 with `enfants`; opened on 8 April 2021.
        let text = try Self.message(
            reasons: ["enfants"], issued: instant("2020-11-28T08:00:00Z"), now: instant("2021-04-08T10:00:00Z"),
            context: "journee")
        #expect(text.contains("le motif \(VisibleText.quoted("enfants")) de ce lien n’existe plus dans"), "\(text)")
    }

    @Test func withContextsTheMessageNamesTheContextItSpeaksOf() throws {
        let day = instant("2021-04-08T10:00:00Z")
        let text = try Self.message(reasons: ["enfants"], issued: day, now: day, context: "journee")
        #expect(
            text.contains(
                "dans le formulaire en vigueur (\(VisibleText.quoted("journée, 6h-19h"))) depuis le \(LocalDateTime(instant("2021-04-02T22:00:00Z"), in: .paris).frenchLong)"
            ),
            "\(text)")
    }
}
