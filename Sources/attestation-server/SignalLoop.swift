import AttestationService
import Foundation
import HTTPServer
import Logging

/// The main thread once the server listens: a reload at each SIGHUP, and at SIGTERM or SIGINT
/// a stop that lets the requests in flight finish.
struct SignalLoop {
    let signals: SignalSet
    let service: Service
    let server: HTTPServer
    let startup: StartupConfiguration
    let triggers: ReloadTriggers
    let watcher: ConfigurationWatcher?
    let logger: Logger

    /// Returns once the server has stopped.
    func run() {
        while signals.wait() == SIGHUP {
            service.reload(trigger: triggers.takeTrigger(), startup.load)
            if startup.http.tls != nil {
                // libmicrohttpd takes the certificate once, when it starts.
                logger.notice("TLS certificate and key not reloaded: restart to serve renewed ones")
            }
        }
        stop()
    }

    private func stop() {
        watcher?.stop()
        logger.notice("stopping: no new connections, finishing requests in flight")
        service.beginShutdown()
        let shutdownTimeout = startup.settings.shutdownTimeout
        let unfinished = server.stop(gracePeriod: Double(shutdownTimeout))
        if unfinished > 0 {
            logger.warning(
                "stopped with requests unfinished",
                metadata: [
                    "unfinished": .stringConvertible(unfinished),
                    "shutdown_timeout_s": .stringConvertible(shutdownTimeout),
                ])
        } else {
            logger.notice("stopped")
        }
    }
}
