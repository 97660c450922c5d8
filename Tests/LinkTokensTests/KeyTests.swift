import Foundation
import TestSupport
import Testing

@testable import LinkTokens

@Suite("Keys")
struct KeyTests {
    @Test func keyFileRoundTrips() throws {
        let key = try SigningKey.generate(id: "admin.2020-11_a")
        let file = key.fileContents
        let text = String(decoding: file, as: UTF8.self)
        #expect(text.contains("\"keyId\" : \"admin.2020-11_a\""))
        #expect(text.contains("attestation-links ed25519 private key v1"))
        #expect(text.hasSuffix("\n"))
        let read = try SigningKey(fileContents: file)
        #expect(read.id == key.id)
        #expect(read.verificationKey == key.verificationKey)
        #expect(read.fileContents == file)
        // The key read back signs exactly as the original (Ed25519 is deterministic).
        let contents = LinkFixture.contents()
        #expect(try LinkToken.sign(contents, with: read) == LinkToken.sign(contents, with: key))
        let ring = try KeyRing([key.verificationKey])
        #expect(
            LinkToken.verify(try LinkToken.sign(contents, with: read), keys: ring, now: LinkFixture.now)
                == .valid(contents, keyID: "admin.2020-11_a"))
    }

    @Test func generatedKeysDiffer() throws {
        let one = try SigningKey.generate(id: "k")
        let two = try SigningKey.generate(id: "k")
        #expect(one.verificationKey != two.verificationKey)
        #expect(one.fileContents != two.fileContents)
    }

    @Test(arguments: [
        "", "garbage", "{}", "[]", "null",
        #"{"format":"attestation-links ed25519 private key v1","keyId":"k"}"#,
        #"{"format":"attestation-links ed25519 private key v2","keyId":"k","privateKey":"AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA="}"#,
        #"{"format":"attestation-links ed25519 private key v1","keyId":"k","privateKey":"not base64!"}"#,
        #"{"format":"attestation-links ed25519 private key v1","keyId":"k","privateKey":"AAAA"}"#,
        #"{"format":"attestation-links ed25519 private key v1","keyId":"k","privateKey":"AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"}"#,
        #"{"format":"attestation-links ed25519 private key v1","keyId":7,"privateKey":"AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA="}"#,
    ])
    func garbageKeyFileIsUnreadable(text: String) {
        #expect(throws: KeyError.unreadablePrivateKey) { try SigningKey(fileContents: Data(text.utf8)) }
    }

    @Test func keyFileWithInvalidIDIsRefused() {
        let text =
            #"{"format":"attestation-links ed25519 private key v1","keyId":"a b","privateKey":"AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA="}"#
        #expect(throws: KeyError.invalidKeyID("a b")) { try SigningKey(fileContents: Data(text.utf8)) }
    }

    @Test func validKeyFileWrittenByHand() throws {
        let text =
            #"{"format":"attestation-links ed25519 private key v1","keyId":"k1","privateKey":"AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA="}"#
        let key = try SigningKey(fileContents: Data(text.utf8))
        #expect(key.id == "k1")
        // RFC 8032 test vector 1 has another seed; the all-zero seed gives this well-known public key.
        #expect(key.verificationKey.base64 == "O2onvM62pC1io6jQKm8Nc2UyFXcd4kOmOsBIoYtZ2ik=")
    }

    static let invalidIDs = [
        "", String(repeating: "a", count: 33), "a b", "é", "clé", "a/b", "a+b", "k\n", " k", "k#1",
    ]

    @Test(arguments: invalidIDs)
    func invalidKeyIDsAreRefused(id: String) throws {
        #expect(throws: KeyError.invalidKeyID(id)) { try SigningKey.generate(id: id) }
        let publicKey = try SigningKey.generate(id: "k").verificationKey.base64
        #expect(throws: KeyError.invalidKeyID(id)) { try VerificationKey(id: id, base64: publicKey) }
    }

    @Test(arguments: ["a", "A", "0", ".", "_", "-", String(repeating: "z", count: 32), "cle-2020.11_B"])
    func validKeyIDsAreAccepted(id: String) throws {
        let key = try SigningKey.generate(id: id)
        #expect(key.id == id)
        let ring = try KeyRing([key.verificationKey])
        let contents = LinkFixture.contents()
        #expect(
            LinkToken.verify(try LinkToken.sign(contents, with: key), keys: ring, now: LinkFixture.now)
                == .valid(contents, keyID: id))
    }

    @Test func verificationKeyFromBase64() throws {
        let key = try SigningKey.generate(id: "k")
        let base64 = key.verificationKey.base64
        #expect(Data(base64Encoded: base64)?.count == 32)
        let read = try VerificationKey(id: "k", base64: base64)
        #expect(read == key.verificationKey)
        #expect(read.id == "k")
    }

    @Test(arguments: [
        "", "not base64", "AAAA", String(repeating: "A", count: 42) + "==",  // 31 bytes
        String(repeating: "A", count: 44),  // 33 bytes
        String(repeating: "A", count: 88),  // 66 bytes
        "O2onvM62pC1io6jQKm8Nc2UyFXcd4kOmOsBIoYtZ2ik",  // no padding
        "O2onvM62pC1io6jQKm8Nc2UyFXcd4kOmOsBIoYtZ2ik=\n",
    ])
    func badPublicKeyIsRefused(base64: String) {
        #expect(throws: KeyError.invalidPublicKey(id: "k")) { try VerificationKey(id: "k", base64: base64) }
    }

    @Test func keyRingRefusesDuplicateIDs() throws {
        let one = try SigningKey.generate(id: "k").verificationKey
        let two = try SigningKey.generate(id: "k").verificationKey
        let other = try SigningKey.generate(id: "j").verificationKey
        #expect(throws: KeyError.duplicateKeyID("k")) { try KeyRing([one, other, two]) }
        #expect(throws: KeyError.duplicateKeyID("k")) { try KeyRing([one, one]) }
        let ring = try KeyRing([one, other])
        #expect(ring.keys == ["k": one, "j": other])
        #expect(try KeyRing([]).keys.isEmpty)
    }

    @Test func keyErrorsHaveFrenchMessages() {
        #expect(KeyError.invalidKeyID("x").description.contains("1 à 32 caractères"))
        #expect(KeyError.invalidPublicKey(id: "k1").description.contains("« k1 »"))
        #expect(KeyError.duplicateKeyID("k1").description.contains("« k1 » en double"))
        #expect(KeyError.unreadablePrivateKey.description.contains("illisible"))
    }
}
