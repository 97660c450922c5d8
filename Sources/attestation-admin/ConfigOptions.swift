import ArgumentParser
import AttestationConfiguration
import AttestationKit
import Foundation
import LinkTokens

/// `--config PATH`: the configuration written by `init`, shared with the server.
struct ConfigOptions: ParsableArguments {
    @Option(
        name: .customLong("config"),
        help: ArgumentHelp(
            "Le fichier de configuration écrit par init (par défaut config.json, dans le dossier courant).",
            valueName: "FICHIER"))
    var configPath: String?

    static let defaultPath = "config.json"

    var path: String { configPath ?? Self.defaultPath }
    /// Whether `--config` was given, rather than the default of the working directory.
    var isExplicit: Bool { configPath != nil }

    var url: URL { URL(fileURLWithPath: path) }

    func state() throws -> ServiceState {
        do {
            return try ServiceState.load(configurationFile: url)
        } catch {
            throw AdminError.data(error.description)
        }
    }

    /// The configuration alone, for commands that edit it.
    func configuration() throws -> Configuration {
        guard let data = try? Data(contentsOf: url) else {
            throw AdminError.data(
                "\(path) : fichier introuvable ou illisible ; créez-le avec « attestation-admin init ».")
        }
        do { return try Configuration.decode(data, source: path) } catch { throw AdminError.data(error.description) }
    }

    /// The private key the configuration names for minting, refused when others can read it.
    func signingKey(_ configuration: Configuration, override: String?) throws -> SigningKey {
        guard let relative = override ?? configuration.signingKey else {
            throw AdminError.usage("aucune clé privée : indiquez --key FICHIER ou signingKey dans \(path).")
        }
        let file =
            override != nil
            ? URL(fileURLWithPath: relative)
            : (relative.hasPrefix("/")
                ? URL(fileURLWithPath: relative) : url.deletingLastPathComponent().appendingPathComponent(relative))
        return try PrivateKeyFile.read(file)
    }
}

/// Private key files: written readable by their owner only, refused otherwise (as ssh does).
enum PrivateKeyFile {
    static func write(_ key: SigningKey, to file: URL) throws {
        let manager = FileManager.default
        let directory = file.deletingLastPathComponent()
        if !manager.fileExists(atPath: directory.path) {
            do {
                // Only the key directory is private: the configuration's own directory (created
                // here for `init --config /etc/attestation/config.json`) must stay readable by
                // the service's user.
                try manager.createDirectory(
                    at: directory.deletingLastPathComponent(), withIntermediateDirectories: true)
                try manager.createDirectory(
                    at: directory, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
            } catch {
                throw AdminError.cannotCreate("impossible de créer le dossier \(directory.path).")
            }
        }
        guard !manager.fileExists(atPath: file.path) else {
            throw AdminError.cannotCreate("\(file.path) existe déjà ; aucune clé n’est écrasée.")
        }
        // Created with mode 0600 from the start: never a moment where others could read it.
        guard manager.createFile(atPath: file.path, contents: key.fileContents, attributes: [.posixPermissions: 0o600])
        else {
            throw AdminError.cannotCreate("impossible d’écrire \(file.path).")
        }
    }

    static func read(_ file: URL) throws -> SigningKey {
        let manager = FileManager.default
        guard let attributes = try? manager.attributesOfItem(atPath: file.path),
            let data = manager.contents(atPath: file.path)
        else {
            throw AdminError.data("\(file.path) : clé privée introuvable ou illisible.")
        }
        let mode = (attributes[.posixPermissions] as? NSNumber)?.intValue ?? 0o777
        guard mode & 0o077 == 0 else {
            throw AdminError.permission(
                "\(file.path) : permissions trop ouvertes (\(String(mode, radix: 8))) ; une clé privée doit être lisible par son seul propriétaire : chmod 600 \(file.path)"
            )
        }
        do { return try SigningKey(fileContents: data) } catch {
            throw AdminError.data("\(file.path) : \(error.description)")
        }
    }
}
