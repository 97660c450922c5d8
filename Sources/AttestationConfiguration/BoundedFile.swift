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
    }

    /// The whole file, at most `limit` bytes; symbolic links are followed.
    static func read(_ url: URL, limit: Int, allowEmpty: Bool = true) throws(Failure) -> [UInt8] {
        var status = stat()
        guard stat(url.path, &status) == 0 else {
            throw errno == ENOENT || errno == ENOTDIR ? .missing : .unreadable
        }
        guard status.st_mode & S_IFMT == S_IFREG else { throw .notARegularFile }
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

    /// `8 Mio`, `1 Mio`, `512 Kio`.
    static func shownSize(_ bytes: Int) -> String {
        bytes >= 1 << 20 && bytes % (1 << 20) == 0 ? "\(bytes >> 20) Mio" : "\(bytes >> 10) Kio"
    }
}
