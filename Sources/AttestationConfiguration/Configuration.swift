import AttestationKit
import Foundation
import LinkTokens

/// `config.json`, as written by `attestation-admin init` and read by the server and the CLI.
/// Relative paths are relative to the directory of the configuration file.
public struct Configuration: Codable, Sendable {
    /// The public address of the service, the start of every minted link.
    public var baseURL: String
    /// The public keys links may be signed with; removing one ends its links.
    public var keys: [PublicKeyEntry]
    /// The administrator's private key file, used by `mint`; the server never reads it.
    public var signingKey: String?
    /// The revocation list: one link id per line.
    public var revocationList: String
    /// A directory of extra form definitions (`*.json`); absent or missing means none.
    public var formsDirectory: String?
    /// Accepted `offset` values, in minutes from now.
    public var offsetBounds: OffsetBounds?
    /// How `attestation-server` listens; absent means every default of `ServerSettings`.
    public var server: ServerSettings?

    public struct PublicKeyEntry: Codable, Sendable, Equatable {
        public var id: String
        public var publicKey: String

        public init(id: String, publicKey: String) {
            self.id = id
            self.publicKey = publicKey
        }
    }

    public init(baseURL: String, keys: [PublicKeyEntry], signingKey: String?, revocationList: String,
                formsDirectory: String?, offsetBounds: OffsetBounds?, server: ServerSettings? = nil) {
        self.baseURL = baseURL
        self.keys = keys
        self.signingKey = signingKey
        self.revocationList = revocationList
        self.formsDirectory = formsDirectory
        self.offsetBounds = offsetBounds
        self.server = server
    }

    /// Pretty, stable JSON for the file.
    public var fileContents: Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return ((try? encoder.encode(self)) ?? Data()) + Data("\n".utf8)
    }

    /// Decodes strictly: unknown keys and bad values are errors naming their JSON path.
    public static func decode(_ data: Data, source: String) throws(ConfigurationError) -> Configuration {
        let configuration: Configuration
        do {
            configuration = try StrictJSON.decode(Configuration.self, from: data)
        } catch {
            throw ConfigurationError(source: source, path: error.path, message: error.message)
        }
        guard let url = URL(string: configuration.baseURL), ["http", "https"].contains(url.scheme ?? ""), url.host != nil,
              url.query == nil, url.fragment == nil else {
            throw ConfigurationError(source: source, path: "baseURL", message: "URL http(s) sans requête attendue, par exemple https://attestation.example.org.")
        }
        if let server = configuration.server {
            do { try server.validate() } catch {
                throw ConfigurationError(source: source, path: "server.\(error.path)", message: error.message)
            }
        }
        return configuration
    }
}

/// A configuration file that cannot be used, with the JSON path of the problem.
public struct ConfigurationError: Error, Sendable, Equatable, CustomStringConvertible {
    public let source: String
    public let path: String
    public let message: String

    public init(source: String, path: String, message: String) {
        self.source = source
        self.path = path
        self.message = message
    }

    public var description: String { path.isEmpty ? "\(source) : \(message)" : "\(source), \(path) : \(message)" }
}

/// What a configuration file points to, loaded and checked: keys, revocation list, forms.
/// Built whole or not at all, so a bad reload leaves the previous state in force.
public struct ServiceState: Sendable {
    public let configuration: Configuration
    /// The configuration file, from which relative paths are resolved.
    public let configurationFile: URL
    public let keys: KeyRing
    public let revoked: RevocationList
    public let catalog: FormCatalog
    public let bounds: OffsetBounds

    public static func load(configurationFile: URL) throws(ConfigurationError) -> ServiceState {
        let source = configurationFile.path
        guard let data = try? Data(contentsOf: configurationFile) else {
            throw ConfigurationError(source: source, path: "", message: "fichier introuvable ou illisible ; créez-le avec « attestation-admin init ».")
        }
        let configuration = try Configuration.decode(data, source: source)
        var keys: [VerificationKey] = []
        for (index, entry) in configuration.keys.enumerated() {
            do {
                keys.append(try VerificationKey(id: entry.id, base64: entry.publicKey))
            } catch {
                throw ConfigurationError(source: source, path: "keys[\(index)]", message: error.description)
            }
        }
        let ring: KeyRing
        do { ring = try KeyRing(keys) } catch { throw ConfigurationError(source: source, path: "keys", message: error.description) }

        let directory = configurationFile.deletingLastPathComponent()
        let revocationFile = resolve(configuration.revocationList, against: directory)
        let revoked: RevocationList
        if let text = try? String(contentsOf: revocationFile, encoding: .utf8) {
            do { revoked = try RevocationList(parsing: text) } catch {
                throw ConfigurationError(source: revocationFile.path, path: "", message: error.description)
            }
        } else if FileManager.default.fileExists(atPath: revocationFile.path) {
            throw ConfigurationError(source: revocationFile.path, path: "", message: "liste de révocation illisible.")
        } else {
            revoked = .empty
        }

        var catalog = FormCatalog.builtIn
        if let formsDirectory = configuration.formsDirectory {
            try FormFiles.load(from: resolve(formsDirectory, against: directory), into: &catalog)
        }
        return ServiceState(configuration: configuration, configurationFile: configurationFile, keys: ring,
                            revoked: revoked, catalog: catalog, bounds: configuration.offsetBounds ?? .standard)
    }

    /// The absolute location of a path the configuration names.
    public func resolve(_ path: String) -> URL { Self.resolve(path, against: configurationFile.deletingLastPathComponent()) }

    static func resolve(_ path: String, against directory: URL) -> URL {
        path.hasPrefix("/") ? URL(fileURLWithPath: path) : directory.appendingPathComponent(path)
    }
}

/// Extra forms: every `*.json` of a directory, in name order. A missing directory adds none.
public enum FormFiles {
    public static func load(from directory: URL, into catalog: inout FormCatalog) throws(ConfigurationError) {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory.path, isDirectory: &isDirectory) else { return }
        guard isDirectory.boolValue, let names = try? FileManager.default.contentsOfDirectory(atPath: directory.path) else {
            throw ConfigurationError(source: directory.path, path: "", message: "dossier de formulaires illisible.")
        }
        for name in names.filter({ $0.hasSuffix(".json") }).sorted() {
            let file = directory.appendingPathComponent(name)
            guard let data = try? Data(contentsOf: file) else {
                throw ConfigurationError(source: file.path, path: "", message: "fichier illisible.")
            }
            do {
                try catalog.add(json: data, source: file.path)
            } catch {
                throw ConfigurationError(source: error.source, path: error.path, message: error.message)
            }
        }
    }
}
