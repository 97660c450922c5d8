import ArgumentParser
import AttestationConfiguration
import AttestationService
import Foundation
import FrenchCommandLine
import HTTPServer
import Logging

@main
struct AttestationServer: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "attestation-server",
        abstract: "Sert les attestations des liens créés par attestation-admin.",
        discussion: """
            Lit la configuration (clés, liste de révocation, formulaires, réglages du serveur), \
            écoute, et répond à chaque lien par une attestation produite à l’instant. Rien n’est \
            conservé.

            Une fois à l’écoute, il écrit une ligne JSON sur la sortie standard \
            ({"event":"listening",…,"port":…}) ; le journal va sur la sortie d’erreur (--log-format \
            text ou json), en anglais.

            Rechargement : SIGHUP, ou un changement sur disque de la configuration, de la liste de \
            révocation ou d’un formulaire (server.reloadOnChange), recharge les clés, la liste, les \
            formulaires et le site. Ce qui ne se charge pas est refusé en entier et la \
            configuration en service reste en vigueur (une erreur dans le journal, /healthz \
            indique "degraded"). SIGTERM ou SIGINT : plus de nouvelle connexion, les requêtes en \
            cours finissent (server.shutdownTimeout secondes au plus), sortie 0.

            Codes de sortie : 0 après un arrêt propre ou un --check-config valide, 64 usage \
            invalide, 69 écoute impossible, 78 configuration inutilisable.

            Exemples :
              attestation-server
              attestation-server --config /etc/attestation/config.json --host 0.0.0.0 --port 80
              attestation-server --check-config
              attestation-server --config /etc/attestation/config.json --public-directory /usr/local/share/attestation/Public
            """)

    @Option(help: ArgumentHelp("Le fichier de configuration, écrit par attestation-admin init.", valueName: "FICHIER"))
    var config = "config.json"

    @Option(
        help: ArgumentHelp(
            "Adresse d’écoute, à la place de server.host (0.0.0.0 ou :: pour toutes).", valueName: "ADRESSE"))
    var host: String?

    @Option(
        help: ArgumentHelp(
            "Port d’écoute, à la place de server.port (0 pour un port libre quelconque).", valueName: "PORT"))
    var port: Int?

    @Option(
        name: .customLong("log-level"),
        help: ArgumentHelp("À la place de server.logLevel : \(LogLevel.names).", valueName: "NIVEAU"),
        transform: { name throws(SettingNameError) in try LogLevel(named: name) })
    var logLevel: LogLevel?

    @Option(
        name: .customLong("public-directory"),
        help: ArgumentHelp(
            "Un site statique sur disque à la place du site intégré et de server.publicDirectory (relatif au dossier courant).",
            valueName: "DOSSIER"))
    var publicDirectory: String?

    @Option(
        name: .customLong("log-format"),
        help: ArgumentHelp(
            "À la place de server.logFormat : text (une ligne par entrée) ou json (un objet par ligne).",
            valueName: "FORMAT"),
        transform: { name throws(SettingNameError) in try LogFormat(named: name) })
    var logFormat: LogFormat?

    @Flag(
        name: .customLong("check-config"),
        help: "Vérifie la configuration et tout ce qu’elle nomme, écrit un résumé, et s’arrête.")
    var checkConfig = false

    /// The parser's help and errors in French, like every other message of the program.
    static func main() {
        do {
            var command = try parseAsRoot()
            try command.run()
        } catch {
            exitInFrench(error)
        }
    }

    func validate() throws {
        if let port, !(0...65535).contains(port) { throw ValidationError("--port : de 0 à 65535 attendu.") }
    }

    func run() throws {
        do { try LinkedLibraries.check() } catch { Self.fail("\(error)", code: 69) }
        let allocatorSettingsApplied = AllocatorSettings.apply()
        // Before any thread starts, so every thread inherits the mask and only sigwait sees them.
        let signals = SignalSet.blocking([SIGTERM, SIGINT, SIGHUP])
        signal(SIGPIPE, SIG_IGN)

        let startup: StartupConfiguration
        do {
            startup = try StartupConfiguration(
                file: config, publicDirectory: publicDirectory,
                overrides: .init(host: host, port: port, logLevel: logLevel, logFormat: logFormat))
        } catch {
            Self.fail("configuration inutilisable : \(error)", code: 78)
        }
        if checkConfig {
            print(startup.summary)
            return
        }

        ServerLogHandler.bootstrap(level: startup.settings.logLevel, format: startup.settings.logFormat)
        let registry = PrometheusMetrics.bootstrap()
        let logger = Logger(label: "attestation-server")
        if !allocatorSettingsApplied {
            logger.warning("glibc refused the allocator's thresholds (mallopt): memory may grow larger")
        }
        let service = Service(
            snapshot: startup.snapshot, logger: logger, metricsExposition: { registry.emitToBuffer() })
        let server: HTTPServer
        do { server = try HTTPServer(serving: service, configuration: startup.http) } catch {
            Self.fail(error.explanation, code: 69)
        }
        startup.logFilesLeftOut(logger: logger)
        let triggers = ReloadTriggers()
        let watcher =
            startup.settings.reloadOnChange ? triggers.watchFiles(of: service, logger: logger) : nil

        Readiness(scheme: startup.http.tls == nil ? "http" : "https", host: startup.settings.host, port: server.port)
            .announce(logger: logger)
        SignalLoop(
            signals: signals, service: service, server: server, startup: startup, triggers: triggers,
            watcher: watcher, logger: logger
        ).run()
    }

    private static func fail(_ message: String, code: Int32) -> Never {
        FileHandle.standardError.write(Data("attestation-server : \(message)\n".utf8))
        Foundation.exit(code)
    }
}
