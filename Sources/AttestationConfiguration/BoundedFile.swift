import Foundation

/// Reads the files a configuration names, never more than a bound: a runaway or hostile file
/// (a 300 MB revocation list, a FIFO, a device) must not stall or bloat a server that reloads
/// it while serving.
enum BoundedFile {
    enum Failure: Error {
        case missing
        case notARegularFile
        case unreadable
        case tooLarge(limit: Int)
        case empty
        /// Group or others may write it (its mode): refused where the file decides who is trusted.
        case writableByOthers(mode: Int)
    }

    /// The refusal of a file others may write, in French, as sshd's StrictModes refuses one: the
    /// configuration names the keys links are checked with, the revocation list which links no
    /// longer hold; anyone who may write either may forge or revive links (issue 38: `init` under
    /// umask 000 wrote them 0666, and the server took them).
    static func writableMessage(_ url: URL, mode: Int) -> String {
        "fichier modifiable par d’autres que son propriétaire (mode \(String(format: "%04o", mode))), refusé : il "
            + "décide quels liens sont valides. Attendu : 0644 ou plus strict (chmod go-w \(url.path))."
    }

    /// The whole file, at most `limit` bytes; symbolic links are followed.
    /// With `ownerWritesOnly`, a file group or others may write is refused (`writableByOthers`).
    static func read(
        _ url: URL, limit: Int, allowEmpty: Bool = true, ownerWritesOnly: Bool = false
    ) throws(Failure) -> [UInt8] {
        var status = stat()
        guard stat(url.path, &status) == 0 else {
            throw errno == ENOENT || errno == ENOTDIR ? .missing : .unreadable
        }
        guard status.st_mode & S_IFMT == S_IFREG else { throw .notARegularFile }
        if ownerWritesOnly, status.st_mode & (S_IWGRP | S_IWOTH) != 0, !isOnReadOnlyMount(url.path) {
            throw .writableByOthers(mode: Int(status.st_mode & 0o7777))
        }
        guard status.st_size <= limit else { throw .tooLarge(limit: limit) }
        guard let handle = try? FileHandle(forReadingFrom: url) else { throw .unreadable }
        defer { try? handle.close() }
        // The file may grow between stat and read: never take more than the bound.
        guard let data = try? handle.read(upToCount: limit + 1) else {
            if allowEmpty { return [] }
            throw .empty
        }
        guard data.count <= limit else { throw .tooLarge(limit: limit) }
        if data.isEmpty, !allowEmpty { throw .empty }
        return [UInt8](data)
    }

    /// Whether `path` is on a file system mounted read-only, where no mode lets anyone write:
    /// Kubernetes mounts a ConfigMap read-only in a folder of mode 0777.
    static func isOnReadOnlyMount(_ path: String) -> Bool {
        var system = statvfs()
        return statvfs(path, &system) == 0 && system.f_flag & UInt(ST_RDONLY) != 0
    }

    /// `8 Mio`, `1 Mio`, `512 Kio`.
    static func shownSize(_ bytes: Int) -> String {
        bytes >= 1 << 20 && bytes % (1 << 20) == 0 ? "\(bytes >> 20) Mio" : "\(bytes >> 10) Kio"
    }
}
