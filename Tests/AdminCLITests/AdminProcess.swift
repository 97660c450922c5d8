import Foundation
import Testing

/// Runs the built `attestation-admin` (and outside tools) as processes, as an administrator would.
struct ProcessResult {
    let status: Int32
    let stdout: String
    let stderr: String
}

enum Tool {
    /// The directory of the test binary is the build's products directory: the
    /// `attestation-admin` beside it is the one built with these tests.
    static let products = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()

    static var admin: URL { products.appendingPathComponent("attestation-admin") }

    static func run(_ executable: URL, _ arguments: [String], in directory: URL? = nil) throws -> ProcessResult {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        if let directory { process.currentDirectoryURL = directory }
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        // Read before waiting, so a large output cannot fill the pipe and block the child.
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        let stderr = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return ProcessResult(status: process.terminationStatus,
                             stdout: String(decoding: stdout, as: UTF8.self),
                             stderr: String(decoding: stderr, as: UTF8.self))
    }

    static func admin(_ arguments: [String], in directory: URL? = nil) throws -> ProcessResult {
        try run(admin, arguments, in: directory)
    }

    /// An outside program from PATH (poppler-utils, zbar-tools), installed by `make test`.
    static func external(_ name: String, _ arguments: [String]) throws -> ProcessResult {
        for directory in (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin").split(separator: ":") {
            let candidate = URL(fileURLWithPath: String(directory)).appendingPathComponent(name)
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return try run(candidate, arguments) }
        }
        Issue.record("\(name) is not installed: run scripts/install-deps --test")
        throw CocoaError(.fileNoSuchFile)
    }
}

/// A temporary directory removed at the end of the test.
final class Scratch {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("admin-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: url) }

    func path(_ name: String) -> String { url.appendingPathComponent(name).path }
}

/// Reads QR codes in a PDF (rasterized by pdftoppm) or PNG back with zbarimg.
func decodedQRCodes(in file: String, scratch: Scratch) throws -> [String] {
    var images = [file]
    if file.hasSuffix(".pdf") {
        let prefix = scratch.path("page")
        let raster = try Tool.external("pdftoppm", ["-r", "150", "-png", file, prefix])
        try #require(raster.status == 0, "pdftoppm failed: \(raster.stderr)")
        images = try FileManager.default.contentsOfDirectory(atPath: scratch.url.path)
            .filter { $0.hasPrefix("page") && $0.hasSuffix(".png") }.sorted().map { scratch.path($0) }
    }
    return try images.map { image in
        let result = try Tool.external("zbarimg", ["-q", "--raw", "-Sbinary", image])
        try #require(result.status == 0, "zbarimg found no code in \(image)")
        return result.stdout
    }
}
