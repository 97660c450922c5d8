import Foundation
import HTTPServer
import PublicSite

/// The static site, read whole into memory at start and on reload. Only regular files found
/// under the root (symbolic links resolved and checked to stay inside) can ever be served, so
/// no request path, however encoded, reaches anything else; directories are never listed.
public struct PublicFiles: Sendable {
    public struct File: Sendable {
        public let body: [UInt8]
        public let contentType: String
        public let cacheControl: String
        public let etag: String

        /// A file made in memory, with a validator from its content.
        init(body: [UInt8], contentType: String, cacheControl: String) {
            self.init(
                body: body, contentType: contentType, cacheControl: cacheControl, etag: PublicFiles.etag(of: Data(body))
            )
        }

        init(body: [UInt8], contentType: String, cacheControl: String, etag: String) {
            self.body = body
            self.contentType = contentType
            self.cacheControl = cacheControl
            self.etag = etag
        }

        /// This file answered with its validators: 304 when the client's copy is current.
        func response(for request: HTTPRequest, headers: [(name: String, value: String)]) -> HTTPResponse {
            let common = headers + [("Content-Type", contentType), ("Cache-Control", cacheControl), ("ETag", etag)]
            if let tags = request.header("If-None-Match"),
                tags.split(separator: ",").contains(where: {
                    let tag = $0.trimmingCharacters(in: .whitespaces)
                    return tag == etag || tag == "*" || tag == "W/" + etag
                })
            {
                return HTTPResponse(status: 304, headers: common)
            }
            return HTTPResponse(status: 200, headers: common, body: body)
        }
    }

    /// Request path (`/app.js`) to file; a directory's `index.html` is also its own path.
    public let files: [String: File]
    /// Files left out: links leading outside the root, unreadable files, over the size limits.
    public let skipped: [String]

    public static let empty = PublicFiles(files: [:], skipped: [])
    public static let maxFileBytes = 8 << 20
    public static let maxTotalBytes = 64 << 20

    /// The site built into the server (`Public/`).
    public static let builtIn = PublicFiles(
        files: PublicSite.files.reduce(into: [:]) { files, entry in
            let file = File(
                body: entry.value, contentType: contentType(of: entry.key), cacheControl: cacheControl(of: entry.key))
            files[entry.key] = file
            if entry.key.hasSuffix("/index.html") { files[String(entry.key.dropLast("index.html".count))] = file }
        }, skipped: [])

    /// Reads every file under `directory`; a missing directory gives an empty site.
    public static func load(from directory: URL) -> PublicFiles {
        let manager = FileManager.default
        let root = directory.resolvingSymlinksInPath().standardizedFileURL.path
        guard
            let enumerator = manager.enumerator(
                at: URL(fileURLWithPath: root, isDirectory: true), includingPropertiesForKeys: [.isRegularFileKey],
                options: [.skipsHiddenFiles])
        else { return .empty }
        var files: [String: File] = [:]
        var skipped: [String] = []
        var total = 0
        for case let url as URL in enumerator {
            let resolved = url.resolvingSymlinksInPath().standardizedFileURL
            guard (try? resolved.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true else { continue }
            let relative = String(url.standardizedFileURL.path.dropFirst(root.count))
            guard resolved.path.hasPrefix(root + "/"), relative.hasPrefix("/"),
                let data = try? Data(contentsOf: resolved), data.count <= maxFileBytes,
                total + data.count <= maxTotalBytes
            else {
                skipped.append(relative)
                continue
            }
            total += data.count
            let file = File(
                body: [UInt8](data), contentType: contentType(of: relative), cacheControl: cacheControl(of: relative),
                etag: etag(of: data))
            files[relative] = file
            if relative.hasSuffix("/index.html") {
                files[String(relative.dropLast("index.html".count))] = file
            }
        }
        return PublicFiles(files: files, skipped: skipped.sorted())
    }

    /// The file at that request path, answered with validators; nil when there is none.
    func response(for request: HTTPRequest, headers: [(name: String, value: String)]) -> HTTPResponse? {
        files[request.path]?.response(for: request, headers: headers)
    }

    static let contentTypes: [String: String] = [
        "html": "text/html; charset=utf-8", "css": "text/css; charset=utf-8", "js": "text/javascript; charset=utf-8",
        "mjs": "text/javascript; charset=utf-8", "json": "application/json", "webmanifest": "application/manifest+json",
        "svg": "image/svg+xml", "png": "image/png", "jpg": "image/jpeg", "jpeg": "image/jpeg", "ico": "image/x-icon",
        "webp": "image/webp", "woff2": "font/woff2", "txt": "text/plain; charset=utf-8", "pdf": "application/pdf",
        "xml": "application/xml",
    ]

    static func contentType(of path: String) -> String {
        contentTypes[fileExtension(path)] ?? "application/octet-stream"
    }

    /// Pages, scripts and the manifest are checked at each visit (cheap with the ETag) so a new
    /// version shows at once; images and fonts are kept a day.
    static func cacheControl(of path: String) -> String {
        ["html", "css", "js", "mjs", "json", "webmanifest", "txt"].contains(fileExtension(path))
            ? "no-cache" : "public, max-age=86400"
    }

    private static func fileExtension(_ path: String) -> String {
        guard let dot = path.lastIndex(of: "."), !path[dot...].contains("/") else { return "" }
        return path[path.index(after: dot)...].lowercased()
    }

    /// A strong validator from the content (FNV-1a, 64 bits): equal bytes, equal tag.
    static func etag(of data: Data) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in data {
            hash ^= UInt64(byte)
            hash &*= 0x0000_0100_0000_01b3
        }
        return "\"\(String(hash, radix: 16))-\(String(data.count, radix: 16))\""
    }
}
