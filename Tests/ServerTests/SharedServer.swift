import Foundation
import TestSupport
import Testing

/// One server for a whole suite: started before its first test, stopped (SIGTERM, exit 0
/// expected) after its last, its log then checked for personal data. The tests reach it
/// through `SharedServer.current`.
final class SharedServer: Sendable {
    @TaskLocal static var current: SharedServer?

    let site: TestSite
    let server: ServerProcess
    /// Éloïse's link: travail, expires in 30 days.
    let eloise: String
    /// Maximilien's link: santé, reasons locked.
    let locked: String

    init() throws {
        site = try TestSite(server: ["maxConnectionsPerAddress": 512, "shutdownTimeout": 5])
        eloise = try site.mint(.eloise, reasons: ["travail"], ["--expires", "30d"])
        locked = try site.mint(.maxime, reasons: ["sante"], ["--lock-reasons"])
        server = try ServerProcess(config: site.config)
    }

    static func get(sourceLocation: SourceLocation = #_sourceLocation) throws -> SharedServer {
        try #require(
            current, "no shared server: the suite needs the .sharedServer trait", sourceLocation: sourceLocation)
    }

    var secrets: [String] { site.secrets.withLock { $0 } }

    /// SIGTERM: the server must exit 0 (no sanitizer report either) and have logged nothing
    /// personal.
    func finish() {
        server.terminate()
        let status = server.waitForExit(timeout: 20)
        let log = server.logText
        #expect(
            status == 0,
            "the shared server did not stop cleanly (status \(status.map(String.init) ?? "still running")): \(log.suffix(3000))"
        )
        #expect(!log.contains("Sanitizer"), "sanitizer report in the server's log: \(log.suffix(6000))")
        expectLogHoldsNoSecrets(log, secrets: secrets)
    }
}

struct SharedServerTrait: SuiteTrait, TestScoping {
    func provideScope(
        for test: Test, testCase: Test.Case?,
        performing function: @Sendable () async throws -> Void
    ) async throws {
        let shared = try SharedServer()
        try await SharedServer.$current.withValue(shared) {
            try await function()
        }
        shared.finish()
    }
}

extension Trait where Self == SharedServerTrait {
    /// The suite's tests share one running server.
    static var sharedServer: Self { Self() }
}

/// Requests to one shared server, one test at a time: the nested suites are in extensions.
@Suite(.serialized, .sharedServer)
struct Requests {}
