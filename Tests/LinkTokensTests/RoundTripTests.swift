import AttestationKit
import FormSchema
import Foundation
import TestSupport
import Testing

@testable import LinkTokens

/// A form and the reason codes a link preselects, as a test argument.
struct ReasonCase: Sendable, CustomTestStringConvertible {
    let formID: String
    let codes: [String]
    var testDescription: String { "\(formID) [\(codes.joined(separator: ","))]" }

    /// Every code of every built-in form on its own, then all the codes of each form at once.
    static let all: [ReasonCase] = FormCatalog.builtIn.forms.flatMap { form in
        form.reasons.map { ReasonCase(formID: form.id, codes: [$0.code]) }
            + [ReasonCase(formID: form.id, codes: form.reasons.map(\.code))]
    }
}

@Suite("Sign then verify")
struct RoundTripTests {
    /// The seventeen official forms, the November ones first with nine reasons each: 158 cases
    /// (9 + 1 for each November form, 6, 6, 6, 5, 7 reasons + 1 for the drawn ones of April–June
    /// 2021, 8, 12, 8, 12, 12, 8, 8, 8, 9 and 8 reasons + 1 for the others).
    @Test func everyBuiltInFormIsACase() {
        #expect(FormCatalog.builtIn.forms.map(\.id).prefix(2) == [LinkFixture.defaultFormID, LinkFixture.olderFormID])
        #expect(FormCatalog.builtIn.forms.count == 17)
        #expect(FormCatalog.builtIn.forms.prefix(2).allSatisfy { $0.reasons.count == 9 })
        #expect(ReasonCase.all.count == 158)
    }

    @Test(arguments: ReasonCase.all)
    func everyFormAndReasonRoundTrips(_ reasonCase: ReasonCase) throws {
        let original = LinkFixture.contents(formID: reasonCase.formID, reasons: reasonCase.codes)
        let token = try LinkFixture.token(original)
        let result = LinkToken.verify(token, keys: LinkFixture.ring, now: LinkFixture.now)
        #expect(result == .valid(original, keyID: LinkFixture.keyID))
        let contents = try #require(result.contents)
        #expect(contents.identity == LinkFixture.camille)
        #expect(contents.formID == reasonCase.formID)
        #expect(contents.reasons == reasonCase.codes)
        #expect(contents.timeZone == nil)
        #expect(contents.lockReasons == false)
        #expect(contents.expiresAt == nil)
        #expect(contents.issuedAt == instant("2020-11-27T17:42:00Z"))
        #expect(contents.id == original.id)
    }

    @Test(arguments: ReasonCase.all)
    func everyOptionRoundTrips(_ reasonCase: ReasonCase) throws {
        let original = LinkFixture.contents(
            formID: reasonCase.formID, reasons: reasonCase.codes.reversed(),
            expiresAt: instant("2021-02-28T23:59:59Z"), timeZone: "America/Martinique", lockReasons: true)
        let result = LinkToken.verify(try LinkFixture.token(original), keys: LinkFixture.ring, now: LinkFixture.now)
        guard case .valid(let contents, let keyID) = result else {
            Issue.record("expected a valid link, got \(result)")
            return
        }
        #expect(keyID == LinkFixture.keyID)
        #expect(contents == original)
        #expect(contents.reasons == Array(reasonCase.codes.reversed()), "order kept as minted")
        #expect(contents.expiresAt == instant("2021-02-28T23:59:00Z"), "expiry to the minute")
        #expect(contents.timeZone == "America/Martinique")
        #expect(contents.lockReasons)
    }

    @Test func timesAreKeptToTheMinuteRoundedDown() throws {
        let original = LinkContents(
            issuedAt: instant("2020-11-27T17:42:59Z").addingTimeInterval(0.999),
            expiresAt: instant("2020-12-01T00:00:01Z"), formID: LinkFixture.defaultFormID,
            identity: LinkFixture.camille, reasons: ["sante"])
        #expect(original.issuedAt == instant("2020-11-27T17:42:00Z"))
        #expect(original.expiresAt == instant("2020-12-01T00:00:00Z"))
        let contents = try #require(
            LinkToken.verify(try LinkFixture.token(original), keys: LinkFixture.ring, now: LinkFixture.now).contents)
        #expect(contents.issuedAt == instant("2020-11-27T17:42:00Z"))
        #expect(contents.expiresAt == instant("2020-12-01T00:00:00Z"))
    }

    @Test func aLinkWithoutReasonsRoundTrips() throws {
        let original = LinkFixture.contents(reasons: [])
        let result = LinkToken.verify(try LinkFixture.token(original), keys: LinkFixture.ring, now: LinkFixture.now)
        #expect(result == .valid(original, keyID: LinkFixture.keyID))
    }

    @Test func signingIsDeterministicAndLinkIDsMakeTokensDiffer() throws {
        let contents = LinkFixture.contents()
        #expect(try LinkFixture.token(contents) == LinkFixture.token(contents), "Ed25519 is deterministic")
        let other = LinkFixture.contents()
        #expect(other.id != contents.id)
        #expect(try LinkFixture.token(other) != LinkFixture.token(contents))
    }

    @Test func tokenIsCanonicalBase64URL() throws {
        let token = try LinkFixture.token()
        #expect(token.allSatisfy { base64URLAlphabet.contains($0) })
        #expect(!token.contains("="))
        #expect(Base64URL.encode(try tokenBytes(token)) == token)
    }

    /// The bytes are the documented layout: version, key id, link id, times, flags, form,
    /// person, reasons, zone, then the 64-byte signature of all of it.
    @Test func wireFormatIsTheDocumentedLayout() throws {
        let plain = LinkFixture.contents()
        #expect(try payload(of: LinkFixture.token(plain)) == WirePayload(plain, keyID: LinkFixture.keyID).bytes)
        let full = LinkFixture.contents(
            reasons: ["sante", "travail"], expiresAt: instant("2021-01-01T00:00:00Z"), timeZone: "Pacific/Noumea",
            lockReasons: true)
        let bytes = try payload(of: LinkFixture.token(full))
        #expect(bytes == WirePayload(full, keyID: LinkFixture.keyID).bytes)
        #expect(bytes.first == 1, "version 1")
        #expect(Array(bytes[1...12]) == [11] + Array("cle-2020-11".utf8), "key id, outside the body")
        #expect(Array(bytes[13..<25]) == full.id.bytes)
        #expect(try tokenBytes(LinkFixture.token(full)).count == bytes.count + 64)
    }

    @Test func theSignatureVerifiesWithThePublicKey() throws {
        let token = try LinkFixture.token()
        let bytes = try tokenBytes(token)
        let signed = bytes.dropLast(64)
        let signature = bytes.suffix(64)
        #expect(LinkFixture.key.verificationKey.isValidSignature(signature, of: signed))
        #expect(!LinkFixture.key.verificationKey.isValidSignature(signature, of: signed.dropLast()))
    }

    @Test func wireVarintsAreLEB128() {
        var writer = ByteWriter()
        writer.varint(0)
        writer.varint(127)
        writer.varint(128)
        writer.varint(300)
        writer.varint(UInt64(Int64.max))
        #expect(Array(writer.bytes.prefix(6)) == [0x00, 0x7F, 0x80, 0x01, 0xAC, 0x02])
        var reader = ByteReader(writer.bytes[...])
        #expect(reader.varint() == 0)
        #expect(reader.varint() == 127)
        #expect(reader.varint() == 128)
        #expect(reader.varint() == 300)
        #expect(reader.varint() == UInt64(Int64.max))
        #expect(reader.isAtEnd)
    }

    @Test func wireReaderRefusesOddInput() {
        var overlong = ByteReader([0x80, 0x00][...])
        #expect(overlong.varint() == nil, "a non-shortest varint has a second form")
        var truncated = ByteReader([0x80][...])
        #expect(truncated.varint() == nil)
        var tooBig = ByteReader([UInt8](repeating: 0xFF, count: 9)[...] + [0x01])
        #expect(tooBig.varint() == nil, "more than 63 bits")
        var longString = ByteReader([5, 0x61, 0x62][...])
        #expect(longString.string() == nil, "length past the end")
        var capped = ByteReader([3, 0x61, 0x62, 0x63][...])
        #expect(capped.string(maxBytes: 2) == nil)
        var badUTF8 = ByteReader([2, 0xC3, 0x28][...])
        #expect(badUTF8.string() == nil)
        var empty = ByteReader([][...])
        #expect(empty.byte() == nil)
        #expect(empty.raw(1) == nil)
        #expect(empty.raw(-1) == nil)
        var slice = ByteReader([9, 9, 2, 0x68, 0x69][2...])
        #expect(slice.string() == "hi", "a slice reads from its own start index")
        #expect(slice.isAtEnd)
    }
}
