import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Watches the files a configuration is made of and asks for a reload when they change, for the
/// places that change files without sending SIGHUP: Kubernetes and Docker Compose swap a
/// mounted directory's `..data` symbolic link, config-management tools rename a new file into
/// place, an administrator edits in place.
///
/// inotify watches directories, not files: the directory of each path, and, when the path is a
/// symbolic link, the directory of what it leads to (where an in-place edit happens). An event
/// only wakes the watcher; a reload is asked for when the files' fingerprint (device, inode,
/// size, modification and change times, after following links) differs from the last one seen,
/// after a quiet `settle` so that a file written in several steps is read once, whole, or after
/// `longestSettle` when the events do not stop (a file rewritten every 0.15 s). The watch
/// list is rebuilt after each change, since a swap moves the links' targets. Every
/// `fallbackInterval` the fingerprint is also compared without an event (an overflowed event
/// queue, a network file system where inotify is blind).
final class ConfigurationWatcher: Sendable {
    /// Files and directories whose content matters (a directory: its entries, one level), as the
    /// configuration in force names them (a reload may name others).
    private let paths: @Sendable () -> [String]
    private let settle: Duration
    private let longestSettle: Duration
    private let fallbackInterval: Duration
    private let onChange: @Sendable () -> Void
    private let descriptor: Int32
    private let stopped = Atomic<Bool>(false)

    /// - Parameter onChange: called on the watcher's thread, once per settled change.
    init?(
        paths: @escaping @Sendable () -> [String], settle: Duration = .milliseconds(300),
        longestSettle: Duration = .milliseconds(600), fallbackInterval: Duration = .seconds(30),
        onChange: @escaping @Sendable () -> Void
    ) {
        let descriptor = inotify_init1(Int32(IN_CLOEXEC | IN_NONBLOCK))
        guard descriptor >= 0 else { return nil }
        self.paths = paths
        self.settle = settle
        self.longestSettle = longestSettle
        self.fallbackInterval = fallbackInterval
        self.onChange = onChange
        self.descriptor = descriptor
    }

    deinit {
        close(descriptor)
    }

    /// Watches the directories and takes the files' fingerprint now, in that order, then starts
    /// the watching thread; it runs until `stop`. Both happen here, before the server says it is
    /// ready, not when the thread first runs: a busy machine can delay a new thread by seconds,
    /// and a change made meanwhile would become the baseline, or raise no event, and be reloaded
    /// only by the fallback check (make test's load showed both).
    func start() {
        var watches = Set<Int32>()
        rearm(&watches)
        let baseline = Self.fingerprint(of: paths())
        let thread = Thread { [self, watches] in run(from: baseline, watching: watches) }
        thread.name = "configuration-watcher"
        thread.start()
    }

    func stop() {
        stopped.store(true, ordering: .relaxed)
    }

    private func run(from baseline: [String], watching initial: Set<Int32>) {
        var seen = baseline
        var watches = initial
        var lastCheck = ContinuousClock.now
        while !stopped.load(ordering: .relaxed) {
            let woken = waitForEvents(timeout: .milliseconds(500))
            if stopped.load(ordering: .relaxed) { return }
            guard woken || ContinuousClock.now - lastCheck >= fallbackInterval else { continue }
            if woken {
                // Let a burst of events (a write in pieces, a swap of several links) finish, but
                // for `longestSettle` at most: a list rewritten more often than `settle` (a sync
                // tool, revocations back to back) held every reload off until the writes stopped,
                // 12 s for one revocation (issue 29). A file read in the middle of a write is
                // refused as a whole, and the next event reads it again.
                let settled = ContinuousClock.now + longestSettle
                while ContinuousClock.now < settled, waitForEvents(timeout: min(settle, settled - .now)) {}
            }
            lastCheck = ContinuousClock.now
            let now = Self.fingerprint(of: paths())
            if now != seen {
                seen = now
                rearm(&watches)
                onChange()
            }
        }
    }

    /// True when events arrived within `timeout`; they are read and dropped.
    private func waitForEvents(timeout: Duration) -> Bool {
        var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        let milliseconds = Int32(
            timeout.components.seconds * 1000 + timeout.components.attoseconds / 1_000_000_000_000_000)
        let ready = poll(&poller, 1, milliseconds)
        guard ready > 0 else { return false }
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while buffer.withUnsafeMutableBytes({ read(descriptor, $0.baseAddress, $0.count) }) > 0 {}
        return true
    }

    /// Watches the directories that hold the paths and their links' targets, and drops the
    /// watches of directories no longer involved.
    private func rearm(_ watches: inout Set<Int32>) {
        let mask = UInt32(
            IN_CREATE | IN_DELETE | IN_MOVED_TO | IN_MOVED_FROM | IN_CLOSE_WRITE | IN_ATTRIB
                | IN_DELETE_SELF | IN_MOVE_SELF | IN_ONLYDIR)
        var wanted = Set<Int32>()
        for directory in Self.directories(for: paths()) {
            let watch = inotify_add_watch(descriptor, directory, mask)
            // A directory that does not exist (yet) is covered by its parent's watch.
            if watch >= 0 { wanted.insert(watch) }
        }
        for stale in watches.subtracting(wanted) {
            // Fails harmlessly when the directory is gone: inotify dropped that watch itself.
            _ = inotify_rm_watch(descriptor, stale)
        }
        watches = wanted
    }

    /// The directories where a change to the paths can happen.
    static func directories(for paths: [String]) -> Set<String> {
        var directories = Set<String>()
        for path in paths {
            let url = URL(fileURLWithPath: path)
            directories.insert(url.deletingLastPathComponent().path)
            let resolved = url.resolvingSymlinksInPath()
            directories.insert(resolved.deletingLastPathComponent().path)
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: resolved.path, isDirectory: &isDirectory), isDirectory.boolValue {
                directories.insert(resolved.path)
                directories.insert(path)
            }
        }
        return directories
    }

    /// What identifies the content of each path now, links followed; a directory's entries too.
    static func fingerprint(of paths: [String]) -> [String] {
        var entries: [String] = []
        for path in paths {
            entries.append(path + " " + identity(of: path))
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue {
                let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
                for name in names.sorted() {
                    let child = (path as NSString).appendingPathComponent(name)
                    entries.append(child + " " + identity(of: child))
                }
            }
        }
        return entries
    }

    private static func identity(of path: String) -> String {
        var status = stat()
        guard stat(path, &status) == 0 else { return "absent \(errno)" }
        return "\(status.st_dev) \(status.st_ino) \(status.st_size) \(status.st_mtim.tv_sec).\(status.st_mtim.tv_nsec) "
            + "\(status.st_ctim.tv_sec).\(status.st_ctim.tv_nsec)"
    }
}
