import AttestationService
import Foundation
import Logging
import Synchronization

/// What asks for a reload: SIGHUP, and with `server.reloadOnChange` a change on disk, which the
/// watcher turns into a SIGHUP to this process so that both reach the one reload of `SignalLoop`.
final class ReloadTriggers: Sendable {
    private let changedOnDisk = Atomic<Bool>(false)

    /// Starts watching the files the configuration in force names; nil, logged, when inotify
    /// cannot be used (SIGHUP still reloads).
    func watchFiles(of service: Service, logger: Logger) -> ConfigurationWatcher? {
        let watcher = ConfigurationWatcher(
            paths: { service.snapshot.watchedPaths },
            onChange: { [self] in
                changedOnDisk.store(true, ordering: .relaxed)
                kill(getpid(), SIGHUP)
            })
        guard let watcher else {
            logger.warning(
                "cannot watch the configuration files (inotify): reload with SIGHUP", metadata: ["errno": "\(errno)"])
            return nil
        }
        watcher.start()
        return watcher
    }

    /// What asked for the reload now under way, for the log: `file change` or `SIGHUP`.
    func takeTrigger() -> String { changedOnDisk.exchange(false, ordering: .relaxed) ? "file change" : "SIGHUP" }
}
