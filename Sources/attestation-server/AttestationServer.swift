import ArgumentParser
import AttestationService
import Foundation
import HTTPServer
import Logging
import Metrics
import Prometheus

@main
struct AttestationServer: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "attestation-server",
        abstract: "Serve attestations for the links minted by attestation-admin.",
        discussion: """
            Reads the configuration (keys, revocation list, forms, server settings), listens, and \
            answers each link with a freshly generated attestation. Nothing is stored.

            Signals: SIGHUP reloads keys, revocation list, forms and the static site (a broken \
            configuration is logged and the running one stays in force); SIGTERM or SIGINT stop \
            accepting, let requests in flight finish (server.shutdownTimeout seconds at most) and \
            exit 0.

            Exit codes: 0 after a clean stop or a valid --check-config, 64 bad usage, 69 cannot \
            listen, 78 unusable configuration.

            Examples:
              attestation-server
              attestation-server --config /etc/attestation/config.json --host 0.0.0.0 --port 80
              attestation-server --check-config
              attestation-server --config /etc/attestation/config.json --public-directory /usr/local/share/attestation/Public
            """)

    @Option(help: ArgumentHelp("The configuration file, as written by attestation-admin init.", valueName: "PATH"))
    var config = "config.json"

    @Option(help: ArgumentHelp("Address to listen on, instead of server.host (0.0.0.0 or :: for all).", valueName: "ADDRESS"))
    var host: String?

    @Option(help: ArgumentHelp("Port to listen on, instead of server.port (0 for any free port).", valueName: "PORT"))
    var port: Int?

    @Option(name: .customLong("log-level"),
            help: ArgumentHelp("Instead of server.logLevel: \(ServerSettings.logLevels.joined(separator: ", ")).", valueName: "LEVEL"))
    var logLevel: String?

    @Option(name: .customLong("public-directory"),
            help: ArgumentHelp("The static site, instead of server.publicDirectory (relative to the working directory).", valueName: "PATH"))
    var publicDirectory: String?

    @Flag(name: .customLong("check-config"), help: "Check the configuration and everything it names, print a summary, and exit.")
    var checkConfig = false

    func validate() throws {
        if let port, !(0...65535).contains(port) { throw ValidationError("--port : de 0 à 65535 attendu.") }
        if let logLevel, !ServerSettings.logLevels.contains(logLevel) {
            throw ValidationError("--log-level : un de \(ServerSettings.logLevels.joined(separator: ", ")) attendu.")
        }
    }

    func run() throws {
        // Before any thread starts, so every thread inherits the mask and only sigwait sees them.
        let signals = SignalSet.blocking([SIGTERM, SIGINT, SIGHUP])
        signal(SIGPIPE, SIG_IGN)

        let configurationFile = URL(fileURLWithPath: config).standardizedFileURL
        let snapshot: ServiceSnapshot
        var settings: ResolvedServerSettings
        let httpConfiguration: HTTPServerConfiguration
        do {
            snapshot = try ServiceSnapshot.load(configurationFile: configurationFile, publicDirectory: publicDirectory)
            settings = snapshot.settings
            settings.host = host ?? settings.host
            settings.port = port ?? settings.port
            settings.logLevel = logLevel ?? settings.logLevel
            httpConfiguration = try snapshot.state.httpConfiguration(settings)
        } catch {
            Self.fail("configuration inutilisable : \(error)", code: 78)
        }
        if checkConfig {
            print(Self.summary(snapshot, settings: settings, tls: httpConfiguration.tls != nil))
            return
        }

        let level = Logger.Level(rawValue: settings.logLevel) ?? .info
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = level
            return handler
        }
        let registry = PrometheusCollectorRegistry()
        var factory = PrometheusMetricsFactory(registry: registry)
        factory.defaultDurationHistogramBuckets = [
            .microseconds(500), .milliseconds(1), .milliseconds(2), .milliseconds(5), .milliseconds(10),
            .milliseconds(25), .milliseconds(50), .milliseconds(100), .milliseconds(250), .seconds(1),
        ]
        MetricsSystem.bootstrap(factory)

        let logger = Logger(label: "attestation-server")
        let service = Service(snapshot: snapshot, logger: logger, metricsExposition: { registry.emitToBuffer() })
        let server: HTTPServer
        do {
            server = try HTTPServer(configuration: httpConfiguration, observer: service.serverObserver,
                                    refusalResponder: service.refusalResponder, handler: service.handler)
        } catch {
            Self.fail(Self.message(error), code: 69)
        }
        for skipped in snapshot.publicFiles.skipped {
            logger.warning("Public/: \(skipped) left out (link outside the directory, unreadable or too large)")
        }
        let scheme = httpConfiguration.tls == nil ? "http" : "https"
        let shownHost = settings.host.contains(":") ? "[\(settings.host)]" : settings.host
        // Written at once (tests and scripts wait for this line to learn the port).
        FileHandle.standardOutput.write(Data("attestation-server : à l’écoute sur \(scheme)://\(shownHost):\(server.port)/\n".utf8))

        while true {
            switch signals.wait() {
            case SIGHUP:
                do {
                    let fresh = try ServiceSnapshot.load(configurationFile: configurationFile, publicDirectory: publicDirectory)
                    service.replace(with: fresh)
                    logger.notice("reloaded: \(fresh.state.keys.keys.count) keys, \(fresh.state.revoked.ids.count) revoked links, \(fresh.state.catalog.forms.count) forms, \(fresh.publicFiles.files.count) public paths")
                    if fresh.settings != snapshot.settings {
                        logger.warning("server settings changed: they apply at the next restart")
                    }
                    if httpConfiguration.tls != nil {
                        // libmicrohttpd takes the certificate once, when it starts.
                        logger.notice("TLS certificate and key not reloaded: restart to serve renewed ones")
                    }
                } catch {
                    logger.error("reload refused, the previous configuration stays in force: \(error)")
                }
            default:
                logger.notice("stopping: no new connections, finishing requests in flight")
                service.beginShutdown()
                let unfinished = server.stop(gracePeriod: Double(settings.shutdownTimeout))
                if unfinished > 0 {
                    logger.warning("stopped with \(unfinished) requests unfinished after \(settings.shutdownTimeout) s")
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
              site statique : \(state.resolve(settings.publicDirectory).path) (\(snapshot.publicFiles.files.count) chemins)
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
