import ArgumentParser
import AttestationConfiguration
import Foundation
import LinkTokens

struct Init: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Write a working configuration and a fresh signing key.",
        discussion: """
            Writes the configuration (with the public key), the private key file (mode 0600, in a \
            directory of mode 0700) and an empty revocation list. Refuses to overwrite any of them.

            Example:
              attestation-admin init --base-url https://attestation.example.org
            """)

    @OptionGroup var config: ConfigOptions

    @Option(name: .customLong("key-id"), help: ArgumentHelp("Id of the first key (named in every link).", valueName: "ID"))
    var keyID = "k1"

    @Option(name: .customLong("base-url"), help: ArgumentHelp("The public address of the service.", valueName: "URL"))
    var baseURL = "http://127.0.0.1:8080"

    func run() throws {
        let manager = FileManager.default
        let directory = config.url.deletingLastPathComponent()
        let keyPath = "keys/\(keyID).key"
        let keyFile = directory.appendingPathComponent(keyPath)
        let revocationFile = directory.appendingPathComponent("revoked.txt")
        for existing in [config.url, keyFile] where manager.fileExists(atPath: existing.path) {
            throw AdminError.cannotCreate("\(existing.path) existe déjà ; init n’écrase rien (supprimez-le d’abord si c’est voulu).")
        }
        let key: SigningKey
        do { key = try SigningKey.generate(id: keyID) } catch { throw AdminError.usage("--key-id : \(error.description)") }
        let configuration = Configuration(
            baseURL: baseURL, keys: [.init(id: key.id, publicKey: key.verificationKey.base64)], signingKey: keyPath,
            revocationList: "revoked.txt", formsDirectory: "forms", offsetBounds: .standard)
        // Checked as the server will read it, before anything is written.
        do { _ = try Configuration.decode(configuration.fileContents, source: config.path) } catch {
            throw AdminError.usage("--base-url : \(error.message)")
        }
        try PrivateKeyFile.write(key, to: keyFile)
        if !manager.fileExists(atPath: revocationFile.path) {
            try writeAtomically(Data(Self.revocationHeader.utf8), to: revocationFile.path)
        }
        try writeAtomically(configuration.fileContents, to: config.path)
        print("""
            Configuration écrite : \(config.path)
            Clé privée (à garder secrète, jamais sur le serveur) : \(keyFile.path)
            Liste de révocation : \(revocationFile.path)

            Étape suivante, un lien par personne :
              attestation-admin mint --first-name Camille --last-name Dupont --birth-date 01/01/1970 \\
                --birth-place Lyon --address "999 avenue de France" --zip 75001 --city Paris --reason travail
            """)
    }

    static let revocationHeader = """
        # Liens révoqués : un identifiant par ligne (attestation-admin revoke), # pour un commentaire.
        # Les serveurs relisent ce fichier sur SIGHUP.

        """
}

struct Keygen: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Add a new signing key, for rotation.",
        discussion: """
            Writes keys/ID.key (mode 0600), adds its public key to the configuration and makes it \
            the key new links are signed with. Links signed by older keys keep working until their \
            key is removed from "keys" in the configuration (then reload the servers).

            Example:
              attestation-admin keygen --key-id 2027-01
            """)

    @OptionGroup var config: ConfigOptions

    @Option(name: .customLong("key-id"), help: ArgumentHelp("Id of the new key.", valueName: "ID"))
    var keyID: String

    func run() throws {
        var configuration = try config.configuration()
        guard !configuration.keys.contains(where: { $0.id == keyID }) else {
            throw AdminError.data("--key-id : la clé « \(keyID) » existe déjà dans \(config.path) ; choisissez un autre identifiant.")
        }
        let key: SigningKey
        do { key = try SigningKey.generate(id: keyID) } catch { throw AdminError.usage("--key-id : \(error.description)") }
        let keyPath = "keys/\(keyID).key"
        try PrivateKeyFile.write(key, to: config.url.deletingLastPathComponent().appendingPathComponent(keyPath))
        configuration.keys.append(.init(id: key.id, publicKey: key.verificationKey.base64))
        let previous = configuration.signingKey
        configuration.signingKey = keyPath
        try writeAtomically(configuration.fileContents, to: config.path)
        print("""
            Nouvelle clé « \(keyID) » : \(keyPath), ajoutée à \(config.path) et utilisée pour les nouveaux liens\
            \(previous.map { " (au lieu de \($0))" } ?? "").
            Les liens signés par les anciennes clés restent valides tant qu’elles figurent dans "keys".
            Copiez la configuration sur les serveurs puis rechargez-les (kill -HUP).
            """)
    }
}
