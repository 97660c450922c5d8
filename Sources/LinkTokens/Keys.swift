import Crypto
import Foundation

/// The administrator's private key: it signs links. It never goes to the server.
public struct SigningKey: Sendable {
    public let id: String
    /// The raw key: swift-crypto's key types are not Sendable; rebuilding one from 32 bytes is cheap.
    private let raw: [UInt8]

    var key: Curve25519.Signing.PrivateKey { try! Curve25519.Signing.PrivateKey(rawRepresentation: raw) }

    /// A new Ed25519 key pair.
    public static func generate(id: String) throws(KeyError) -> SigningKey {
        try KeyID.check(id)
        return SigningKey(id: id, key: Curve25519.Signing.PrivateKey())
    }

    init(id: String, key: Curve25519.Signing.PrivateKey) {
        self.id = id
        raw = [UInt8](key.rawRepresentation)
    }

    /// The public half, for the server's key ring.
    public var verificationKey: VerificationKey { VerificationKey(id: id, key: key.publicKey) }

    /// The key file: a small JSON document holding the id and the raw private key in base64.
    public var fileContents: Data {
        let file = KeyFile(format: KeyFile.format, keyId: id, privateKey: key.rawRepresentation.base64EncodedString())
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        return (try? encoder.encode(file)).map { $0 + Data("\n".utf8) } ?? Data()
    }

    /// Reads a key file written by `fileContents`.
    public init(fileContents: Data) throws(KeyError) {
        guard let file = try? JSONDecoder().decode(KeyFile.self, from: fileContents), file.format == KeyFile.format,
            let raw = Data(base64Encoded: file.privateKey),
            let key = try? Curve25519.Signing.PrivateKey(rawRepresentation: raw)
        else {
            throw .unreadablePrivateKey
        }
        try KeyID.check(file.keyId)
        self.init(id: file.keyId, key: key)
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

    var key: Curve25519.Signing.PublicKey { try! Curve25519.Signing.PublicKey(rawRepresentation: raw) }

    init(id: String, key: Curve25519.Signing.PublicKey) {
        self.id = id
        raw = [UInt8](key.rawRepresentation)
    }

    /// From the configuration: the id and the raw public key in base64.
    public init(id: String, base64: String) throws(KeyError) {
        try KeyID.check(id)
        guard let raw = Data(base64Encoded: base64), let key = try? Curve25519.Signing.PublicKey(rawRepresentation: raw)
        else {
            throw .invalidPublicKey(id: id)
        }
        self.init(id: id, key: key)
    }

    /// The raw public key in base64, as the configuration holds it.
    public var base64: String { Data(raw).base64EncodedString() }
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
    case duplicateKeyID(String)
    case unreadablePrivateKey

    public var description: String {
        switch self {
        case .invalidKeyID:
            return "identifiant de clé invalide ; 1 à 32 caractères parmi A-Z a-z 0-9 . _ - attendus."
        case .invalidPublicKey(let id):
            return "clé publique « \(id) » invalide ; 32 octets Ed25519 en base64 attendus."
        case .duplicateKeyID(let id):
            return "identifiant de clé « \(id) » en double ; chaque clé doit avoir le sien."
        case .unreadablePrivateKey:
            return
                "fichier de clé privée illisible ; un fichier écrit par attestation-admin init ou keygen est attendu."
        }
    }
}
