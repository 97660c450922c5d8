import FormSchema
import Foundation
import TestSupport
import Testing

@testable import AttestationKit

@Suite("Attestation")
struct AttestationTests {
    static let codes1128 = [
        "travail", "achats_culturel_cultuel", "sante", "famille", "handicap",
        "sport_animaux", "convocation", "missions", "enfants",
    ]

    func make(
        _ codes: [String], form: Form = Fixture.form1128, exit: ExitTime = .now,
        now: Date? = nil, zone: TimeZone = .paris
    ) throws -> Attestation {
        try Attestation(
            identity: try RawIdentity().make(), form: form, reasonCodes: codes, exit: exit, timeZone: zone,
            now: now ?? instant("2020-11-28T07:15:00Z"))
    }

    /// A link without a place of birth (minted for a form that neither prints nor encodes it) is
    /// never drawn on a form that prints it: refused, not printed empty.
    @Test func anIdentityWithoutPlaceOfBirthIsRefusedOnAFormThatPrintsIt() throws {
        let identity = try Identity(
            firstName: "Ana", lastName: "Lima", birthDate: "02/03/1990", birthPlace: " ", address: "1 rue A",
            zipCode: "33000", city: "Bordeaux", today: Fixture.today, birthPlaceOptional: true)
        #expect(identity.birthPlace == "")
        // Up to March 2021 every official version printed it; from April none did.
        let using = FormCatalog.builtIn.forms.filter { $0.attestationRules.usesBirthPlace }.map(\.id)
        #expect(
            using.count == 12 && !using.contains { $0.hasPrefix("deplacement-2021-0") && $0 > "deplacement-2021-04" })
        let error = #expect(throws: AttestationError.self) {
            try Attestation(
                identity: identity, form: Fixture.form1128, reasonCodes: ["travail"],
                now: instant("2020-11-28T07:15:00Z"))
        }
        guard case .birthPlaceMissing? = error else {
            Issue.record("expected .birthPlaceMissing, got \(String(describing: error))")
            return
        }
        #expect(try #require(error).description.contains("lieu de naissance manquant"))
        // Without the option, an empty place of birth is refused as before.
        #expect(throws: IdentityError.self) {
            try Identity(
                firstName: "Ana", lastName: "Lima", birthDate: "02/03/1990", birthPlace: "", address: "1 rue A",
                zipCode: "33000", city: "Bordeaux", today: Fixture.today)
        }
    }

    @Test func atLeastOneReason() throws {
        let error = #expect(throws: AttestationError.self) { try make([]) }
        guard case .noReason(let form)? = error else {
            Issue.record("expected .noReason, got \(String(describing: error))")
            return
        }
        #expect(form.id == Fixture.form1128ID)
        let description = try #require(error).description
        for code in Self.codes1128 { #expect(description.contains(code)) }
    }

    @Test(arguments: [["promenade"], ["travail", "promenade"], ["achats"], ["Travail"], [""], ["travail "]])
    func unknownCodeIsRefused(codes: [String]) throws {
        let error = #expect(throws: AttestationError.self) { try make(codes) }
        guard case .unknownReason(let code, let form)? = error else {
            Issue.record("expected .unknownReason, got \(String(describing: error))")
            return
        }
        #expect(code == codes.last)
        #expect(form.id == Fixture.form1128ID)
    }

    @Test func unknownReasonMessageListsTheAcceptedCodes() throws {
        let error = #expect(throws: AttestationError.self) { try make(["sante", "promenade"]) }
        let description = try #require(error).description
        #expect(description.contains("promenade"))
        #expect(description.contains(Fixture.form1128ID))
        // Every accepted code, in the order of the form (README §7).
        #expect(description.contains(Self.codes1128.joined(separator: ", ")))
    }

    @Test func longUnknownCodeIsNotEchoed() throws {
        let long = String(repeating: "x", count: 41)
        let error = #expect(throws: AttestationError.self) { try make([long]) }
        let description = try #require(error).description
        #expect(!description.contains(long))
        #expect(description.contains("deplacement-2020-11-28"))
        #expect(description.contains("travail, achats_culturel_cultuel"))
        // The word is said once: not "motif inconnu inconnu pour le formulaire …".
        #expect(!description.contains("inconnu inconnu"))
    }

    @Test func codesOfTheOtherFormAreUnknown() throws {
        #expect(throws: AttestationError.self) { try make(["achats_culturel_cultuel"], form: Fixture.form1102) }
        #expect(throws: AttestationError.self) { try make(["achats"], form: Fixture.form1128) }
        #expect(try make(["achats"], form: Fixture.form1102).reasons.map(\.code) == ["achats"])
    }

    @Test(arguments: [
        (["sante", "travail"], ["travail", "sante"]),
        (["travail", "sante", "travail"], ["travail", "sante"]),
        (
            ["enfants", "achats_culturel_cultuel", "travail", "enfants"],
            ["travail", "achats_culturel_cultuel", "enfants"]
        ),
        (["missions", "missions", "missions"], ["missions"]),
        (
            ["sport_animaux", "famille", "handicap", "convocation"],
            ["famille", "handicap", "sport_animaux", "convocation"]
        ),
    ])
    func reasonsInFormOrderWithoutDuplicates(input: [String], expected: [String]) throws {
        #expect(try make(input).reasons.map(\.code) == expected)
    }

    @Test func allReasonsInAnyOrderGiveTheFormOrder() throws {
        var generator = SeededGenerator(seed: 2020_11_28)
        for _ in 0..<20 {
            let shuffled = (Self.codes1128 + Self.codes1128.prefix(3)).shuffled(using: &generator)
            #expect(try make(shuffled).reasons.map(\.code) == Self.codes1128)
        }
    }

    @Test func createdIsExactlyTheNowPassed() throws {
        let now = instant("2020-11-28T07:15:42Z").addingTimeInterval(0.456)
        let attestation = try make(["sante"], exit: .offset(minutes: -20), now: now)
        #expect(attestation.created == now)
        #expect(attestation.exit == now.addingTimeInterval(-1200))
        #expect(attestation.identity == (try RawIdentity().make()))
        #expect(attestation.form == Fixture.form1128.attestationRules)
        #expect(attestation.timeZone == .paris)
    }

    @Test func exitDefaultsToNowAndZoneToParis() throws {
        let now = instant("2020-11-28T07:15:42Z")
        let attestation = try Attestation(
            identity: try RawIdentity().make(), form: Fixture.form1128, reasonCodes: ["sante"], now: now)
        #expect(attestation.exit == now)
        #expect(attestation.timeZone.identifier == "Europe/Paris")
        #expect(attestation.createdLocal.time == "08:15")
    }

    @Test func exitTimeErrorIsPassedOn() throws {
        let error = #expect(throws: AttestationError.self) { try make(["sante"], exit: .offset(minutes: 1441)) }
        guard case .exitTime(let inner)? = error else {
            Issue.record("expected .exitTime, got \(String(describing: error))")
            return
        }
        #expect(inner == .offsetOutOfBounds(1441, .standard))
        #expect(try #require(error).description == inner.description)
    }

    @Test func reasonsAreCheckedBeforeTheExitTime() throws {
        let error = #expect(throws: AttestationError.self) { try make([], exit: .offset(minutes: 1441)) }
        guard case .noReason? = error else {
            Issue.record("expected .noReason, got \(String(describing: error))")
            return
        }
    }

    @Test(arguments: [
        ("2020-11-28T07:15:42Z", "attestation-2020-11-28_08-15.pdf"),  // CET
        ("2021-03-28T01:10:00Z", "attestation-2021-03-28_03-10.pdf"),  // CEST
        ("2020-12-31T23:05:00Z", "attestation-2021-01-01_00-05.pdf"),  // new year in Paris
        ("2021-07-04T21:59:59Z", "attestation-2021-07-04_23-59.pdf"),
    ])
    func fileNameIsTheCreationMomentInTheZone(now: String, expected: String) throws {
        let attestation = try make(["sante"], exit: .offset(minutes: 120), now: instant(now))
        #expect(attestation.fileName == expected)
    }

    @Test func fileNameDoesNotFollowTheExit() throws {
        let now = instant("2020-11-28T07:15:00Z")
        let early = try make(["sante"], exit: .offset(minutes: -180), now: now)
        let late = try make(["sante"], exit: .offset(minutes: 1440), now: now)
        #expect(early.fileName == "attestation-2020-11-28_08-15.pdf")
        #expect(late.fileName == early.fileName)
        #expect(late.exitLocal.date.description == "29/11/2020")
    }
}
