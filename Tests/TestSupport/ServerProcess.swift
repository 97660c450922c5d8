import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The built `attestation-server`, started on a free port (`--port 0`) with a configuration and
/// JSON logs (`--log-format json`). It learns the port from the server's readiness line (the one
/// JSON object it writes on standard output); its standard error (the log, one JSON record a
/// line) goes to a file that `logText` and `logRecords` read back.
/// The process is always killed when this object goes away, so no test leaves a server behind.
/// Its state is the `Process`, read-only once started (Foundation updates it on its own thread).
public final class ServerProcess: @unchecked Sendable {
    /// `http://127.0.0.1:PORT` (no trailing slash).
    public let baseURL: String
    public let port: Int
    public let processIdentifier: Int32
    /// Where standard error is written.
    public let logFile: URL
    private let outputs: URL
    private let process: Process

    public struct StartFailure: Error, CustomStringConvertible {
        public let description: String
    }

    /// Starts the server and waits, at most `timeout` seconds, for its listening line.
    /// - Parameter workingDirectory: where the server runs; by default the tests' own.
    public init(config: String, arguments: [String] = [], workingDirectory: URL? = nil, timeout: Double = 60) throws {
        outputs = FileManager.default.temporaryDirectory.appendingPathComponent("server-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: outputs, withIntermediateDirectories: true)
        logFile = outputs.appendingPathComponent("stderr.log")
        let stdoutFile = outputs.appendingPathComponent("stdout.log")
        _ = FileManager.default.createFile(atPath: logFile.path, contents: nil)
        _ = FileManager.default.createFile(atPath: stdoutFile.path, contents: nil)
        let out = try FileHandle(forWritingTo: stdoutFile)
        let err = try FileHandle(forWritingTo: logFile)
        defer {
            try? out.close()
            try? err.close()
        }

        let process = Process()
        process.executableURL = Tool.server
        process.arguments = ["--config", config, "--port", "0", "--log-format", "json"] + arguments
        process.standardInput = FileHandle.nullDevice
        if let workingDirectory { process.currentDirectoryURL = workingDirectory }
        process.standardOutput = out
        process.standardError = err
        try process.run()
        processIdentifier = process.processIdentifier
        self.process = process

        let deadline = Date().addingTimeInterval(timeout)
        var ready: (url: String, port: Int)?
        while ready == nil {
            let text = String(decoding: (try? Data(contentsOf: stdoutFile)) ?? Data(), as: UTF8.self)
            if let line = text.split(separator: "\n").first,
                let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                object["event"] as? String == "listening", let url = object["url"] as? String,
                let port = object["port"] as? Int
            {
                ready = (url, port)
            } else if !process.isRunning || Date() >= deadline {
                let log = String(decoding: (try? Data(contentsOf: logFile)) ?? Data(), as: UTF8.self)
                Glibc.kill(process.processIdentifier, SIGKILL)
                process.waitUntilExit()
                try? FileManager.default.removeItem(at: outputs)
                throw StartFailure(
                    description:
                        "attestation-server did not start (status \(process.terminationStatus)); stdout: \(text); stderr: \(log)"
                )
            } else {
                usleep(10_000)
            }
        }
        var url = ready!.url
        if url.hasSuffix("/") { url.removeLast() }
        self.baseURL = url
        self.port = ready!.port
    }

    deinit {
        if process.isRunning { Glibc.kill(process.processIdentifier, SIGKILL) }
        // Also when it has ended: Foundation's Process frees its bookkeeping only then.
        process.waitUntilExit()
        try? FileManager.default.removeItem(at: outputs)
    }

    /// Everything written on standard error so far.
    public var logText: String {
        String(decoding: (try? Data(contentsOf: logFile)) ?? Data(), as: UTF8.self)
    }

    public var isRunning: Bool { process.isRunning }

    public func signal(_ signal: Int32) {
        if process.isRunning { _ = Glibc.kill(process.processIdentifier, signal) }
    }

    /// SIGHUP: reload.
    public func hangUp() { signal(SIGHUP) }

    /// SIGTERM: graceful stop.
    public func terminate() { signal(SIGTERM) }

    /// SIGKILL.
    public func kill() { signal(SIGKILL) }

    /// The exit status, or nil when the server is still running after `timeout` seconds.
    public func waitForExit(timeout: Double) -> Int32? {
        let deadline = Date().addingTimeInterval(timeout)
        while isRunning {
            if Date() >= deadline { return nil }
            usleep(5_000)
        }
        process.waitUntilExit()
        return process.terminationStatus
    }

    /// Sends SIGHUP and waits, at most `timeout` seconds, for the server to log the outcome:
    /// true when it reloaded, false when it refused the new configuration (or said nothing).
    @discardableResult
    public func reload(timeout: Double = 20) -> Bool {
        let before = reloadOutcomes()
        hangUp()
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            let now = reloadOutcomes()
            if now.reloaded > before.reloaded { return true }
            if now.refused > before.refused { return false }
            usleep(10_000)
        }
        Issue.record("the server logged no reload outcome within \(timeout) s after SIGHUP")
        return false
    }

    private func reloadOutcomes() -> (reloaded: Int, refused: Int) {
        let messages = logRecords.compactMap { $0["message"] as? String }
        return (
            messages.filter { $0 == "configuration reloaded" }.count,
            messages.filter { $0.hasPrefix("reload refused") }.count
        )
    }

    /// The log's records so far, each a JSON object (`message`, `level`, `time` and the
    /// metadata); a line that is not JSON (a sanitizer's report) is given as `{"text": line}`.
    public var logRecords: [[String: Any]] {
        logText.split(separator: "\n").map { line in
            (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any] ?? ["text": String(line)]
        }
    }

    /// The access-log records of answered requests, optionally of one route and status.
    public func requests(route: String? = nil, status: Int? = nil) -> [[String: Any]] {
        logRecords.filter {
            $0["message"] as? String == "request" && (route == nil || $0["route"] as? String == route)
                && (status == nil || $0["status"] as? Int == status)
        }
    }

    /// Waits, at most `timeout` seconds, for a record that `matches`.
    public func waitForRecord(timeout: Double = 20, _ matches: ([String: Any]) -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if logRecords.contains(where: matches) { return true }
            usleep(10_000)
        }
        return false
    }

    /// Waits, at most `timeout` seconds, for the access log to show a request of that route and status.
    public func waitForRequest(route: String, status: Int, timeout: Double = 20) -> Bool {
        waitForRecord(timeout: timeout) {
            $0["message"] as? String == "request" && $0["route"] as? String == route && $0["status"] as? Int == status
        }
    }

    /// Waits, at most `timeout` seconds, for the log to hold `text`.
    public func waitForLog(_ text: String, timeout: Double = 20) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if logText.contains(text) { return true }
            usleep(10_000)
        }
        return false
    }
}
