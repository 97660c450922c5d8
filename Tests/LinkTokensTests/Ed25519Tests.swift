import Foundation
import Testing

@testable import LinkTokens

/// The signatures Nettle makes and accepts, against RFC 8032's own examples (section 7.1), so
/// that a link signed by any Ed25519 implementation, swift-crypto's before, checks the same.
@Suite("Ed25519")
struct Ed25519Tests {
    struct Vector: Sendable, CustomTestStringConvertible {
        let seed: String, publicKey: String, message: String, signature: String
        var testDescription: String { "RFC 8032 message of \(message.count / 2) bytes" }
    }

    static let vectors = [
        Vector(
            seed: "9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60",
            publicKey: "d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a", message: "",
            signature: "e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e065224901555"
                + "fb8821590a33bacc61e39701cf9b46bd25bf5f0595bbe24655141438e7a100b"
        ),
        Vector(
            seed: "4ccd089b28ff96da9db6c346ec114e0f5b8a319f35aba624da8cf6ed4fb8a6fb",
            publicKey: "3d4017c3e843895a92b70aa74d1b7ebc9c982ccf2ec4968cc0cd55f12af4660c", message: "72",
            signature: "92a009a9f0d4cab8720e820b5f642540a2b27b5416503f8fb3762223ebdb69da0"
                + "85ac1e43e15996e458f3613d0f11d8c387b2eaeb4302aeeb00d291612bb0c00"
        ),
    ]

    static func bytes(_ hex: String) -> [UInt8] {
        var bytes: [UInt8] = []
        var index = hex.startIndex
        while index < hex.endIndex {
            let next = hex.index(index, offsetBy: 2)
            bytes.append(UInt8(hex[index..<next], radix: 16)!)
            index = next
        }
        return bytes
    }

    @Test(arguments: vectors)
    func theRFCsKeysAndSignaturesAreMadeAndAccepted(_ vector: Vector) {
        let seed = Self.bytes(vector.seed)
        let message = Self.bytes(vector.message)
        let publicKey = Ed25519.publicKey(seed: seed)
        #expect(publicKey == Self.bytes(vector.publicKey))
        let signature = Ed25519.signature(of: message, seed: seed, publicKey: publicKey)
        #expect(signature == Self.bytes(vector.signature))
        #expect(Ed25519.isValid(signature, of: message, publicKey: publicKey))
    }

    @Test(arguments: vectors)
    func aSignatureChangedInOneBitOrForAnotherMessageIsRefused(_ vector: Vector) {
        let publicKey = Self.bytes(vector.publicKey)
        let signature = Self.bytes(vector.signature)
        let message = Self.bytes(vector.message)
        for bit in [0, 7, 255, 256, 511] {
            var changed = signature
            changed[bit / 8] ^= 1 << (bit % 8)
            #expect(!Ed25519.isValid(changed, of: message, publicKey: publicKey), "bit \(bit)")
        }
        #expect(!Ed25519.isValid(signature, of: message + [0], publicKey: publicKey))
        #expect(!Ed25519.isValid(signature.dropLast(), of: message, publicKey: publicKey))
        #expect(!Ed25519.isValid(signature, of: message, publicKey: Array(publicKey.dropLast())))
    }

    /// The same signature with S + L in place of S (L the order of the group) checks the same
    /// equation: accepting it would let anyone write a second token for a link, with another
    /// text but the same contents, as RFC 8032 (5.1.7) and BoringSSL refuse.
    @Test(arguments: vectors)
    func aSignatureWhoseScalarIsNotReducedIsRefused(_ vector: Vector) {
        let order = Self.bytes("edd3f55c1a631258d69cf7a2def9de1400000000000000000000000000000010")  // L, little-endian
        var signature = Self.bytes(vector.signature)
        var carry = 0
        for index in 0..<32 {
            let sum = Int(signature[32 + index]) + Int(order[index]) + carry
            signature[32 + index] = UInt8(sum & 0xff)
            carry = sum >> 8
        }
        #expect(carry == 0)
        #expect(
            !Ed25519.isValid(signature, of: Self.bytes(vector.message), publicKey: Self.bytes(vector.publicKey)))
    }
}
