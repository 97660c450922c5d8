import AttestationKit
import FormSchema
import Foundation
import PropertyBased
import TestSupport
import Testing

@testable import LinkTokens

/// The letters people write their names and addresses with: French, Polish, Vietnamese, Greek,
/// all precomposed (NFC), so that a stored value equals the typed one character for character.
enum Letters {
    static let french = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZéèêëàâäîïôöùûüÿçœæÉÈÊËÀÂÎÏÔÙÛÇŒÆß")
    static let polish = Array("ąćęłńóśźżĄĆĘŁŃÓŚŹŻ")
    static let vietnamese = Array(
        "ăâđêôơưĂÂĐÊÔƠƯạảấầẩẫậắằẳẵặẹẻẽếềểễệỉịọỏốồổỗộớờởỡợụủứừửữựỳỵỷỹẠẢẤẦẨẪẬẮẰẲẴẶẸẺẼẾỀỂỄỆỈỊỌỎỐỒỔỖỘỚỜỞỠỢỤỦỨỪỬỮỰỲỴỶỸ")
    static let greek = Array("αβγδεζηθικλμνξοπρστυφχψωςάέήίόύώϊϋΐΰΑΒΓΔΕΖΗΘΙΚΛΜΝΞΟΠΡΣΤΥΦΧΨΩΆΈΉΊΌΎΏΪΫ")
    static let letters = french + polish + vietnamese + greek
    /// Inside a value: letters, and the separators names and addresses have.
    static let inner = letters + Array("  -'’.")
    static let address = inner + Array("0123456789,/")

    static let zones = [
        "America/Martinique", "America/Guadeloupe", "America/Cayenne", "Indian/Reunion",
        "Indian/Mayotte", "Pacific/Noumea", "Pacific/Tahiti", "America/Miquelon", "Europe/Paris",
    ]
}

/// A person as typed: every value valid, to be checked by `Identity` in the test itself.
struct RawPerson: Sendable, CustomTestStringConvertible {
    var firstName, lastName: String
    var birthDate: CalendarDate
    var birthPlace, address, zipCode, city: String

    func identity(today: CalendarDate = LinkFixture.today) throws -> Identity {
        try Identity(
            firstName: firstName, lastName: lastName, birthDate: birthDate.description, birthPlace: birthPlace,
            address: address, zipCode: zipCode, city: city, today: today)
    }

    var testDescription: String {
        "\(firstName) | \(lastName) | \(birthDate) | \(birthPlace) | \(address) | \(zipCode) | \(city)"
    }
}

/// What a minted link is made of, before the link id.
struct RawLink: Sendable, CustomTestStringConvertible {
    var person: RawPerson
    var formIndex: Int
    var reasonMask: Int
    var expiryMinutes: Int?
    var zoneIndex: Int?
    var lockReasons: Bool
    var issuedSeconds: Int
    var secondsToVerify: Int

    var testDescription: String {
        "\(person.testDescription) form \(formIndex) mask \(reasonMask) expiry \(expiryMinutes.map(String.init) ?? "-") zone \(zoneIndex.map(String.init) ?? "-") lock \(lockReasons) issued +\(issuedSeconds)s verify +\(secondsToVerify)s"
    }
}

enum LinkGen {
    static let letter = Gen<Character?>.element(of: Letters.letters).map { $0! }
    static let inner = Gen<Character?>.element(of: Letters.inner).map { $0! }
    static let addressCharacter = Gen<Character?>.element(of: Letters.address).map { $0! }

    /// A value of 1 to `limit` characters starting and ending with a letter or digit (nothing to trim).
    static func text(_ field: Identity.Field, characters: [Character]) -> Generator<String, AnySequence<Any>> {
        let limit = Identity.maximumLengths[field]!
        let rest = Gen<Character?>.element(of: characters).map { $0! }.array(of: 0...(limit - 1))
        return zip(letter, rest).map { (first: Character, rest: [Character]) -> String in
            var characters = [first] + rest
            while let last = characters.last, !last.isLetter, !last.isNumber { characters.removeLast() }
            return String(characters)
        }.eraseToAny()
    }

    /// Before 2020: links are issued from 2020 on, and a birth date on or after the day a link
    /// is read makes it malformed (one run in a dozen drew such a pair).
    static let birthDate = zip(Gen.int(in: 1900...2019), Gen.int(in: 1...12), Gen.int(in: 1...31))
        .compactMap { (parts: (Int, Int, Int)) -> CalendarDate? in
            guard let date = CalendarDate(year: parts.0, month: parts.1, day: parts.2), date < LinkFixture.today else {
                return nil
            }
            return date
        }

    /// Five digits, half of them with leading zeros (01000, 00042…).
    static let zipCode = zip(Gen.int(in: 0...99_999), Gen.bool)
        .map { (number: Int, small: Bool) -> String in
            let value = small ? number % 10_000 : number
            let digits = String(value)
            return String(repeating: "0", count: 5 - digits.count) + digits
        }

    static let person = zip(
        text(.firstName, characters: Letters.inner), text(.lastName, characters: Letters.inner), birthDate,
        text(.birthPlace, characters: Letters.inner), text(.address, characters: Letters.address), zipCode,
        text(.city, characters: Letters.inner)
    ).map { (p: (String, String, CalendarDate, String, String, String, String)) -> RawPerson in
        RawPerson(firstName: p.0, lastName: p.1, birthDate: p.2, birthPlace: p.3, address: p.4, zipCode: p.5, city: p.6)
    }

    static let link = zip(
        person, Gen.int(in: 0...1), Gen.int(in: 1...511), Gen.int(in: 1...1_051_200).optional,
        Gen.int(in: 0...(Letters.zones.count - 1)).optional, Gen.bool, Gen.int(in: 0...315_360_000),
        Gen.int(in: 0...86_400)
    ).map { (l: (RawPerson, Int, Int, Int?, Int?, Bool, Int, Int)) -> RawLink in
        RawLink(
            person: l.0, formIndex: l.1, reasonMask: l.2, expiryMinutes: l.3, zoneIndex: l.4, lockReasons: l.5,
            issuedSeconds: l.6, secondsToVerify: l.7)
    }
}

@Suite("Random links")
struct PropertyTests {
    @Test func theAlphabetsAreNFCAndPrintable() throws {
        for character in Letters.address {
            #expect(String(character).precomposedStringWithCanonicalMapping == String(character), "\(character)")
            #expect(String(character).unicodeScalars.count == 1, "\(character)")
        }
        #expect(Set(Letters.polish).isSubset(of: Set(Letters.letters)))
    }

    @Test func randomLinksRoundTripAndRender() async throws {
        await propertyCheck(count: 200, input: LinkGen.link) { raw in
            let identity = try raw.person.identity()
            // The generator types values that need no normalization: stored as typed.
            #expect(identity.firstName == raw.person.firstName)
            #expect(identity.lastName == raw.person.lastName)
            #expect(identity.birthPlace == raw.person.birthPlace)
            #expect(identity.address == raw.person.address)
            #expect(identity.city == raw.person.city)
            #expect(identity.zipCode == raw.person.zipCode)

            let form = FormCatalog.builtIn.forms[raw.formIndex]
            let codes = form.reasons.indices.filter { raw.reasonMask & (1 << $0) != 0 }.map { form.reasons[$0].code }
            let issued = LinkClock.epoch.addingTimeInterval(TimeInterval(raw.issuedSeconds) + 0.25)
            let now = issued.addingTimeInterval(TimeInterval(raw.secondsToVerify))
            let expiry = raw.expiryMinutes.map { now.addingTimeInterval(TimeInterval($0 * 60)) }
            let zone = raw.zoneIndex.map { Letters.zones[$0] }
            let original = LinkContents(
                issuedAt: issued, expiresAt: expiry, formID: form.id, identity: identity, reasons: codes,
                timeZone: zone, lockReasons: raw.lockReasons)

            let token = try LinkToken.sign(original, with: LinkFixture.key)
            #expect(token.count <= LinkToken.maximumLength)
            let result = LinkToken.verify(token, keys: LinkFixture.ring, now: now)
            #expect(result == .valid(original, keyID: LinkFixture.keyID))
            let contents = try #require(result.contents)
            #expect(contents.identity == identity)
            #expect(contents.identity.birthDate == raw.person.birthDate)
            #expect(contents.reasons == codes)
            #expect(
                contents.expiresAt.map { $0.timeIntervalSince(LinkClock.epoch).truncatingRemainder(dividingBy: 60) }
                    ?? 0 == 0)
            if let expiry = contents.expiresAt {
                #expect(
                    LinkToken.verify(token, keys: LinkFixture.ring, now: expiry)
                        == .expired(original, keyID: LinkFixture.keyID))
            }

            // The attestation built from the link keeps the person and the reasons, in the form's order.
            let timeZone = try #require(TimeZone(identifier: contents.timeZone ?? "Europe/Paris"))
            let attestation = try Attestation(
                identity: contents.identity, form: form, reasonCodes: contents.reasons, timeZone: timeZone, now: now)
            #expect(attestation.identity == identity)
            #expect(attestation.form.id == form.id)
            #expect(attestation.reasons.map(\.code) == codes)
            #expect(attestation.created == now)
            #expect(attestation.exit == now)
            #expect(attestation.timeZone.identifier == timeZone.identifier)
        }
    }

    /// Any payload the key holder could sign, however odd, verifies to one of the cases that
    /// come after the signature, and never crashes the verifier.
    @Test func resignedMutationsAreMalformedOrReadable() async throws {
        let full = LinkFixture.contents(
            reasons: ["travail", "sante"], expiresAt: instant("2021-01-31T12:00:00Z"), timeZone: "Indian/Reunion",
            lockReasons: true)
        let base = try payload(of: LinkFixture.token(full))
        let header = 1 + 1 + LinkFixture.keyID.utf8.count
        var outcomes: [String: Int] = [:]
        await propertyCheck(count: 300, input: Gen.int(in: header...(base.count - 1)), Gen.uint8(), Gen.int(in: 0...3))
        {
            position, value, mode in
            var bytes = base
            switch mode {
            case 0: bytes[position] = value
            case 1: bytes.insert(value, at: position)
            case 2: bytes.remove(at: position)
            default: bytes[position] ^= 1 << (value % 8)
            }
            let result = LinkToken.verify(try resign(bytes), keys: LinkFixture.ring, now: LinkFixture.now)
            switch result {
            case .malformed: outcomes["malformed", default: 0] += 1
            case .valid, .expired, .revoked: outcomes["readable", default: 0] += 1
            case .badSignature, .unknownKey, .unsupportedVersion:
                Issue.record("a properly signed payload with an intact header gave \(result)")
            }
        }
        #expect(outcomes["malformed", default: 0] > 0, "\(outcomes)")
    }

    @Test func randomLinkIDsParseBack() async {
        await propertyCheck(count: 200, input: Gen.uint8().array(of: LinkID.byteCount)) { bytes in
            let id = try #require(LinkID(bytes: bytes))
            let text = id.description
            #expect(text.count == 16)
            #expect(text.allSatisfy { base64URLAlphabet.contains($0) })
            #expect(LinkID(text) == id)
            #expect(try RevocationList(parsing: RevocationList.line(for: id, comment: "x")).contains(id))
        }
    }

    // MARK: Values at their limits

    @Test(arguments: [
        ("Polish", "Łódź"), ("Vietnamese", "Nguyễn"), ("Greek", "Αθηνά"), ("French", "Œillet"),
        ("4-byte letters", "𝔄𝔅"), ("CJK", "東京"),
    ])
    func identityAtMaximumLengthsRoundTrips(script: String, word: String) throws {
        func fill(_ field: Identity.Field) -> String {
            let limit = Identity.maximumLengths[field]!
            return String(String(repeating: word, count: limit).prefix(limit))
        }
        let identity = try Identity(
            firstName: fill(.firstName), lastName: fill(.lastName), birthDate: "01/01/1900",
            birthPlace: fill(.birthPlace), address: fill(.address), zipCode: "01000", city: fill(.city),
            today: LinkFixture.today)
        #expect(identity.address.count == 100)
        let contents = LinkFixture.contents(
            identity: identity, reasons: FormCatalog.builtIn.defaultForm.reasons.map(\.code),
            expiresAt: instant("2030-01-01T00:00:00Z"), timeZone: "America/Martinique", lockReasons: true)
        let token = try LinkFixture.token(contents)
        print("\(script): a maximal identity makes a token of \(token.count) characters")
        #expect(
            LinkToken.verify(token, keys: LinkFixture.ring, now: LinkFixture.now)
                == .valid(contents, keyID: LinkFixture.keyID))
    }

    @Test(arguments: ["01/01/1900", "29/02/1904", "29/02/2000", "31/12/1999", "27/11/2020"])
    func birthDatesAtTheEdgesRoundTrip(date: String) throws {
        let identity = try Identity(
            firstName: "Zoé", lastName: "Martin", birthDate: date, birthPlace: "Ajaccio",
            address: "1 cours Napoléon", zipCode: "20000", city: "Ajaccio", today: LinkFixture.today)
        let contents = LinkFixture.contents(identity: identity)
        let result = LinkToken.verify(try LinkFixture.token(contents), keys: LinkFixture.ring, now: LinkFixture.now)
        #expect(result == .valid(contents, keyID: LinkFixture.keyID))
        #expect(result.contents?.identity.birthDate.description == date)
    }

    @Test(arguments: ["00000", "00001", "01000", "09999", "10000", "99999"])
    func zipCodesKeepTheirLeadingZeros(zip: String) throws {
        let identity = try Identity(
            firstName: "Jean", lastName: "Martin", birthDate: "14/07/1989", birthPlace: "Bourg-en-Bresse",
            address: "2 rue de la Paix", zipCode: zip, city: "Bourg-en-Bresse", today: LinkFixture.today)
        let result = LinkToken.verify(
            try LinkFixture.token(LinkFixture.contents(identity: identity)), keys: LinkFixture.ring,
            now: LinkFixture.now)
        #expect(result.contents?.identity.zipCode == zip)
    }

    /// Every identity `Identity` accepts must either be refused by `sign` or make a token that
    /// `verify` accepts: a link that can never be opened must not be handed out.
    /// Devanagari letters are single characters of several scalars (`क्षि` is 1 character, 12 bytes).
    @Test func everyValidIdentityMakesAnOpenableLinkOrIsRefused() throws {
        func fill(_ field: Identity.Field, _ word: String) -> String {
            String(repeating: word, count: Identity.maximumLengths[field]!)
        }
        let identity = try Identity(
            firstName: fill(.firstName, "क्षि"), lastName: fill(.lastName, "क्षि"), birthDate: "01/01/1970",
            birthPlace: fill(.birthPlace, "क्षि"), address: fill(.address, "क्षि"), zipCode: "75001",
            city: fill(.city, "क्षि"), today: LinkFixture.today)
        #expect(identity.address.count == 100, "a valid identity: 100 characters of address")
        let contents = LinkFixture.contents(identity: identity)
        do {
            let token = try LinkToken.sign(contents, with: LinkFixture.key)
            let result = LinkToken.verify(token, keys: LinkFixture.ring, now: LinkFixture.now)
            let byteCount = Base64URL.decode(token)?.count ?? -1
            #expect(
                result == .valid(contents, keyID: LinkFixture.keyID),
                "sign made a \(token.count)-character token (\(byteCount) bytes) that verify calls \(result)")
        } catch {
            // Refusing to sign is an acceptable answer.
        }
    }

    /// Same contract for the reasons: the verifier reads at most 32, `sign` writes any number
    /// (a form added as JSON may have more than 32 reasons).
    @Test func aLinkWithMoreReasonsThanTheVerifierReadsIsRefusedBySign() throws {
        let codes = (1...33).map { "motif_\($0)" }
        let contents = LinkFixture.contents(reasons: codes)
        do {
            let token = try LinkToken.sign(contents, with: LinkFixture.key)
            let result = LinkToken.verify(token, keys: LinkFixture.ring, now: LinkFixture.now)
            #expect(
                result == .valid(contents, keyID: LinkFixture.keyID), "sign made a token that verify calls \(result)")
        } catch {
            // Refusing to sign is an acceptable answer.
        }
    }

    // MARK: Birth dates as day numbers

    /// Every day number the verifier accepts (0 to 99 999) is a date, and back; consecutive
    /// numbers are consecutive days, as Foundation's Gregorian calendar counts them.
    @Test func dayNumbersAndDatesAreInverse() throws {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let origin = try #require(calendar.date(from: DateComponents(year: 1900, month: 1, day: 1)))
        var previous: CalendarDate?
        for days in 0..<100_000 {
            let date = try #require(CalendarDate(daysSince1900: days), "day \(days)")
            #expect(date.daysSince1900 == days)
            if let previous { #expect(previous < date) }
            if days % 997 == 0 || days < 400 || (25_500...25_700).contains(days) {
                let expected = try #require(calendar.date(byAdding: .day, value: days, to: origin))
                let parts = calendar.dateComponents([.year, .month, .day], from: expected)
                #expect(date == CalendarDate(year: parts.year!, month: parts.month!, day: parts.day!), "day \(days)")
            }
            previous = date
        }
        #expect(CalendarDate(daysSince1900: 0)?.description == "01/01/1900")
        #expect(CalendarDate(daysSince1900: 59)?.description == "01/03/1900", "1900 is not a leap year")
        #expect(CalendarDate(daysSince1900: 25_567)?.description == "01/01/1970")
        #expect(CalendarDate(daysSince1900: 36_583)?.description == "29/02/2000")
        #expect(CalendarDate(daysSince1900: 44_161)?.description == "28/11/2020")
    }
}
