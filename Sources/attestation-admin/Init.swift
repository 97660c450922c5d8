import ArgumentParser
import AttestationConfiguration
import Foundation
import LinkTokens

struct Init: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Écrit une configuration prête à servir et une clé de signature neuve.",
        discussion: """
            Écrit la configuration (avec la clé publique), la clé privée (mode 0600, dans un \
            dossier de mode 0700) et une liste de révocation sans révocation. N’écrase aucun de \
            ces fichiers.

            --base-url est l’adresse que les liens porteront. Une adresse http de cette machine \
            (http://127.0.0.1:PORT ou http://localhost:PORT) est celle du serveur lui-même : il \
            écoutera sur ce port. Une adresse https est celle d’un serveur mandataire (nginx, \
            Caddy) placé devant lui : le serveur écoute alors sur 127.0.0.1:8080, ce que le \
            mandataire doit joindre (server.host et server.port dans config.json).

            Exemples :
              attestation-admin init --base-url http://127.0.0.1:8080
              attestation-admin init --config /etc/attestation/config.json --base-url https://attestation.example.org
            """)

    @OptionGroup var config: ConfigOptions

    @Option(
        name: .customLong("key-id"),
        help: ArgumentHelp("Identifiant de la première clé (inscrit dans chaque lien).", valueName: "ID"))
    var keyID = "k1"

    @Option(
        name: .customLong("base-url"),
        help: ArgumentHelp("L’adresse publique du service, début de chaque lien.", valueName: "URL"))
    var baseURL = "http://127.0.0.1:8080"

    func run() throws {
        let manager = FileManager.default
        let directory = config.url.deletingLastPathComponent()
        let keyPath = "keys/\(keyID).key"
        let keyFile = directory.appendingPathComponent(keyPath)
        let revocationFile = directory.appendingPathComponent("revoked.txt")
        for existing in [config.url, keyFile] where manager.fileExists(atPath: existing.path) {
            throw AdminError.cannotCreate(
                "\(existing.path) existe déjà ; init n’écrase rien (supprimez-le d’abord si c’est voulu).")
        }
        let key: SigningKey
        do { key = try SigningKey.generate(id: keyID) } catch {
            throw AdminError.usage("--key-id : \(error.description)")
        }
        let listening = try Listening(baseURL: baseURL)
        let configuration = Configuration(
            baseURL: baseURL, keys: [.init(id: key.id, publicKey: key.verificationKey.base64)], signingKey: keyPath,
            revocationList: "revoked.txt", formsDirectory: "forms", offsetBounds: .standard, server: listening.settings)
        // Checked as the server will read it, before anything is written.
        do { _ = try Configuration.decode(configuration.fileContents, source: config.path) } catch {
            throw AdminError.usage("--base-url : \(error.message)")
        }
        try PrivateKeyFile.write(key, to: keyFile)
        if !manager.fileExists(atPath: revocationFile.path) {
            try writeAtomically(Data(Self.revocationHeader.utf8), to: revocationFile.path)
        }
        try writeAtomically(configuration.fileContents, to: config.path)
        let configOption = config.path == "config.json" ? "" : " --config \(config.path)"
        print(
            """
            Configuration écrite : \(config.path)
            Clé privée (à garder secrète, jamais sur le serveur) : \(keyFile.path)
            Liste de révocation : \(revocationFile.path)
            \(listening.explanation)

            Étape suivante, un lien par personne :
              attestation-admin mint\(configOption) --first-name Camille --last-name Dupont --birth-date 01/01/1970 \\
                --birth-place Lyon --address "999 avenue de France" --zip 75001 --city Paris --reason travail --format qr
            puis le serveur : attestation-server\(configOption)
            """)
    }

    static let revocationHeader = """
        # Liens révoqués : un identifiant par ligne (attestation-admin revoke), # pour un commentaire.
        # Les serveurs relisent ce fichier d’eux-mêmes quand il change (ou sur SIGHUP).
        # Ne le videz pas : une liste vide ou absente est refusée, l’ancienne reste en vigueur.

        """
}

struct Keygen: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Ajoute une nouvelle clé de signature (rotation).",
        discussion: """
            Écrit keys/ID.key (mode 0600), ajoute sa clé publique à la configuration et en fait \
            la clé des nouveaux liens. Les liens signés par les anciennes clés restent valides \
            tant que leur clé figure dans "keys" de la configuration (retirez-la, puis rechargez \
            les serveurs, pour y mettre fin).

            Exemple :
              attestation-admin keygen --key-id 2027-01
            """)

    @OptionGroup var config: ConfigOptions

    @Option(name: .customLong("key-id"), help: ArgumentHelp("Identifiant de la nouvelle clé.", valueName: "ID"))
    var keyID: String

    func run() throws {
        var configuration = try config.configuration()
        guard !configuration.keys.contains(where: { $0.id == keyID }) else {
            throw AdminError.data(
                "--key-id : la clé « \(keyID) » existe déjà dans \(config.path) ; choisissez un autre identifiant.")
        }
        let key: SigningKey
        do { key = try SigningKey.generate(id: keyID) } catch {
            throw AdminError.usage("--key-id : \(error.description)")
        }
        let keyPath = "keys/\(keyID).key"
        try PrivateKeyFile.write(key, to: config.url.deletingLastPathComponent().appendingPathComponent(keyPath))
        configuration.keys.append(.init(id: key.id, publicKey: key.verificationKey.base64))
        let previous = configuration.signingKey
        configuration.signingKey = keyPath
        try writeAtomically(configuration.fileContents, to: config.path)
        print(
            """
            Nouvelle clé « \(keyID) » : \(keyPath), ajoutée à \(config.path) et utilisée pour les nouveaux liens\
            \(previous.map { " (au lieu de \($0))" } ?? "").
            Les liens signés par les anciennes clés restent valides tant qu’elles figurent dans "keys".
            Copiez la configuration sur les serveurs : ils la relisent d’eux-mêmes (server.reloadOnChange), sinon kill -HUP.
            """)
    }
}

/// Where the server will listen, from the public address links will carry: an http address of
/// this machine is the server itself, so its port (and a loopback address other than the
/// default) go into `server`; any other address is a proxy's, in front of the default listener.
struct Listening {
    /// nil when the server's defaults already listen where the links point.
    let settings: ServerSettings?
    /// What was chosen and why, for the administrator.
    let explanation: String

    init(baseURL: String) throws {
        guard let url = URLComponents(string: baseURL), let scheme = url.scheme?.lowercased(),
            let host = url.host?.lowercased(),
            ["http", "https"].contains(scheme)
        else {
            throw AdminError.usage(
                "--base-url : URL http(s) sans requête attendue, par exemple https://attestation.example.org.")
        }
        let defaults = ServerSettings.defaults
        let bare = host.hasPrefix("[") ? String(host.dropFirst().dropLast()) : host
        let loopback = bare == "localhost" || bare == "::1" || Self.isIPv4Loopback(bare)
        guard scheme == "http", loopback else {
            settings = nil
            explanation = """
                Le serveur écoutera sur http://\(defaults.host):\(defaults.port)/ (les valeurs par défaut de server.host \
                et server.port) : \(baseURL) est l’adresse d’un serveur mandataire (nginx, Caddy) qui doit le joindre là \
                (docs/deployment.md).
                """
            return
        }
        let port = url.port ?? 80
        let listenHost = bare == "localhost" ? defaults.host : bare
        var settings = ServerSettings()
        if port != defaults.port { settings.port = port }
        if listenHost != defaults.host { settings.host = listenHost }
        self.settings = settings == ServerSettings() ? nil : settings
        let shown = listenHost.contains(":") ? "[\(listenHost)]" : listenHost
        let privileged =
            port < 1024 ? " Un port inférieur à 1024 demande les droits de root (ou CAP_NET_BIND_SERVICE)." : ""
        explanation =
            self.settings == nil
            ? "Le serveur écoutera sur http://\(shown):\(port)/, l’adresse de --base-url (les valeurs par défaut de server.host et server.port)."
            : "Le serveur écoutera sur http://\(shown):\(port)/, l’adresse de --base-url (écrit dans l’objet server de la configuration)."
                + privileged
    }

    private static func isIPv4Loopback(_ host: String) -> Bool {
        let parts = host.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4 && parts[0] == "127" && parts.allSatisfy { UInt8($0) != nil }
    }
}
