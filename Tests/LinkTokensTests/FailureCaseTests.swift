import AttestationKit
import Foundation
import TestSupport
import Testing

@testable import LinkTokens

/// Each way a link can fail has its own case.
@Suite("Verification failures")
struct FailureCaseTests {
    @Test func otherKeyPairWithTheSameIDIsABadSignature() throws {
        let impostor = try SigningKey.generate(id: LinkFixture.keyID)
        #expect(impostor.verificationKey != LinkFixture.key.verificationKey)
        let forged = try LinkFixture.token(key: impostor)
        #expect(LinkToken.verify(forged, keys: LinkFixture.ring, now: LinkFixture.now) == .badSignature)
        // And the other way round: the real token against a ring holding the impostor's public key.
        let impostorRing = try KeyRing([impostor.verificationKey])
        #expect(LinkToken.verify(try LinkFixture.token(), keys: impostorRing, now: LinkFixture.now) == .badSignature)
    }

    @Test func unknownKeyIDIsNamed() throws {
        let stranger = try SigningKey.generate(id: "autre.cle_2")
        let token = try LinkFixture.token(key: stranger)
        #expect(LinkToken.verify(token, keys: LinkFixture.ring, now: LinkFixture.now) == .unknownKey("autre.cle_2"))
        #expect(LinkToken.verify(token, keys: try KeyRing([]), now: LinkFixture.now) == .unknownKey("autre.cle_2"))
    }

    @Test func expiredLinkGivesItsContents() throws {
        let expiry = instant("2020-11-28T08:00:00Z")
        let contents = LinkFixture.contents(expiresAt: expiry)
        let token = try LinkFixture.token(contents)
        let keyID = LinkFixture.keyID
        #expect(
            LinkToken.verify(token, keys: LinkFixture.ring, now: LinkFixture.now) == .expired(contents, keyID: keyID))
        #expect(
            LinkToken.verify(token, keys: LinkFixture.ring, now: expiry) == .expired(contents, keyID: keyID),
            "at the very moment of expiry")
        #expect(
            LinkToken.verify(token, keys: LinkFixture.ring, now: expiry.addingTimeInterval(-0.001))
                == .valid(contents, keyID: keyID))
        #expect(
            LinkToken.verify(token, keys: LinkFixture.ring, now: instant("2020-11-27T18:00:00Z"))
                == .valid(contents, keyID: keyID))
    }

    @Test func expiryIsCheckedAgainstTheGivenNowNotTheClock() throws {
        // Expired long ago by the real clock, valid at the `now` passed in.
        let contents = LinkFixture.contents(expiresAt: instant("2020-12-01T00:00:00Z"))
        let token = try LinkFixture.token(contents)
        #expect(LinkToken.verify(token, keys: LinkFixture.ring, now: LinkFixture.now).isValid)
        #expect(!LinkToken.verify(token, keys: LinkFixture.ring).isValid)
    }

    @Test func revokedLinkGivesItsContents() throws {
        let contents = LinkFixture.contents()
        let token = try LinkFixture.token(contents)
        let revoked = RevocationList(ids: [LinkID.random(), contents.id])
        #expect(
            LinkToken.verify(token, keys: LinkFixture.ring, revoked: revoked, now: LinkFixture.now)
                == .revoked(contents, keyID: LinkFixture.keyID))
        let others = RevocationList(ids: [LinkID.random(), LinkID.random()])
        #expect(
            LinkToken.verify(token, keys: LinkFixture.ring, revoked: others, now: LinkFixture.now)
                == .valid(contents, keyID: LinkFixture.keyID))
    }

    @Test func revokedFromTheParsedFile() throws {
        let contents = LinkFixture.contents()
        let token = try LinkFixture.token(contents)
        let file =
            "# révoqués\n" + RevocationList.line(for: LinkID.random())
            + RevocationList.line(for: contents.id, comment: "téléphone perdu")
        let revoked = try RevocationList(parsing: file)
        #expect(
            LinkToken.verify(token, keys: LinkFixture.ring, revoked: revoked, now: LinkFixture.now)
                == .revoked(contents, keyID: LinkFixture.keyID))
    }

    @Test func revokedComesBeforeExpired() throws {
        let contents = LinkFixture.contents(expiresAt: instant("2020-11-28T00:00:00Z"))
        let token = try LinkFixture.token(contents)
        #expect(
            LinkToken.verify(
                token, keys: LinkFixture.ring, revoked: RevocationList(ids: [contents.id]),
                now: LinkFixture.now) == .revoked(contents, keyID: LinkFixture.keyID))
    }

    @Test(arguments: [UInt8(0), 2, 3, 0x7F, 0xFF])
    func otherVersionIsUnsupportedEvenWhenProperlySigned(version: UInt8) throws {
        var bytes = try payload(of: LinkFixture.token())
        bytes[0] = version
        let token = try resign(bytes)
        #expect(LinkToken.verify(token, keys: LinkFixture.ring, now: LinkFixture.now) == .unsupportedVersion(version))
        var wire = WirePayload()
        wire.version = version
        #expect(
            LinkToken.verify(try wire.token(), keys: LinkFixture.ring, now: LinkFixture.now)
                == .unsupportedVersion(version))
    }

    @Test func theHandBuiltVersion1TokenIsValid() throws {
        // The control for the hand-built tokens below: with nothing changed, it verifies.
        let wire = WirePayload()
        let result = LinkToken.verify(try wire.token(), keys: LinkFixture.ring, now: LinkFixture.now)
        let contents = try #require(result.contents)
        #expect(result.isValid)
        #expect(contents.identity == LinkFixture.camille)
        #expect(contents.reasons == ["travail"])
    }

    @Test func removedKeyEndsItsLinks() throws {
        let old = try SigningKey.generate(id: "2020-10")
        let new = try SigningKey.generate(id: "2020-11")
        let token = try LinkFixture.token(key: old)
        let before = try KeyRing([old.verificationKey, new.verificationKey])
        #expect(LinkToken.verify(token, keys: before, now: LinkFixture.now).isValid)
        let after = try KeyRing([new.verificationKey])
        #expect(LinkToken.verify(token, keys: after, now: LinkFixture.now) == .unknownKey("2020-10"))
    }

    @Test func rotationAcceptsBothKeys() throws {
        let old = try SigningKey.generate(id: "2020-10")
        let new = try SigningKey.generate(id: "2020-11")
        let ring = try KeyRing([old.verificationKey, new.verificationKey])
        let fromOld = LinkFixture.contents()
        let fromNew = LinkFixture.contents()
        #expect(
            LinkToken.verify(try LinkFixture.token(fromOld, key: old), keys: ring, now: LinkFixture.now)
                == .valid(fromOld, keyID: "2020-10"))
        #expect(
            LinkToken.verify(try LinkFixture.token(fromNew, key: new), keys: ring, now: LinkFixture.now)
                == .valid(fromNew, keyID: "2020-11"))
        // The key id in the token picks the key: a token naming one key but signed by the other fails.
        var mislabelled = try payload(of: LinkFixture.token(fromOld, key: old))
        mislabelled.replaceSubrange(1...8, with: [7] + Array("2020-11".utf8))
        #expect(LinkToken.verify(try resign(mislabelled, with: old), keys: ring, now: LinkFixture.now) == .badSignature)
    }

    // MARK: Properly signed but inconsistent payloads are malformed

    static let malformedPayloads: [(String, @Sendable (inout WirePayload) -> Void)] = [
        ("unknown flag 8", { $0.flags = 8 }),
        ("unknown flag 0x80", { $0.flags = 0x80 }),
        ("expiry flag without expiry", { $0.flags = 1 }),
        ("zone flag without zone", { $0.flags = 4 }),
        ("trailing byte", { $0.trailing = [0] }),
        ("trailing bytes", { $0.trailing = Array("travail".utf8) }),
        ("zip code 100000", { $0.zip = 100_000 }),
        ("birth date after today", { $0.birthDays = 44_500 }),
        ("birth date too far", { $0.birthDays = 100_000 }),
        ("birth date today", { $0.birthDays = 44_161 }),
        ("empty first name", { $0.firstName = [] }),
        ("blank city", { $0.city = Array("   ".utf8) }),
        ("line break in address", { $0.address = Array("1 rue\nde Paris".utf8) }),
        ("control character in last name", { $0.lastName = Array("Du\u{7}pont".utf8) }),
        ("first name too long", { $0.firstName = Array(String(repeating: "a", count: 51).utf8) }),
        ("invalid UTF-8 in first name", { $0.firstName = [0x43, 0xC3, 0x28] }),
        ("overlong UTF-8 in city", { $0.city = [0xC0, 0xAF] }),
        ("more than 32 reasons", { $0.reasons = Array(repeating: "travail", count: 33) }),
        ("reason count past the end", { $0.reasonCount = 2 }),
        ("reason count huge", { $0.reasonCount = 1 << 40 }),
        ("form id over 64 bytes", { $0.formID = String(repeating: "f", count: 65) }),
        ("reason over 32 bytes", { $0.reasons = [String(repeating: "r", count: 33)] }),
        ("zone over 64 bytes", { $0.timeZone = String(repeating: "z", count: 65) }),
        // Found by fuzzing (Tests/Fuzz/Corpus/link-token/p-emis-63-bits): past 2^53 seconds, a
        // minute count no longer survives a Date, so the contents signed back to other bytes.
        ("issued past the last minute", { $0.issued = LinkClock.maximumMinutes + 1 }),
        ("issued on 63 bits", { $0.issued = UInt64(Int64.max) }),
        ("expiry past the last minute", { $0.expiry = LinkClock.maximumMinutes + 1 }),
    ]

    @Test(arguments: malformedPayloads.indices)
    func inconsistentPayloadIsMalformed(index: Int) throws {
        let (name, change) = Self.malformedPayloads[index]
        var wire = WirePayload()
        change(&wire)
        let result = LinkToken.verify(try wire.token(), keys: LinkFixture.ring, now: LinkFixture.now)
        #expect(result == .malformed, "\(name): \(result)")
    }

    @Test func nonShortestVarintIsMalformed() throws {
        // The zip code 75001 written with a needless continuation byte: same value, other bytes.
        let good = WirePayload().bytes
        var writer = ByteWriter()
        writer.varint(75_001)
        let zipBytes = writer.bytes
        let start = try #require(good.indices.first { Array(good[$0...].prefix(zipBytes.count)) == zipBytes })
        var bytes = good
        bytes[start + zipBytes.count - 1] |= 0x80
        bytes.insert(0, at: start + zipBytes.count)
        #expect(LinkToken.verify(try resign(good), keys: LinkFixture.ring, now: LinkFixture.now).isValid)
        #expect(LinkToken.verify(try resign(bytes), keys: LinkFixture.ring, now: LinkFixture.now) == .malformed)
    }

    @Test func lastMinuteRoundTrips() throws {
        var wire = WirePayload()
        wire.issued = LinkClock.maximumMinutes
        wire.expiry = LinkClock.maximumMinutes
        let result = LinkToken.verify(try wire.token(), keys: LinkFixture.ring, now: LinkFixture.now)
        let contents = try #require(result.contents, "\(result)")
        #expect(try LinkFixture.token(contents) == (try wire.token()), "the same bytes once signed again")
    }

    @Test func signRefusesDatesVerifyWouldNotRead() throws {
        let last = LinkClock.date(LinkClock.maximumMinutes)
        #expect(throws: Never.self) { try LinkFixture.token(LinkFixture.contents(expiresAt: last)) }
        let beyond = last.addingTimeInterval(60)
        #expect(throws: LinkSigningError.dateOutOfRange) {
            try LinkFixture.token(LinkFixture.contents(expiresAt: beyond))
        }
        let contents = LinkContents(
            issuedAt: beyond, formID: LinkFixture.defaultFormID, identity: LinkFixture.camille,
            reasons: ["travail"])
        #expect(throws: LinkSigningError.dateOutOfRange) { try LinkFixture.token(contents) }
    }

    @Test func tooShortForASignatureIsMalformed() throws {
        for length in [0, 1, 2, 64, 65, 66] {
            let token = Base64URL.encode([1] + [UInt8](repeating: 0, count: max(0, length - 1)))
            #expect(
                LinkToken.verify(token, keys: LinkFixture.ring, now: LinkFixture.now) == .malformed, "\(length) bytes")
        }
    }
}
