import AttestationKit
import Foundation
import TestSupport
import Testing

@testable import LinkTokens

/// The 64 characters of the URL-safe base64 alphabet.
let base64URLAlphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")

extension LinkVerification {
    /// One of the four failures that come before the signature holds: nothing of the payload is given back.
    var isRejectedBeforeContents: Bool {
        switch self {
        case .malformed, .unsupportedVersion, .unknownKey, .badSignature: true
        case .valid, .expired, .revoked: false
        }
    }

    var isValid: Bool {
        if case .valid = self { true } else { false }
    }

    var contents: LinkContents? {
        switch self {
        case .valid(let contents, _), .expired(let contents, _), .revoked(let contents, _): contents
        default: nil
        }
    }
}

/// The decoded bytes of a token: the signed payload, then the 64-byte signature.
func tokenBytes(_ token: String) throws -> [UInt8] {
    try #require(Base64URL.decode(token), "not a base64url token: \(token)")
}

/// The signed part of a token.
func payload(of token: String) throws -> [UInt8] {
    Array(try tokenBytes(token).dropLast(LinkToken.signatureLength))
}

/// A token whose payload is `payload`, signed with the real private key: what only the key holder can make.
func resign(_ payload: [UInt8], with key: SigningKey = LinkFixture.key) throws -> String {
    Base64URL.encode(payload + key.signature(of: payload))
}

/// The payload of a token written field by field, as the format documents it, so that single
/// fields can be set to values `LinkToken.sign` never writes.
struct WirePayload {
    var version: UInt8 = LinkToken.version
    var keyID = LinkFixture.keyID
    var linkID: [UInt8] = LinkID.random().bytes
    var issued: UInt64 = 515_000
    var flags: UInt8?
    var expiry: UInt64?
    var formID = LinkFixture.defaultFormID
    var firstName = Array("Camille".utf8)
    var lastName = Array("Dupont".utf8)
    var birthDays: UInt64 = 25_567  // 01/01/1970
    var birthPlace = Array("Lyon".utf8)
    var address = Array("999 avenue de France".utf8)
    var zip: UInt64 = 75_001
    var city = Array("Paris".utf8)
    var reasons = ["travail"]
    var lockReasons = false
    var timeZone: String?
    var context: String?
    /// Written as the reason count instead of `reasons.count` when set.
    var reasonCount: UInt64?
    var trailing: [UInt8] = []

    init() {}

    /// The fields of real contents, to compare with what `LinkToken.sign` writes.
    init(_ contents: LinkContents, keyID: String) {
        self.keyID = keyID
        linkID = contents.id.bytes
        issued = UInt64(contents.issuedAt.timeIntervalSince(LinkClock.epoch) / 60)
        expiry = contents.expiresAt.map { UInt64($0.timeIntervalSince(LinkClock.epoch) / 60) }
        formID = contents.formID ?? ""
        context = contents.context
        let person = contents.identity
        firstName = Array(person.firstName.utf8)
        lastName = Array(person.lastName.utf8)
        birthDays = UInt64(person.birthDate.daysSince1900)
        birthPlace = Array(person.birthPlace.utf8)
        address = Array(person.address.utf8)
        zip = UInt64(person.zipCode)!
        city = Array(person.city.utf8)
        reasons = contents.reasons
        lockReasons = contents.lockReasons
        timeZone = contents.timeZone
    }

    var bytes: [UInt8] {
        var writer = ByteWriter()
        writer.byte(version)
        writer.string(keyID)
        writer.raw(linkID)
        writer.varint(issued)
        writer.byte(
            flags
                ?? ((expiry != nil ? 1 : 0) | (lockReasons ? 2 : 0) | (timeZone != nil ? 4 : 0)
                    | (context != nil ? 8 : 0)))
        if let expiry { writer.varint(expiry) }
        writer.string(formID)
        for field in [firstName, lastName] {
            writer.varint(UInt64(field.count))
            writer.raw(field)
        }
        writer.varint(birthDays)
        for field in [birthPlace, address] {
            writer.varint(UInt64(field.count))
            writer.raw(field)
        }
        writer.varint(zip)
        writer.varint(UInt64(city.count))
        writer.raw(city)
        writer.varint(reasonCount ?? UInt64(reasons.count))
        for code in reasons { writer.string(code) }
        if let timeZone { writer.string(timeZone) }
        if let context { writer.string(context) }
        writer.raw(trailing)
        return writer.bytes
    }

    func token(key: SigningKey = LinkFixture.key) throws -> String { try resign(bytes, with: key) }
}
