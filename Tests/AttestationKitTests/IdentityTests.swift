import Foundation
import TestSupport
import Testing

@testable import AttestationKit

@Suite("Identity validation")
struct IdentityTests {
    @Test func validIdentityKeepsEveryValue() throws {
        let identity = try RawIdentity().make()
        #expect(identity.firstName == "Jean")
        #expect(identity.lastName == "Dupont")
        #expect(identity.birthDate == CalendarDate(year: 1970, month: 1, day: 1))
        #expect(identity.birthPlace == "Lyon")
        #expect(identity.address == "999 avenue de France")
        #expect(identity.zipCode == "75001")
        #expect(identity.city == "Paris")
        #expect(identity.fullName == "Jean Dupont")
        #expect(identity.fullAddress == "999 avenue de France 75001 Paris")
    }

    // MARK: Empty and too long

    @Test(arguments: Identity.Field.allCases)
    func emptyFieldIsRefused(field: Identity.Field) {
        #expect(throws: IdentityError(field: field, problem: .empty)) {
            try RawIdentity().with(field, "").make()
        }
    }

    @Test(arguments: Identity.Field.allCases)
    func blankFieldIsEmpty(field: Identity.Field) {
        #expect(throws: IdentityError(field: field, problem: .empty)) {
            try RawIdentity().with(field, "   ").make()
        }
    }

    @Test func everyFreeTextFieldHasALimit() {
        #expect(Set(Identity.maximumLengths.keys) == Set(Fixture.textFields))
        #expect(Identity.maximumLengths.values.allSatisfy { $0 > 0 })
    }

    @Test(arguments: Fixture.textFields)
    func valueAtTheLimitIsAccepted(field: Identity.Field) throws {
        let limit = try #require(Identity.maximumLengths[field])
        let atLimit = String(repeating: "a", count: limit)
        let identity = try RawIdentity().with(field, atLimit).make()
        #expect(value(of: field, in: identity) == atLimit)
        // Surrounding spaces are trimmed before counting.
        let padded = try RawIdentity().with(field, "  " + atLimit + "  ").make()
        #expect(value(of: field, in: padded) == atLimit)
    }

    @Test(arguments: Fixture.textFields)
    func valueOverTheLimitIsTooLong(field: Identity.Field) throws {
        let limit = try #require(Identity.maximumLengths[field])
        #expect(throws: IdentityError(field: field, problem: .tooLong(limit: limit))) {
            try RawIdentity().with(field, String(repeating: "a", count: limit + 1)).make()
        }
    }

    // Found by fuzzing (Tests/Fuzz/Corpus/link-token/p-ligatures): U+FDFA is one character but
    // 17 letters in the QR code, so a link within the limits gave a payload no QR code holds.
    @Test(arguments: Fixture.textFields)
    func valueTooLongForTheQRCodeIsRefused(field: Identity.Field) throws {
        let limit = try #require(Identity.maximumLengths[field])
        let ligatures = String(repeating: "\u{FDFA}", count: limit / 2)
        #expect(throws: IdentityError(field: field, problem: .tooLongForQRCode(limit: Identity.maximumQRBytes(field))))
        {
            try RawIdentity().with(field, ligatures).make()
        }
        let message = IdentityError(field: field, problem: .tooLongForQRCode(limit: 6 * limit)).description
        #expect(message.contains("QR code") && message.contains("\(6 * limit)"))
    }

    @Test func transliteratedNamesOfRealLengthAreAccepted() throws {
        let identity = try RawIdentity(firstName: "北京", lastName: "Щербаков", birthPlace: "Αθήνα").make()
        #expect(identity.firstName == "北京")
        // A whole field of syllables of five letters and a space.
        let address = String(repeating: "中", count: Identity.maximumLengths[.address]!)
        #expect(ASCIIFolding.fold(address).utf8.count <= Identity.maximumQRBytes(.address))
        _ = try RawIdentity(address: address).make()
    }

    @Test(arguments: Fixture.textFields)
    func lengthCountsCharactersNotScalars(field: Identity.Field) throws {
        // "é" typed as e + combining acute is two scalars but one character.
        let limit = try #require(Identity.maximumLengths[field])
        let decomposed = String(repeating: "e\u{301}", count: limit)
        let identity = try RawIdentity().with(field, decomposed).make()
        #expect(value(of: field, in: identity) == String(repeating: "\u{E9}", count: limit))
        #expect(value(of: field, in: identity).unicodeScalars.count == limit)
    }

    // MARK: Control characters

    static let forbidden: [Invisible] = [
        "\n", "\r", "\r\n", "\t", "\u{0}", "\u{7}", "\u{1B}", "\u{7F}", "\u{85}",
        "\u{2028}", "\u{2029}", "\u{200B}", "\u{202E}", "\u{FEFF}", "\u{E000}",
    ]

    @Test(arguments: Fixture.textFields, forbidden)
    func controlCharacterInsideIsRefused(field: Identity.Field, character: Invisible) {
        #expect(throws: IdentityError(field: field, problem: .controlCharacter)) {
            try RawIdentity().with(field, "Je" + character.text + "an").make()
        }
    }

    @Test(arguments: Fixture.textFields, ["\n", "\r\n", "\r", "\u{2028}"] as [Invisible])
    func lineBreakAtTheEndsIsRefusedNotTrimmed(field: Identity.Field, lineBreak: Invisible) {
        #expect(throws: IdentityError(field: field, problem: .controlCharacter)) {
            try RawIdentity().with(field, "Jean" + lineBreak.text).make()
        }
        #expect(throws: IdentityError(field: field, problem: .controlCharacter)) {
            try RawIdentity().with(field, lineBreak.text + "Jean").make()
        }
    }

    @Test func ordinaryPunctuationAndLettersAreAccepted() throws {
        let identity = try RawIdentity(
            firstName: "Jean-Loup", lastName: "O'Brien d’Arc", birthPlace: "Saint-Étienne (Loire)",
            address: "12 bis, rue de l’Œuvre – bât. B", city: "Łódź"
        ).make()
        #expect(identity.firstName == "Jean-Loup")
        #expect(identity.lastName == "O'Brien d’Arc")
        #expect(identity.address == "12 bis, rue de l’Œuvre – bât. B")
        #expect(identity.city == "Łódź")
    }

    // MARK: Zip code

    @Test(arguments: ["75001", "00000", "97200", "98800", " 75001 "])
    func fiveDigitZipCodeIsAccepted(zip: String) throws {
        let identity = try RawIdentity(zipCode: zip).make()
        #expect(identity.zipCode == zip.trimmingCharacters(in: .whitespaces))
        #expect(identity.zipCode.count == 5)
    }

    @Test(arguments: ["7500", "750011", "75O01", "ABCDE", "75 01", "75-001", "+7500", "７５００１", "٧٥٠٠١", "2A004"])
    func malformedZipCodeIsRefused(zip: String) {
        #expect(throws: IdentityError(field: .zipCode, problem: .invalidZipCode)) {
            try RawIdentity(zipCode: zip).make()
        }
    }

    // MARK: Birth date

    @Test(arguments: ["29/02/2000", "01/01/1900", "31/12/1999", "29/02/1988", "30/04/1980", "27/11/2020"])
    func realPastBirthDateIsAccepted(text: String) throws {
        let identity = try RawIdentity(birthDate: text).make()
        #expect(identity.birthDate.description == text)
    }

    @Test(arguments: [
        "29/02/1900", "29/02/2021", "29/02/2019", "31/04/1980", "31/06/1980", "31/09/1980", "31/11/1980",
        "30/02/2000", "00/01/1970", "01/00/1970", "32/01/1970", "01/13/1970", "01/01/0000",
        "1/1/1970", "01/1/1970", "1/01/1970", "01/01/70", "1970-01-01", "01-01-1970", "01.01.1970",
        "01/01/1970/", "/01/01/1970", "aa/bb/cccc", "+1/01/1970", "01/01/+970", "０１/０１/１９７０", "01/01/19700",
    ])
    func notARealDateIsInvalid(text: String) {
        #expect(throws: IdentityError(field: .birthDate, problem: .invalidDate)) {
            try RawIdentity(birthDate: text).make()
        }
    }

    @Test(arguments: ["28/11/2020", "29/11/2020", "01/01/2030", "31/12/1899", "01/01/1000", "31/12/9999"])
    func birthDateOutOfRangeIsRefused(text: String) {
        #expect(throws: IdentityError(field: .birthDate, problem: .dateOutOfRange(latest: Fixture.today))) {
            try RawIdentity(birthDate: text).make()
        }
    }

    @Test func birthDateMustBeBeforeTheTodayPassed() throws {
        let leapDay = try #require(CalendarDate(year: 2000, month: 2, day: 29))
        let dayAfter = try #require(CalendarDate(year: 2000, month: 3, day: 1))
        #expect(try RawIdentity(birthDate: "29/02/2000").make(today: dayAfter).birthDate == leapDay)
        #expect(throws: IdentityError(field: .birthDate, problem: .dateOutOfRange(latest: leapDay))) {
            try RawIdentity(birthDate: "29/02/2000").make(today: leapDay)
        }
    }

    @Test func birthDatesFromFirstJanuary1900AreAcceptedAndEarlierOnesRefused() throws {
        let today = try #require(CalendarDate(year: 2020, month: 11, day: 28))
        #expect(
            try RawIdentity(birthDate: "01/01/1900").make(today: today).birthDate
                == CalendarDate(year: 1900, month: 1, day: 1))
        #expect(throws: IdentityError(field: .birthDate, problem: .dateOutOfRange(latest: today))) {
            try RawIdentity(birthDate: "31/12/1899").make(today: today)
        }
    }

    @Test func birthDateIsTrimmed() throws {
        #expect(
            try RawIdentity(birthDate: "  14/07/1989 ").make().birthDate == CalendarDate(year: 1989, month: 7, day: 14))
    }

    // MARK: Normalization

    @Test(arguments: Fixture.textFields)
    func decomposedAccentBecomesPrecomposed(field: Identity.Field) throws {
        let identity = try RawIdentity().with(field, "Rene\u{301}e Ce\u{301}line").make()
        let stored = value(of: field, in: identity)
        #expect(stored == "Ren\u{E9}e C\u{E9}line")
        #expect(Array(stored.unicodeScalars) == Array("Ren\u{E9}e C\u{E9}line".unicodeScalars))
        #expect(!stored.unicodeScalars.contains("\u{301}"))
    }

    @Test(arguments: Fixture.textFields)
    func surroundingSpacesAreTrimmed(field: Identity.Field) throws {
        let identity = try RawIdentity().with(field, "   Anne  Marie \t").make()
        #expect(value(of: field, in: identity) == "Anne  Marie")
    }

    // MARK: Messages

    @Test(arguments: [
        (Identity.Field.firstName, "prénom"), (.lastName, "nom"), (.birthDate, "date de naissance"),
        (.birthPlace, "lieu de naissance"), (.address, "adresse"), (.zipCode, "code postal"), (.city, "ville"),
    ])
    func messageNamesTheFieldInFrench(field: Identity.Field, label: String) throws {
        #expect(field.label == label)
        let error = #expect(throws: IdentityError.self) { try RawIdentity().with(field, "").make() }
        let description = try #require(error).description
        #expect(description.hasPrefix(label + " "))
        #expect(description.contains("vide"))
    }

    @Test func zipCodeMessageSaysWhatIsExpected() throws {
        let error = #expect(throws: IdentityError.self) { try RawIdentity(zipCode: "7500").make() }
        let description = try #require(error).description
        #expect(description.contains("code postal"))
        #expect(description.contains("5 chiffres"))
    }

    @Test func tooLongMessageGivesTheLimit() throws {
        let limit = try #require(Identity.maximumLengths[.city])
        let error = #expect(throws: IdentityError.self) {
            try RawIdentity(city: String(repeating: "x", count: limit + 1)).make()
        }
        let description = try #require(error).description
        #expect(description.contains("ville"))
        #expect(description.contains("trop long"))
        #expect(description.contains("\(limit) caractères"))
    }

    @Test func dateMessagesGiveTheFormatAndTheRange() throws {
        let invalid = #expect(throws: IdentityError.self) { try RawIdentity(birthDate: "1970-01-01").make() }
        #expect(try #require(invalid).description.contains("date de naissance"))
        #expect(try #require(invalid).description.contains("JJ/MM/AAAA"))
        let future = #expect(throws: IdentityError.self) { try RawIdentity(birthDate: "01/01/2021").make() }
        #expect(try #require(future).description.contains("01/01/1900"))
        #expect(try #require(future).description.contains("28/11/2020"))
    }

    @Test func controlCharacterMessageNamesTheField() throws {
        let error = #expect(throws: IdentityError.self) { try RawIdentity(address: "1 rue\nde Paris").make() }
        #expect(try #require(error).description.hasPrefix("adresse "))
        #expect(try #require(error).description.contains("saut de ligne"))
    }

    // MARK: Codable

    @Test func codableRoundTripKeepsTheIdentity() throws {
        let identity = try RawIdentity(firstName: "Zoë", birthDate: "29/02/2000").make()
        let data = try JSONEncoder().encode(identity)
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(object["birthDate"] as? String == "29/02/2000")
        #expect(try JSONDecoder().decode(Identity.self, from: data) == identity)
    }

    @Test func decodingValidatesAgain() throws {
        let identity = try RawIdentity().make()
        var object = try #require(
            try JSONSerialization.jsonObject(with: JSONEncoder().encode(identity)) as? [String: Any])
        object["zipCode"] = "7500"
        let data = try JSONSerialization.data(withJSONObject: object)
        #expect(throws: IdentityError(field: .zipCode, problem: .invalidZipCode)) {
            try JSONDecoder().decode(Identity.self, from: data)
        }
    }
}
