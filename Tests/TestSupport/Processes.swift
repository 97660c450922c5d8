import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// What a finished process left: its exit status and its two outputs.
public struct ProcessResult: Sendable {
    public let status: Int32
    public let stdout: String
    public let stderr: String

    public init(status: Int32, stdout: String, stderr: String) {
        self.status = status
        self.stdout = stdout
        self.stderr = stderr
    }
}

/// Runs the built executables (and outside tools) as processes, as an administrator would.
public enum Tool {
    /// The directory of the test binary is the build's products directory: the executables
    /// beside it are the ones built with these tests.
    public static let products = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        .deletingLastPathComponent()

    public static var admin: URL { products.appendingPathComponent("attestation-admin") }
    public static var server: URL { products.appendingPathComponent("attestation-server") }

    /// Runs `executable` to its end, at most `timeout` seconds (then it is killed and the
    /// test fails). The outputs go through files, so however large they are, the child never
    /// blocks on a full pipe.
    public static func run(
        _ executable: URL, _ arguments: [String], in directory: URL? = nil,
        timeout: Double = 120
    ) throws -> ProcessResult {
        try RunningProcess(executable, arguments, in: directory).wait(timeout: timeout)
    }

    /// Whether the process ended within `timeout` seconds.
    static func waitForExit(_ process: Process, timeout: Double) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning {
            if Date() >= deadline { return false }
            usleep(2_000)
        }
        return true
    }

    public static func admin(_ arguments: [String], in directory: URL? = nil) throws -> ProcessResult {
        try run(admin, arguments, in: directory)
    }

    /// The path of an outside program from PATH (curl, poppler-utils, qpdf, zbar-tools),
    /// installed by `make test`.
    public static func externalPath(_ name: String) throws -> URL {
        for directory in (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin").split(separator: ":") {
            let candidate = URL(fileURLWithPath: String(directory)).appendingPathComponent(name)
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        }
        Issue.record("\(name) is not installed: run scripts/install-deps.sh --test")
        throw CocoaError(.fileNoSuchFile)
    }

    /// Runs an outside program from PATH.
    public static func external(
        _ name: String, _ arguments: [String], in directory: URL? = nil,
        timeout: Double = 120
    ) throws -> ProcessResult {
        try run(try externalPath(name), arguments, in: directory, timeout: timeout)
    }
}

/// A process started and not waited for yet (several can run at once); killed when this
/// object goes away before it ended.
public final class RunningProcess: @unchecked Sendable {
    private let process = Process()
    private let outputs: URL
    private let outURL: URL, errURL: URL
    public let name: String

    public init(_ executable: URL, _ arguments: [String], in directory: URL? = nil) throws {
        outputs = FileManager.default.temporaryDirectory.appendingPathComponent("tool-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: outputs, withIntermediateDirectories: true)
        outURL = outputs.appendingPathComponent("stdout")
        errURL = outputs.appendingPathComponent("stderr")
        _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
        let out = try FileHandle(forWritingTo: outURL)
        let err = try FileHandle(forWritingTo: errURL)
        defer {
            try? out.close()
            try? err.close()
        }
        name = "\(executable.lastPathComponent) \(arguments.prefix(3).joined(separator: " "))"
        process.executableURL = executable
        process.arguments = arguments
        if let directory { process.currentDirectoryURL = directory }
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = out
        process.standardError = err
        try process.run()
    }

    deinit {
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
        try? FileManager.default.removeItem(at: outputs)
    }

    public var isRunning: Bool { process.isRunning }

    /// Waits for the end, at most `timeout` seconds (then kills the process and records an
    /// issue), and returns the status and outputs.
    public func wait(timeout: Double = 120) -> ProcessResult {
        if !Tool.waitForExit(process, timeout: timeout) {
            kill(process.processIdentifier, SIGKILL)
            Issue.record("\(name) … still running after \(timeout) s: killed")
        }
        // Also when it has ended: Foundation's Process frees its bookkeeping only then.
        process.waitUntilExit()
        return ProcessResult(
            status: process.terminationStatus,
            stdout: String(decoding: (try? Data(contentsOf: outURL)) ?? Data(), as: UTF8.self),
            stderr: String(decoding: (try? Data(contentsOf: errURL)) ?? Data(), as: UTF8.self))
    }
}

/// A temporary directory removed at the end of the test.
public final class Scratch: Sendable {
    public let url: URL

    public init(prefix: String = "test") throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: url) }

    public func path(_ name: String) -> String { url.appendingPathComponent(name).path }
}

/// zbarimg's options for reading QR codes, the bytes as they are: QR codes alone. With every
/// symbology on, zbarimg also found a 1-D barcode in a page's modules now and then (the Load
/// suite read an extra "705589" after a payload), a different page each run.
public let zbarimgQRCodeOptions = ["-q", "--raw", "-Sdisable", "-Sqrcode.enable", "-Sbinary"]

/// Reads QR codes in a PDF (its pages rasterized by pdftoppm) or in a PNG back with zbarimg:
/// one payload per page or image. `pages` limits the PDF's pages (`2...2` for the big code).
/// The pages are grey PGM files, not PNG: compressing the PNG was nine tenths of pdftoppm's
/// time (0.67 s of CPU for an attestation's two pages at 150 dpi, 0.07 s as PGM), and the
/// suites rasterize about 400 PDFs; zbarimg reads both the same.
public func decodedQRCodes(
    in file: String, scratch: Scratch, pages: ClosedRange<Int>? = nil,
    resolution: Int = 150
) throws -> [String] {
    var images = [file]
    if file.hasSuffix(".pdf") {
        let name = "page-\(UUID().uuidString)"
        var arguments = ["-r", String(resolution), "-gray"]
        if let pages { arguments += ["-f", String(pages.lowerBound), "-l", String(pages.upperBound)] }
        let raster = try Tool.external("pdftoppm", arguments + [file, scratch.path(name)])
        try #require(raster.status == 0, "pdftoppm failed: \(raster.stderr)")
        images = try FileManager.default.contentsOfDirectory(atPath: scratch.url.path)
            .filter { $0.hasPrefix(name) && $0.hasSuffix(".pgm") }.sorted().map { scratch.path($0) }
    }
    return try images.map { image in
        let result = try Tool.external("zbarimg", zbarimgQRCodeOptions + [image])
        try #require(result.status == 0, "zbarimg found no code in \(image)")
        return result.stdout
    }
}
