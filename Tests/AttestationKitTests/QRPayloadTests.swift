import FormSchema
import Foundation
import TestSupport
import Testing

@testable import AttestationKit

/// The payload written by hand from the reference README §2: seven lines joined by ";\n",
/// with one more ";\n" at the end, every person value folded to ASCII (README §1).
@Suite("QR payload")
struct QRPayloadTests {
    @Test func form1128ByteForByte() throws {
        let identity = try RawIdentity(
            firstName: "Éloïse", lastName: "Lefèvre", birthDate: "29/02/1988", birthPlace: "Besançon",
            address: "12 rue de la Paix", zipCode: "25000", city: "Besançon"
        ).make()
        let now = instant("2020-11-28T07:15:42Z")  // 08:15:42 in Paris (UTC+1)
        let attestation = try Attestation(
            identity: identity, form: Fixture.form1128,
            reasonCodes: ["sport_animaux", "achats_culturel_cultuel", "sport_animaux"],
            exit: .offset(minutes: -20), timeZone: .paris, now: now)
        let expected =
            "Cree le: 28/11/2020 a 08h15;\n" + "Nom: Lefevre;\n" + "Prenom: Eloise;\n"
            + "Naissance: 29/02/1988 a Besancon;\n" + "Adresse: 12 rue de la Paix 25000 Besancon;\n"
            + "Sortie: 28/11/2020 a 07:55;\n" + "Motifs: achats_culturel_cultuel, sport_animaux;\n"
        let payload = QRPayload(attestation)
        #expect(payload.text == expected)
        #expect(payload.bytes == Array(expected.utf8))
        #expect(payload.description == expected)
    }

    @Test func form1102ByteForByte() throws {
        let identity = try RawIdentity(
            firstName: "Jean", lastName: "Dupont", birthDate: "01/01/1970", birthPlace: "Lyon",
            address: "999 avenue de France", zipCode: "75001", city: "Paris"
        ).make(today: try #require(CalendarDate(year: 2020, month: 11, day: 2)))
        let now = instant("2020-11-02T17:05:00Z")  // 18:05 in Paris
        let attestation = try Attestation(
            identity: identity, form: Fixture.form1102, reasonCodes: ["enfants", "achats", "travail"],
            exit: try ExitTime.at(parsing: "18:30"), timeZone: .paris, now: now)
        let expected =
            "Cree le: 02/11/2020 a 18h05;\n" + "Nom: Dupont;\n" + "Prenom: Jean;\n" + "Naissance: 01/01/1970 a Lyon;\n"
            + "Adresse: 999 avenue de France 75001 Paris;\n" + "Sortie: 02/11/2020 a 18:30;\n"
            + "Motifs: travail, achats, enfants;\n"
        #expect(QRPayload(attestation).bytes == Array(expected.utf8))
    }

    @Test func everyReasonOfEachForm() throws {
        let identity = try RawIdentity().make()
        let now = instant("2020-11-28T07:15:00Z")
        let all1128 = [
            "travail", "achats_culturel_cultuel", "sante", "famille", "handicap", "sport_animaux",
            "convocation", "missions", "enfants",
        ]
        let all1102 = [
            "travail", "achats", "sante", "famille", "handicap", "sport_animaux",
            "convocation", "missions", "enfants",
        ]
        for (form, codes) in [(Fixture.form1128, all1128), (Fixture.form1102, all1102)] {
            let attestation = try Attestation(
                identity: identity, form: form, reasonCodes: codes.reversed(), now: now)
            let text = QRPayload(attestation).text
            #expect(text.hasSuffix(";\nMotifs: " + codes.joined(separator: ", ") + ";\n"))
        }
    }

    @Test func creationAndExitAreTheirOwnMoments() throws {
        // Created 23:50 on 28/11 in Paris; leaving 30 minutes later, on 29/11.
        let attestation = try Attestation(
            identity: try RawIdentity().make(), form: Fixture.form1128, reasonCodes: ["famille"],
            exit: .offset(minutes: 30), now: instant("2020-11-28T22:50:00Z"))
        let lines = QRPayload(attestation).text.components(separatedBy: ";\n")
        #expect(lines.first == "Cree le: 28/11/2020 a 23h50")
        #expect(lines.contains("Sortie: 29/11/2020 a 00:20"))
    }

    @Test func nonFrenchLettersAreTransliterated() throws {
        let identity = try RawIdentity(
            firstName: "Łukasz", lastName: "Wałęsa", birthPlace: "Gdańsk", address: "3 Straße der Œuvre",
            zipCode: "67000", city: "Strasbourg"
        ).make()
        let attestation = try Attestation(
            identity: identity, form: Fixture.form1128, reasonCodes: ["travail"],
            now: instant("2020-11-28T07:15:00Z"))
        let lines = QRPayload(attestation).text.components(separatedBy: ";\n")
        try #require(lines.count == 8)  // seven lines and the empty rest after the trailing separator
        #expect(lines[1] == "Nom: Walesa")
        #expect(lines[2] == "Prenom: Lukasz")
        #expect(lines[3] == "Naissance: 01/01/1970 a Gdansk")
        #expect(lines[4] == "Adresse: 3 Strasse der OEuvre 67000 Strasbourg")
        #expect(lines[7] == "")
    }

    @Test func payloadIsAlwaysPrintableASCIIOneLinePerField() throws {
        let identity = try RawIdentity(
            firstName: "Zoë 🌍", lastName: "Nguyễn", birthPlace: "東京", address: "1 Ærøvej", city: "Αθήνα"
        ).make()
        let attestation = try Attestation(
            identity: identity, form: Fixture.form1128, reasonCodes: ["sante"],
            now: instant("2020-11-28T07:15:00Z"))
        let payload = QRPayload(attestation)
        #expect(payload.bytes.allSatisfy { $0 == 0x0A || (0x20...0x7E).contains($0) })
        #expect(payload.bytes.filter { $0 == 0x0A }.count == 7)
        #expect(payload.text.contains("Nom: Nguyen;\n"))
        #expect(payload.text.contains("Adresse: 1 AErovej 75001 "))
    }

    @Test func formatBelongsToTheForm() throws {
        // The very first release (30 Oct) joined by ";\n " without a trailing separator (README §2).
        var json = try builtInJSONObject(Fixture.form1128ID)
        json["id"] = "deplacement-2020-10-30"
        editObject(&json, "qrPayload") { format in
            format["separator"] = ";\n "
            format["trailingSeparator"] = false
            format["lines"] = [
                "Cree le: {creationDate} a {creationTimeH}", "Nom: {lastName}", "Sortie: {exitDate} a {exitTimeH}",
                "Motifs: {reasons}",
            ]
        }
        let form = try FormCatalog.decodeForm(try jsonData(json), source: "october.json")
        let attestation = try Attestation(
            identity: try RawIdentity().make(), form: form, reasonCodes: ["sante", "travail"],
            exit: .offset(minutes: 5), now: instant("2020-11-28T07:15:00Z"))
        #expect(
            QRPayload(attestation).text
                == "Cree le: 28/11/2020 a 08h15;\n Nom: Dupont;\n Sortie: 28/11/2020 a 08h20;\n Motifs: travail, sante")
    }
}
