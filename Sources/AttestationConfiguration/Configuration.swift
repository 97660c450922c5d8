import AttestationKit
import FormSchema
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
    /// The schedule of versions a link that follows the rules prints, each from its start;
    /// absent (or null) means the official calendar, which grows with the built-in forms.
    /// Forms of `formsDirectory` with their own `inForce` join it either way.
    public var calendar: [CalendarEntry]?
    /// Accepted `offset` values, in minutes from now.
    public var offsetBounds: OffsetBounds?
    /// How `attestation-server` listens; absent means every default of `ServerSettings`.
    public var server: ServerSettings?
    /// Who to ask when a link fails (a name, a phone number, an address), shown on the error
    /// pages a browser gets; absent means none is shown.
    public var contact: String?

    /// The longest `contact` accepted: one line on a phone's screen, two at most.
    public static let maximumContactLength = 200

    /// From `from` (Paris time, `2020-12-15T20:00`), the forms `forms` (ids, or the id of a
    /// document with contexts for all its contexts).
    public struct CalendarEntry: Codable, Sendable, Equatable {
        public var from: String
        public var forms: [String]

        public init(from: String, forms: [String]) { (self.from, self.forms) = (from, forms) }
    }

    public struct PublicKeyEntry: Codable, Sendable, Equatable {
        public var id: String
        public var publicKey: String

        public init(id: String, publicKey: String) {
            self.id = id
            self.publicKey = publicKey
        }
    }

    public init(
        baseURL: String, keys: [PublicKeyEntry], signingKey: String?, revocationList: String,
        formsDirectory: String?, offsetBounds: OffsetBounds?, server: ServerSettings? = nil, contact: String? = nil,
        calendar: [CalendarEntry]? = nil
    ) {
        self.calendar = calendar
        self.baseURL = baseURL
        self.keys = keys
        self.signingKey = signingKey
        self.revocationList = revocationList
        self.formsDirectory = formsDirectory
        self.offsetBounds = offsetBounds
        self.server = server
        self.contact = contact
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
        guard let url = URL(string: configuration.baseURL), ["http", "https"].contains(url.scheme ?? ""),
            url.host != nil,
            url.query == nil, url.fragment == nil
        else {
            throw ConfigurationError(
                source: source, path: "baseURL",
                message: "URL http(s) sans requête attendue, par exemple https://attestation.example.org.")
        }
        if let contact = configuration.contact {
            guard !contact.trimmingCharacters(in: .whitespaces).isEmpty, contact.count <= maximumContactLength,
                !contact.unicodeScalars.contains(where: { CharacterSet.controlCharacters.contains($0) })
            else {
                throw ConfigurationError(
                    source: source, path: "contact",
                    message:
                        "une ligne de texte non vide de \(maximumContactLength) caractères au plus est attendue, par exemple « Marie Martin, 06 12 34 56 78 »."
                )
            }
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
    /// The versions in force one after another, for links that follow the rules.
    public let calendar: FormCalendar
    public let bounds: OffsetBounds

    public static func load(configurationFile: URL) throws(ConfigurationError) -> ServiceState {
        let source = configurationFile.path
        let data: [UInt8]
        try Self.checkDirectory(of: configurationFile)
        do { data = try BoundedFile.read(configurationFile, limit: maxConfigurationBytes, ownerWritesOnly: true) } catch
        {
            let message =
                switch error {
                case .writableByOthers(let mode): BoundedFile.writableMessage(configurationFile, mode: mode)
                case .missing: "fichier introuvable ; créez-le avec « attestation-admin init »."
                case .tooLarge(let limit): "fichier trop grand : \(BoundedFile.shownSize(limit)) au plus."
                case .notARegularFile: "ce n’est pas un fichier ordinaire."
                case .unreadable, .empty: "fichier illisible (permissions ?)."
                }
            throw ConfigurationError(source: source, path: "", message: message)
        }
        let configuration = try Configuration.decode(Data(data), source: source)
        var keys: [VerificationKey] = []
        for (index, entry) in configuration.keys.enumerated() {
            do {
                keys.append(try VerificationKey(id: entry.id, base64: entry.publicKey))
            } catch {
                throw ConfigurationError(source: source, path: "keys[\(index)]", message: error.description)
            }
        }
        // No key would refuse every link: a key set emptied by mistake must not load.
        guard !keys.isEmpty else {
            throw ConfigurationError(
                source: source, path: "keys",
                message: "aucune clé publique ; au moins une est attendue "
                    + "(attestation-admin init et keygen l’écrivent). Sans clé, tous les liens seraient refusés.")
        }
        let ring: KeyRing
        do { ring = try KeyRing(keys) } catch {
            throw ConfigurationError(source: source, path: "keys", message: error.description)
        }

        let directory = configurationFile.deletingLastPathComponent()
        let revoked = try loadRevocationList(resolve(configuration.revocationList, against: directory))

        var catalog = FormCatalog.builtIn
        if let formsDirectory = configuration.formsDirectory {
            try FormFiles.load(from: resolve(formsDirectory, against: directory), into: &catalog)
        }
        let calendar = try Self.calendar(configuration.calendar, catalog: catalog, source: source)
        return ServiceState(
            configuration: configuration, configurationFile: configurationFile, keys: ring,
            revoked: revoked, catalog: catalog, calendar: calendar, bounds: configuration.offsetBounds ?? .standard)
    }

    /// The same state with the revocation list read again from its file, now. A reload reads it
    /// last (`ServiceSnapshot.load`): what was written to it while the forms and the site loaded
    /// (a reload takes 0.1 to 0.6 s) is in force with that reload rather than the next one.
    public func rereadingRevocationList() throws(ConfigurationError) -> ServiceState {
        let file = Self.resolve(configuration.revocationList, against: configurationFile.deletingLastPathComponent())
        return ServiceState(
            configuration: configuration, configurationFile: configurationFile, keys: keys,
            revoked: try Self.loadRevocationList(file), catalog: catalog, calendar: calendar, bounds: bounds)
    }

    /// The same state with `ids` revoked too, whatever the revocation list on disk says.
    public func revoking(_ ids: Set<LinkID>) -> ServiceState {
        ServiceState(
            configuration: configuration, configurationFile: configurationFile, keys: keys,
            revoked: RevocationList(ids: revoked.ids.union(ids)), catalog: catalog, calendar: calendar, bounds: bounds)
    }

    /// The official calendar, or the configuration's schedule, with the forms added that carry
    /// their start.
    public static func calendar(
        _ entries: [Configuration.CalendarEntry]?, catalog: FormCatalog, source: String
    ) throws(ConfigurationError) -> FormCalendar {
        var schedule: [FormCalendar.Entry]?
        if let entries {
            schedule = []
            for (index, entry) in entries.enumerated() {
                guard let start = FormCalendar.Entry.start(parsing: entry.from) else {
                    throw ConfigurationError(
                        source: source, path: "calendar[\(index)].from",
                        message:
                            "date invalide « \(entry.from) » ; heure de Paris attendue, AAAA-MM-JJTHH:MM (2020-12-15T20:00)."
                    )
                }
                schedule?.append(FormCalendar.Entry(start: start, forms: entry.forms))
            }
        }
        do { return try FormCalendar(catalog: catalog, schedule: schedule) } catch {
            throw ConfigurationError(source: source, path: error.path, message: error.message)
        }
    }

    /// The configuration file is a few kilobytes; anything far larger is not one.
    public static let maxConfigurationBytes = 1 << 20

    /// The revocation list, which must exist and hold at least a line: a list deleted, emptied
    /// or truncated by mistake would bring every revoked link back, so it never loads.
    static func loadRevocationList(_ file: URL) throws(ConfigurationError) -> RevocationList {
        let bytes: [UInt8]
        do {
            bytes = try BoundedFile.read(
                file, limit: RevocationList.maxFileBytes, allowEmpty: false, ownerWritesOnly: true)
        } catch {
            let message =
                switch error {
                case .writableByOthers(let mode): BoundedFile.writableMessage(file, mode: mode)
                case .missing:
                    "liste de révocation introuvable. Elle est exigée, même sans révocation, pour qu’un fichier supprimé par "
                        + "erreur ne rende pas valides les liens révoqués ; créez-la avec un commentaire (# aucune révocation)."
                case .empty:
                    "liste de révocation vide (0 octet), refusée : un fichier tronqué ressemblerait à une liste sans "
                        + "révocation. Une liste sans révocation contient au moins un commentaire (# aucune révocation)."
                case .tooLarge(let limit): "liste de révocation trop grande : \(BoundedFile.shownSize(limit)) au plus."
                case .notARegularFile: "la liste de révocation n’est pas un fichier ordinaire."
                case .unreadable: "liste de révocation illisible (permissions ?)."
                }
            throw ConfigurationError(source: file.path, path: "", message: message)
        }
        do { return try RevocationList(parsing: bytes) } catch {
            throw ConfigurationError(source: file.path, path: "", message: error.description)
        }
    }

    /// The configuration's folder, where another `config.json` could be put in its place: not
    /// writable by others unless sticky (as /tmp, where only a file's owner may replace it) or
    /// mounted read-only (a Kubernetes ConfigMap's folder is 0777).
    static func checkDirectory(of file: URL) throws(ConfigurationError) {
        var status = stat()
        let directory = file.deletingLastPathComponent()
        guard stat(directory.path, &status) == 0 else { return }
        guard
            status.st_mode & (S_IWGRP | S_IWOTH) == 0 || status.st_mode & S_ISVTX != 0
                || BoundedFile.isOnReadOnlyMount(directory.path)
        else {
            throw ConfigurationError(
                source: file.path, path: "",
                message:
                    "dossier \(directory.path) modifiable par d’autres que son propriétaire (mode \(String(format: "%04o", Int(status.st_mode & 0o7777)))), refusé : on pourrait y remplacer la configuration. Attendu : 0755 ou plus strict (chmod go-w \(directory.path))."
            )
        }
    }

    /// The absolute location of a path the configuration names.
    public func resolve(_ path: String) -> URL {
        Self.resolve(path, against: configurationFile.deletingLastPathComponent())
    }

    static func resolve(_ path: String, against directory: URL) -> URL {
        path.hasPrefix("/") ? URL(fileURLWithPath: path) : directory.appendingPathComponent(path)
    }
}

/// Extra forms: every `*.json` of a directory, in name order. A missing directory adds none.
public enum FormFiles {
    /// A form is a few kilobytes of JSON (the built-in ones: Sources/FormSchema/Forms).
    public static let maxFormBytes = 1 << 20

    public static func load(from directory: URL, into catalog: inout FormCatalog) throws(ConfigurationError) {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory.path, isDirectory: &isDirectory) else { return }
        guard isDirectory.boolValue, let names = try? FileManager.default.contentsOfDirectory(atPath: directory.path)
        else {
            throw ConfigurationError(source: directory.path, path: "", message: "dossier de formulaires illisible.")
        }
        // Hidden names are left out: Kubernetes keeps its own entries (`..data`) in a mounted directory.
        for name in names.filter({ $0.hasSuffix(".json") && !$0.hasPrefix(".") }).sorted() {
            let file = directory.appendingPathComponent(name)
            let data: [UInt8]
            do { data = try BoundedFile.read(file, limit: maxFormBytes) } catch {
                let message =
                    if case .tooLarge(let limit) = error {
                        "fichier trop grand : \(BoundedFile.shownSize(limit)) au plus."
                    } else { "fichier illisible ou qui n’est pas un fichier ordinaire." }
                throw ConfigurationError(source: file.path, path: "", message: message)
            }
            do {
                try catalog.add(json: Data(data), source: file.path)
            } catch {
                throw ConfigurationError(source: error.source, path: error.path, message: error.locatedMessage)
            }
        }
    }
}
