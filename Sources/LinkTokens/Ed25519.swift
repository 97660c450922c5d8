import CNettle

/// Ed25519 (RFC 8032) signatures, from Nettle's libhogweed.
///
/// Written over Nettle's three functions rather than taken from swift-crypto, which compiled
/// BoringSSL (359 C files) into every build for them: the `Crypto` target alone took 235 s of
/// CPU in a release build on this 2-core machine, and `make test` builds four times. Nettle is
/// already linked through GnuTLS, libmicrohttpd's TLS. Signatures are deterministic (RFC 8032),
/// the same bytes as swift-crypto's: the links minted before verify unchanged.
enum Ed25519 {
    /// A private key is its 32-byte seed, as RFC 8032 and the key files hold it.
    static let seedLength = Int(ED25519_KEY_SIZE)
    static let publicKeyLength = Int(ED25519_KEY_SIZE)
    static let signatureLength = Int(ED25519_SIGNATURE_SIZE)

    /// A new seed from the system's random source (getrandom(2)).
    static func newSeed() -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        return (0..<seedLength).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
    }

    /// The public key of a seed of `seedLength` bytes.
    static func publicKey(seed: [UInt8]) -> [UInt8] {
        precondition(seed.count == seedLength)
        var key = [UInt8](repeating: 0, count: publicKeyLength)
        nettle_ed25519_sha512_public_key(&key, seed)
        return key
    }

    static func signature(of message: [UInt8], seed: [UInt8], publicKey: [UInt8]) -> [UInt8] {
        precondition(seed.count == seedLength && publicKey.count == publicKeyLength)
        var signature = [UInt8](repeating: 0, count: signatureLength)
        message.withUnsafeBufferPointer { bytes in
            nettle_ed25519_sha512_sign(publicKey, seed, bytes.count, bytes.baseAddress, &signature)
        }
        return signature
    }

    /// Whether `signature` is the key's over `message`; a key or signature of another length
    /// is not.
    static func isValid<Message: Collection<UInt8>, Signature: Collection<UInt8>>(
        _ signature: Signature, of message: Message, publicKey: [UInt8]
    ) -> Bool {
        let signature = [UInt8](signature)
        let message = [UInt8](message)
        guard signature.count == signatureLength, publicKey.count == publicKeyLength else { return false }
        return message.withUnsafeBufferPointer { bytes in
            nettle_ed25519_sha512_verify(publicKey, bytes.count, bytes.baseAddress, signature) == 1
        }
    }

    /// Whether a public key may be trusted: a canonical encoding (its y below p = 2^255 − 19)
    /// of a point not of small order. Nettle verifies RFC 8032's equation with any point it can
    /// decode, and a small-order key verifies forgeries: trusting the identity (`AQAA…AA=`)
    /// accepted every forged token tried, and 32 zero bytes 5 of 24 (R the identity, S = 0;
    /// issue 38).
    ///
    /// The eight points of order 1, 2, 4 and 8 have five y coordinates, each with either sign
    /// bit (the x = 0 points' other sign is their non-canonical encoding): libsodium's
    /// `ge25519_has_small_order` list, checked here by computing the order-8 points from the
    /// curve equation (y² = −x², d·x⁴ − 2x² − 1 = 0). A key that decodes to no point verifies
    /// nothing (Nettle refuses it at every signature), so it is no forgery risk.
    static func isTrustworthyPublicKey(_ key: [UInt8]) -> Bool {
        guard key.count == publicKeyLength else { return false }
        var y = key
        y[31] &= 0x7F
        // y ≥ p: 0x7FFF…FFED to 0x7FFF…FFFF, which encode p to p + 18 (0 to 18 again).
        if y[31] == 0x7F, y[1..<31].allSatisfy({ $0 == 0xFF }), y[0] >= 0xED { return false }
        return !smallOrderY.contains(y)
    }

    /// The y coordinates of the points of small order, little-endian, sign bit clear: 0 (order
    /// 4), 1 (the identity), the two of order 8, and p − 1 (order 2).
    static let smallOrderY: [[UInt8]] = [
        [UInt8](repeating: 0, count: 32),
        [1] + [UInt8](repeating: 0, count: 31),
        [
            0x26, 0xE8, 0x95, 0x8F, 0xC2, 0xB2, 0x27, 0xB0, 0x45, 0xC3, 0xF4, 0x89, 0xF2, 0xEF, 0x98, 0xF0,
            0xD5, 0xDF, 0xAC, 0x05, 0xD3, 0xC6, 0x33, 0x39, 0xB1, 0x38, 0x02, 0x88, 0x6D, 0x53, 0xFC, 0x05,
        ],
        [
            0xC7, 0x17, 0x6A, 0x70, 0x3D, 0x4D, 0xD8, 0x4F, 0xBA, 0x3C, 0x0B, 0x76, 0x0D, 0x10, 0x67, 0x0F,
            0x2A, 0x20, 0x53, 0xFA, 0x2C, 0x39, 0xCC, 0xC6, 0x4E, 0xC7, 0xFD, 0x77, 0x92, 0xAC, 0x03, 0x7A,
        ],
        [0xEC] + [UInt8](repeating: 0xFF, count: 30) + [0x7F],
    ]
}
