import Foundation
import TestSupport
import Testing

@testable import LinkTokens

/// A configuration trusting a public key of small order accepted forged links: the identity
/// (`AQAA…AA=`) every forged token tried, 32 zero bytes 5 of 24 (issue 38). Such keys, and
/// non-canonical encodings, are refused at load naming the key; RFC 8032's own keys still load
/// and verify their signatures.
@Suite struct WeakPublicKeyTests {
    /// Hex to bytes, as the Ed25519 vectors are written.
    static func bytes(_ hex: String) -> [UInt8] { Ed25519Tests.bytes(hex) }

    /// RFC 8032, section 7.1: TEST 1, 2 and 3 (public key, message, signature).
    static let rfc8032: [(key: String, message: String, signature: String)] = [
        (
            "d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a", "",
            "e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e065224901555fb8821590a33bacc61e39701cf9b46bd25bf5f0595bbe24655141438e7a100b"
        ),
        (
            "3d4017c3e843895a92b70aa74d1b7ebc9c982ccf2ec4968cc0cd55f12af4660c", "72",
            "92a009a9f0d4cab8720e820b5f642540a2b27b5416503f8fb3762223ebdb69da085ac1e43e15996e458f3613d0f11d8c387b2eaeb4302aeeb00d291612bb0c00"
        ),
        (
            "fc51cd8e6218a1a38da47ed00230f0580816ed13ba3303ac5deb911548908025", "af82",
            "6291d657deec24024827e69c3abe01a30ce548a284743a445e3680d7db5ac3ac18ff9b538d16f290ae67f760984dc6594a7c15e9716ed28dc027beceea1ec40a"
        ),
    ]

    @Test func theKeysOfRFC8032LoadAndVerifyTheirSignatures() throws {
        for vector in Self.rfc8032 {
            let base64 = Data(Self.bytes(vector.key)).base64EncodedString()
            let key = try VerificationKey(id: "rfc8032", base64: base64)
            #expect(key.isValidSignature(Self.bytes(vector.signature)[...], of: Self.bytes(vector.message)[...]))
        }
    }

    /// The five y coordinates of the eight points of small order, each with both sign bits, and
    /// the non-canonical encodings of 0, 1 and 2 (y = p, p + 1, p + 2).
    static var weakKeys: [[UInt8]] {
        var keys: [[UInt8]] = []
        for y in Ed25519.smallOrderY {
            keys.append(y)
            keys.append(y.prefix(31) + [y[31] | 0x80])
        }
        for low: UInt8 in [0xED, 0xEE, 0xEF, 0xFF] {
            keys.append([low] + [UInt8](repeating: 0xFF, count: 30) + [0x7F])
        }
        return keys
    }

    @Test func everyKeyOfSmallOrderOrNotCanonicalIsRefusedNamingIt() {
        #expect(Self.weakKeys.count == 14)
        for raw in Self.weakKeys {
            let base64 = Data(raw).base64EncodedString()
            #expect(throws: KeyError.weakPublicKey(id: "cle-faible")) {
                try VerificationKey(id: "cle-faible", base64: base64)
            }
        }
        #expect(KeyError.weakPublicKey(id: "cle-faible").description.contains("« cle-faible » refusée"))
    }

    /// Why: Nettle checks RFC 8032's equation with any key it decodes. With the identity as the
    /// key, R the identity and S = 0 hold for every message.
    @Test func nettleWouldAcceptAForgeryUnderTheIdentityKey() {
        let identity = [UInt8(1)] + [UInt8](repeating: 0, count: 31)
        let forged = identity + [UInt8](repeating: 0, count: 32)
        #expect(Ed25519.isValid(forged, of: Array("n’importe quel lien".utf8), publicKey: identity))
        #expect(!Ed25519.isTrustworthyPublicKey(identity))
    }

    @Test func generatedKeysAreTrustworthy() throws {
        for _ in 0..<64 {
            let key = try SigningKey.generate(id: "k")
            #expect(try VerificationKey(id: "k", base64: key.verificationKey.base64) == key.verificationKey)
        }
    }
}
