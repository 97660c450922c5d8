import ArgumentParser
import AttestationConfiguration
import AttestationService
import Foundation
import HTTPServer
import Logging
import Metrics
import Prometheus
import Synchronization

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
            "Adresse d’écoute, à la place de server.host (0.0.0.0 ou :: pour toutes).", valueName: "ADDRESS"))
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

    func validate() throws {
        if let port, !(0...65535).contains(port) { throw ValidationError("--port : de 0 à 65535 attendu.") }
    }

    func run() throws {
        do { try LinkedLibraries.check() } catch { Self.fail("\(error)", code: 69) }
        let allocatorSettingsApplied = AllocatorSettings.apply()
        // Before any thread starts, so every thread inherits the mask and only sigwait sees them.
        let signals = SignalSet.blocking([SIGTERM, SIGINT, SIGHUP])
        signal(SIGPIPE, SIG_IGN)

        let configurationFile = URL(fileURLWithPath: config).standardizedFileURL
        let publicDirectory = self.publicDirectory
        let load = { () throws(ConfigurationError) -> ServiceSnapshot in
            try ServiceSnapshot.load(configurationFile: configurationFile, publicDirectory: publicDirectory)
        }
        let snapshot: ServiceSnapshot
        var settings: ResolvedServerSettings
        let httpConfiguration: HTTPServerConfiguration
        do {
            snapshot = try load()
            settings = snapshot.settings
            settings.host = host ?? settings.host
            settings.port = port ?? settings.port
            settings.logLevel = logLevel ?? settings.logLevel
            settings.logFormat = logFormat ?? settings.logFormat
            httpConfiguration = try snapshot.state.httpConfiguration(settings)
        } catch {
            Self.fail("configuration inutilisable : \(error)", code: 78)
        }
        if checkConfig {
            print(Self.summary(snapshot, settings: settings, tls: httpConfiguration.tls != nil))
            return
        }

        ServerLogHandler.bootstrap(level: settings.logLevel, format: settings.logFormat)
        let registry = PrometheusCollectorRegistry()
        var factory = PrometheusMetricsFactory(registry: registry)
        factory.defaultDurationHistogramBuckets = [
            .microseconds(500), .milliseconds(1), .milliseconds(2), .milliseconds(5), .milliseconds(10),
            .milliseconds(25), .milliseconds(50), .milliseconds(100), .milliseconds(250), .seconds(1),
        ]
        MetricsSystem.bootstrap(DescribedMetricsFactory(base: factory, help: ServiceMetrics.help))

        let logger = Logger(label: "attestation-server")
        if !allocatorSettingsApplied {
            logger.warning("glibc refused the allocator's thresholds (mallopt): memory may grow larger")
        }
        let service = Service(snapshot: snapshot, logger: logger, metricsExposition: { registry.emitToBuffer() })
        let server: HTTPServer
        do {
            server = try HTTPServer(
                configuration: httpConfiguration, observer: service.serverObserver,
                refusalResponder: service.refusalResponder, isExpensive: service.isExpensive,
                handler: service.handler)
        } catch {
            Self.fail(Self.message(error), code: 69)
        }
        for skipped in snapshot.publicFiles.skipped {
            logger.warning(
                "static file left out (link outside the directory, unreadable or too large)",
                metadata: ["path": .string(skipped)])
        }
        // Changes on disk become a SIGHUP to this process, so both reach the one reload below.
        let changed = Atomic<Bool>(false)
        var watcher: ConfigurationWatcher?
        if settings.reloadOnChange {
            watcher = ConfigurationWatcher(
                paths: { service.snapshot.watchedPaths },
                onChange: {
                    changed.store(true, ordering: .relaxed)
                    kill(getpid(), SIGHUP)
                })
        }
        if let watcher {
            watcher.start()
        } else if settings.reloadOnChange {
            logger.warning(
                "cannot watch the configuration files (inotify): reload with SIGHUP", metadata: ["errno": "\(errno)"])
        }

        Readiness(scheme: httpConfiguration.tls == nil ? "http" : "https", host: settings.host, port: server.port)
            .announce(logger: logger)

        while true {
            switch signals.wait() {
            case SIGHUP:
                let trigger = changed.exchange(false, ordering: .relaxed) ? "file change" : "SIGHUP"
                service.reload(trigger: trigger, load)
                if httpConfiguration.tls != nil {
                    // libmicrohttpd takes the certificate once, when it starts.
                    logger.notice("TLS certificate and key not reloaded: restart to serve renewed ones")
                }
            default:
                watcher?.stop()
                logger.notice("stopping: no new connections, finishing requests in flight")
                service.beginShutdown()
                let unfinished = server.stop(gracePeriod: Double(settings.shutdownTimeout))
                if unfinished > 0 {
                    logger.warning(
                        "stopped with requests unfinished",
                        metadata: [
                            "unfinished": .stringConvertible(unfinished),
                            "shutdown_timeout_s": .stringConvertible(settings.shutdownTimeout),
                        ])
                } else {
                    logger.notice("stopped")
                }
                return
            }
        }
    }

    private static func summary(_ snapshot: ServiceSnapshot, settings: ResolvedServerSettings, tls: Bool) -> String {
        let state = snapshot.state
        return """
            Configuration valide : \(state.configurationFile.path)
              clés publiques : \(state.keys.keys.count) ; liens révoqués : \(state.revoked.ids.count)
              formulaires : \(state.catalog.forms.map(\.id).joined(separator: ", "))
              décalage accepté : de \(state.bounds.minimum) à +\(state.bounds.maximum) minutes
              site statique : \(snapshot.siteOrigin) (\(snapshot.publicFiles.files.count) chemins)
              écoute : \(tls ? "https" : "http") sur \(settings.host):\(settings.port), \(settings.threads == 0 ? "un thread par cœur" : "\(settings.threads) threads")
            """
    }

    /// Why the server cannot listen, for the person who started it.
    static func message(_ error: HTTPServerError) -> String {
        switch error {
        case .invalidLimits:
            "limites invalides : connexions > 0, par adresse ≥ 0, délai > 0 s, taille de requête ≥ 1024 octets."
        case .invalidPort(let port): "port \(port) invalide ; attendu : 0 à 65535."
        case .unknownHost(let host, let reason): "adresse d’écoute « \(host) » inconnue : \(reason)."
        case .addressInUse(let host, let port):
            "impossible d’écouter sur \(host):\(port) : le port \(port) est déjà utilisé par un autre programme."
        case .permissionDenied(let host, let port):
            "impossible d’écouter sur \(host):\(port) : permission refusée (un port sous 1024 demande des droits)."
        case .addressNotAvailable(let host, let port):
            "impossible d’écouter sur \(host):\(port) : cette adresse n’appartient pas à cette machine."
        case .listenFailed(let host, let port, let reason): "impossible d’écouter sur \(host):\(port) : \(reason)."
        case .tlsUnsupported: "cette libmicrohttpd n’a pas été compilée avec TLS (GnuTLS)."
        case .tlsCredentialsRejected:
            "libmicrohttpd n’a pas pu démarrer : certificat ou clé TLS illisible, ou qui ne vont pas ensemble."
        case .startFailed: "libmicrohttpd n’a pas pu démarrer (threads ou mémoire insuffisants ?)."
        }
    }

    private static func fail(_ message: String, code: Int32) -> Never {
        FileHandle.standardError.write(Data("attestation-server : \(message)\n".utf8))
        Foundation.exit(code)
    }
}
