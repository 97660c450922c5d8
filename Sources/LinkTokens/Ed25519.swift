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
}
