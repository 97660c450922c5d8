import Foundation
import TestSupport
import Testing

/// A log level or format the server does not know is refused where it is written, with the
/// value and the names accepted: at start with 78, at a reload with the running configuration
/// kept.
@Suite struct UnknownLogSettingTests {
    static let cases = [
        ("logLevel", "verbose", "trace, debug, info, notice, warning, error, critical"),
        ("logFormat", "xml", "text, json"),
    ]

    @Test(arguments: cases)
    func aStartWithAnUnknownNameStopsWith78NamingTheAcceptedOnes(key: String, value: String, names: String) throws {
        let site = try TestSite(server: [key: value])
        for arguments in [["--check-config"], ["--port", "0"]] {
            let r = try Tool.run(Tool.server, ["--config", site.config] + arguments, timeout: 30)
            #expect(r.status == 78, "\(arguments): \(r.status) \(r.stderr)")
            for words in ["server.\(key)", "« \(value) »", names] {
                #expect(r.stderr.contains(words), "the message names \(words): \(r.stderr)")
            }
        }
    }

    @Test(arguments: cases)
    func aReloadWithAnUnknownNameKeepsTheRunningConfiguration(key: String, value: String, names: String) throws {
        let site = try TestSite()
        let token = try site.mint(.eloise)
        let server = try ServerProcess(config: site.config)
        try site.editConfig { config in
            var settings = config["server"] as? [String: Any] ?? [:]
            settings[key] = value
            config["server"] = settings
        }
        #expect(!server.reload())
        let health = try curl(server.baseURL + "/healthz").json()
        #expect(health["status"] as? String == "degraded")
        #expect(health["jsonPath"] as? String == "server.\(key)")
        let error = health["error"] as? String ?? ""
        #expect(error.contains("« \(value) »") && error.contains(names), "\(error)")
        // Still served, and still logged as before: JSON records at info level.
        #expect(try curl(server.url("/attestation.pdf", token: token)).status == 200)
        #expect(server.requests(route: "/attestation.pdf", status: 200).count == 1)
        server.terminate()
        #expect(server.waitForExit(timeout: 20) == 0)
    }
}
