import AttestationKit
import Foundation

/// The token format, version 1, base64url without padding:
///
///     version (1 byte) | key id (string) | link id (12 bytes) | issued (varint)
///     | flags (1 byte) | expiry (varint, if flagged) | form id (string; empty: the calendar)
///     | first name, last name (strings) | birth date (varint: days since 01/01/1900)
///     | birth place, address (strings) | zip code (varint) | city (string)
///     | reasons (varint count, strings) | time zone (string, if flagged)
///     | context (string, if flagged) | Ed25519 signature of all the bytes before it (64 bytes)
///
/// A link that follows the calendar holds an empty form id: links minted before the calendar
/// all name their form, and keep printing it.
///
/// Strings are a varint length and UTF-8; varints are LEB128. Binary and compact, so a whole
/// link for a typical person stays under 400 characters (`SizeTests` holds it and prints the
/// length), short enough for a QR code a phone scans at a glance. The key id comes first, outside nothing: the verifier needs it to pick
/// the key, and reads nothing else before the signature holds.
public enum LinkToken {
    public static let version: UInt8 = 1
    /// Longer input is refused before any decoding.
    public static let maximumLength = 2048
    static let signatureLength = 64

    private enum Flag {
        static let expires: UInt8 = 1
        static let lockReasons: UInt8 = 2
        static let timeZone: UInt8 = 4
        static let context: UInt8 = 8
        static let known = expires | lockReasons | timeZone | context
    }

    /// The most reasons and the longest string a token holds: what `verify` reads.
    static let maximumReasons = 32
    static let maximumStringBytes = 1024

    /// Signs `contents` with `key`. Refuses what `verify` would not read back: more than
    /// 32 reasons, a date past `LinkClock.maximumMinutes`, or a token longer than
    /// `maximumLength` (possible with long names in scripts of many bytes per character).
    public static func sign(_ contents: LinkContents, with key: SigningKey) throws(LinkSigningError) -> String {
        guard contents.reasons.count <= maximumReasons else { throw .tooManyReasons(maximumReasons) }
        guard LinkClock.isRepresentable(contents.issuedAt), contents.expiresAt.map(LinkClock.isRepresentable) ?? true
        else {
            throw .dateOutOfRange
        }
        let person = contents.identity
        let strings =
            [contents.formID ?? "", person.firstName, person.lastName, person.birthPlace, person.address, person.city]
            + contents.reasons + (contents.timeZone.map { [$0] } ?? []) + (contents.context.map { [$0] } ?? [])
        guard strings.allSatisfy({ $0.utf8.count <= maximumStringBytes }) else { throw .tooLong(maximumLength) }
        guard contents.formID.map({ !$0.isEmpty && $0.utf8.count <= 64 }) ?? true,
            contents.context.map({ !$0.isEmpty && $0.utf8.count <= 32 }) ?? true
        else { throw .tooLong(maximumLength) }
        var writer = ByteWriter()
        writer.byte(version)
        writer.string(key.id)
        writer.raw(contents.id.bytes)
        writer.varint(LinkClock.minutes(contents.issuedAt))
        var flags: UInt8 = 0
        if contents.expiresAt != nil { flags |= Flag.expires }
        if contents.lockReasons { flags |= Flag.lockReasons }
        if contents.timeZone != nil { flags |= Flag.timeZone }
        if contents.context != nil { flags |= Flag.context }
        writer.byte(flags)
        if let expiry = contents.expiresAt { writer.varint(LinkClock.minutes(expiry)) }
        writer.string(contents.formID ?? "")
        writer.string(person.firstName)
        writer.string(person.lastName)
        writer.varint(UInt64(person.birthDate.daysSince1900))
        writer.string(person.birthPlace)
        writer.string(person.address)
        writer.varint(UInt64(person.zipCode)!)
        writer.string(person.city)
        writer.varint(UInt64(contents.reasons.count))
        for code in contents.reasons { writer.string(code) }
        if let zone = contents.timeZone { writer.string(zone) }
        if let context = contents.context { writer.string(context) }
        let token = Base64URL.encode(writer.bytes + key.signature(of: writer.bytes))
        guard token.utf8.count <= maximumLength else { throw .tooLong(maximumLength) }
        return token
    }

    /// Checks a token against the key ring, then the revocation list and the expiry.
    /// Nothing of the payload is decoded before the signature holds.
    public static func verify(
        _ token: String, keys: KeyRing, revoked: RevocationList = .empty, now: Date = Date()
    ) -> LinkVerification {
        guard token.utf8.count <= maximumLength, let bytes = Base64URL.decode(token),
            bytes.count > signatureLength + 2
        else { return .malformed }
        var header = ByteReader(bytes[...])
        guard let tokenVersion = header.byte() else { return .malformed }
        guard tokenVersion == version else { return .unsupportedVersion(tokenVersion) }
        guard let keyID = header.string(maxBytes: 32) else { return .malformed }
        guard let key = keys.keys[keyID] else { return .unknownKey(keyID) }

        let signed = bytes[..<(bytes.count - signatureLength)]
        let signature = bytes[(bytes.count - signatureLength)...]
        guard key.isValidSignature(signature, of: signed) else { return .badSignature }

        var reader = ByteReader(signed)
        _ = reader.byte()
        _ = reader.string(maxBytes: 32)
        guard let contents = decodeBody(&reader, now: now), reader.isAtEnd else { return .malformed }
        if revoked.contains(contents.id) { return .revoked(contents, keyID: keyID) }
        if let expiry = contents.expiresAt, expiry <= now { return .expired(contents, keyID: keyID) }
        return .valid(contents, keyID: keyID)
    }

    private static func decodeBody(_ reader: inout ByteReader, now: Date) -> LinkContents? {
        guard let idBytes = reader.raw(LinkID.byteCount), let id = LinkID(bytes: idBytes),
            let issued = reader.varint(), issued <= LinkClock.maximumMinutes,
            let flags = reader.byte(), flags & ~Flag.known == 0
        else { return nil }
        var expiry: UInt64?
        if flags & Flag.expires != 0 {
            guard let value = reader.varint(), value <= LinkClock.maximumMinutes else { return nil }
            expiry = value
        }
        guard let formID = reader.string(maxBytes: 64),
            let firstName = reader.string(), let lastName = reader.string(),
            let birthDays = reader.varint(), birthDays < 100_000,
            let birthPlace = reader.string(), let address = reader.string(),
            let zip = reader.varint(), zip <= 99_999, let city = reader.string(),
            let reasonCount = reader.varint(), reasonCount <= UInt64(maximumReasons)
        else { return nil }
        var reasons: [String] = []
        for _ in 0..<reasonCount {
            guard let code = reader.string(maxBytes: 32) else { return nil }
            reasons.append(code)
        }
        var timeZone: String?
        if flags & Flag.timeZone != 0 {
            guard let zone = reader.string(maxBytes: 64) else { return nil }
            timeZone = zone
        }
        var context: String?
        if flags & Flag.context != 0 {
            guard let value = reader.string(maxBytes: 32), !value.isEmpty else { return nil }
            context = value
        }
        let zipText = String(zip)
        guard let birthDate = CalendarDate(daysSince1900: Int(birthDays)),
            let identity = try? Identity(
                firstName: firstName, lastName: lastName, birthDate: birthDate.description, birthPlace: birthPlace,
                address: address, zipCode: String(repeating: "0", count: 5 - zipText.count) + zipText, city: city,
                today: LocalDateTime(now, in: .paris).date, birthPlaceOptional: true)
        else { return nil }
        return LinkContents(
            id: id, issuedAt: LinkClock.date(issued), expiresAt: expiry.map(LinkClock.date),
            formID: formID.isEmpty ? nil : formID, context: context, identity: identity, reasons: reasons,
            timeZone: timeZone, lockReasons: flags & Flag.lockReasons != 0)
    }
}

/// Why a link could not be signed; `description` is the French message.
public enum LinkSigningError: Error, Sendable, Equatable, CustomStringConvertible {
    case tooManyReasons(Int)
    case tooLong(Int)
    case dateOutOfRange

    public var description: String {
        switch self {
        case .tooManyReasons(let limit):
            return "trop de motifs pour un lien ; \(limit) au plus."
        case .tooLong(let limit):
            return
                "identité trop longue pour un lien (plus de \(limit) caractères une fois encodée) ; raccourcissez l’adresse ou les noms."
        case .dateOutOfRange:
            return "date hors limites pour un lien ; une date avant l’an 10000 est attendue."
        }
    }
}

/// The outcome of checking a token, each failure its own case.
public enum LinkVerification: Sendable, Equatable {
    case valid(LinkContents, keyID: String)
    /// Not a token of this service: bad characters, truncated, extra bytes, inconsistent fields.
    case malformed
    /// A version this server does not know (a newer one, say).
    case unsupportedVersion(UInt8)
    /// Signed with a key the configuration does not hold (never, or not any more).
    case unknownKey(String)
    /// Altered, or forged.
    case badSignature
    case expired(LinkContents, keyID: String)
    case revoked(LinkContents, keyID: String)
}

extension CalendarDate {
    /// Days from 01/01/1900 (day 0) to 01/01/1970 in the proleptic Gregorian calendar.
    private static let daysFrom1900To1970 = 25_567

    /// Days since 01/01/1900, for a compact token (civil-from-days arithmetic, H. Hinnant).
    var daysSince1900: Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468 + Self.daysFrom1900To1970
    }

    init?(daysSince1900 days: Int) {
        let z = days - Self.daysFrom1900To1970 + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        self.init(year: yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month: month, day: day)
    }
}
