import Foundation

/// The administrator's private key: it signs links. It never goes to the server.
public struct SigningKey: Sendable {
    public let id: String
    /// The Ed25519 seed (32 bytes), and its public key, computed once.
    private let seed: [UInt8]
    private let publicKey: [UInt8]

    /// A new Ed25519 key pair.
    public static func generate(id: String) throws(KeyError) -> SigningKey {
        try KeyID.check(id)
        return SigningKey(id: id, seed: Ed25519.newSeed())
    }

    init(id: String, seed: [UInt8]) {
        self.id = id
        self.seed = seed
        publicKey = Ed25519.publicKey(seed: seed)
    }

    /// The public half, for the server's key ring.
    public var verificationKey: VerificationKey { VerificationKey(id: id, raw: publicKey) }

    /// The Ed25519 signature of `message`. Links are signed by `LinkToken.sign`; this is open to
    /// the package only for the fuzzer and the tests, which sign payloads it would never write.
    package func signature(of message: [UInt8]) -> [UInt8] {
        Ed25519.signature(of: message, seed: seed, publicKey: publicKey)
    }

    /// The key file: a small JSON document holding the id and the raw private key in base64.
    public var fileContents: Data {
        let file = KeyFile(format: KeyFile.format, keyId: id, privateKey: Data(seed).base64EncodedString())
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        return (try? encoder.encode(file)).map { $0 + Data("\n".utf8) } ?? Data()
    }

    /// Reads a key file written by `fileContents`.
    public init(fileContents: Data) throws(KeyError) {
        guard let file = try? JSONDecoder().decode(KeyFile.self, from: fileContents), file.format == KeyFile.format,
            let raw = Data(base64Encoded: file.privateKey), raw.count == Ed25519.seedLength
        else {
            throw .unreadablePrivateKey
        }
        try KeyID.check(file.keyId)
        self.init(id: file.keyId, seed: [UInt8](raw))
    }

    private struct KeyFile: Codable {
        static let format = "attestation-links ed25519 private key v1"
        let format: String
        let keyId: String
        let privateKey: String
    }
}

/// A public key with the id links name it by.
public struct VerificationKey: Sendable, Hashable {
    public let id: String
    private let raw: [UInt8]

    init(id: String, raw: [UInt8]) {
        self.id = id
        self.raw = raw
    }

    /// From the configuration: the id and the raw public key in base64.
    public init(id: String, base64: String) throws(KeyError) {
        try KeyID.check(id)
        guard let raw = Data(base64Encoded: base64), raw.count == Ed25519.publicKeyLength else {
            throw .invalidPublicKey(id: id)
        }
        guard Ed25519.isTrustworthyPublicKey([UInt8](raw)) else { throw .weakPublicKey(id: id) }
        self.init(id: id, raw: [UInt8](raw))
    }

    /// The raw public key in base64, as the configuration holds it.
    public var base64: String { Data(raw).base64EncodedString() }

    /// Whether `signature` is this key's over `message`.
    func isValidSignature(_ signature: ArraySlice<UInt8>, of message: ArraySlice<UInt8>) -> Bool {
        Ed25519.isValid(signature, of: message, publicKey: raw)
    }
}

/// The public keys a server accepts, by id. Removing a key ends every link it signed.
public struct KeyRing: Sendable {
    public let keys: [String: VerificationKey]

    public init(_ keys: [VerificationKey]) throws(KeyError) {
        var byID: [String: VerificationKey] = [:]
        for key in keys {
            guard byID.updateValue(key, forKey: key.id) == nil else { throw .duplicateKeyID(key.id) }
        }
        self.keys = byID
    }
}

enum KeyID {
    /// Key ids are short and printable: they travel inside every token.
    static func check(_ id: String) throws(KeyError) {
        guard id.wholeMatch(of: /[A-Za-z0-9._-]{1,32}/) != nil else { throw .invalidKeyID(id) }
    }
}

public enum KeyError: Error, Sendable, Equatable, CustomStringConvertible {
    case invalidKeyID(String)
    case invalidPublicKey(id: String)
    /// A point of small order, or a non-canonical encoding: it would verify forged links.
    case weakPublicKey(id: String)
    case duplicateKeyID(String)
    case unreadablePrivateKey

    public var description: String {
        switch self {
        case .invalidKeyID:
            return "identifiant de clé invalide ; 1 à 32 caractères parmi A-Z a-z 0-9 . _ - attendus."
        case .invalidPublicKey(let id):
            return "clé publique « \(id) » invalide ; 32 octets Ed25519 en base64 attendus."
        case .weakPublicKey(let id):
            return
                "clé publique « \(id) » refusée : point d’ordre faible ou encodage non canonique, qui validerait des liens falsifiés ; une clé publique écrite par attestation-admin init ou keygen est attendue."
        case .duplicateKeyID(let id):
            return "identifiant de clé « \(id) » en double ; chaque clé doit avoir le sien."
        case .unreadablePrivateKey:
            return
                "fichier de clé privée illisible ; un fichier écrit par attestation-admin init ou keygen est attendu."
        }
    }
}
