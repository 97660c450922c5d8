import Foundation
import TestSupport
import Testing

/// Issue 22, item 5: with built-in TLS the server faces the network with no proxy to keep
/// `/metrics` inside, and it answered anyone. It now answers only `server.metricsFrom`
/// (loopback by default); everything else gets 403.
@Suite struct MetricsAccessTests {
    /// A self-signed certificate and its key, written into the site's directory.
    static func selfSigned(in site: TestSite) throws {
        let made = try Tool.external(
            "openssl",
            [
                "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-days", "2",
                "-subj", "/CN=127.0.0.1", "-keyout", site.scratch.path("key.pem"), "-out",
                site.scratch.path("cert.pem"),
            ])
        try #require(made.status == 0, "openssl: \(made.stderr)")
    }

    @Test func overBuiltInTLSMetricsAnswerOnlyTheAllowedAddresses() throws {
        let site = try TestSite(server: [
            "tls": ["certificate": "cert.pem", "privateKey": "key.pem"], "metricsFrom": ["127.0.0.1", "::1"],
        ])
        try Self.selfSigned(in: site)
        let server = try ServerProcess(config: site.config)
        #expect(server.baseURL.hasPrefix("https://"))
        // From 127.0.0.1: allowed. From 127.0.0.2, another address of this machine: refused.
        let allowed = try curl(server.baseURL + "/metrics", ["-k", "--interface", "127.0.0.1"])
        #expect(allowed.status == 200)
        #expect(allowed.text.contains("http_open_connections"))
        let refused = try curl(server.baseURL + "/metrics", ["-k", "--interface", "127.0.0.2"])
        #expect(refused.status == 403)
        #expect(refused.text.contains("server.metricsFrom"), "\(refused.text)")
        #expect(!refused.text.contains("http_open_connections"))
        // Only /metrics: the rest of the service answers every address.
        #expect(try curl(server.baseURL + "/healthz", ["-k", "--interface", "127.0.0.2"]).status == 200)
    }

    @Test func byDefaultLoopbackReadsTheMetrics() throws {
        let site = try TestSite()
        let server = try ServerProcess(config: site.config)
        #expect(try curl(server.baseURL + "/metrics", ["--interface", "127.0.0.2"]).status == 200)
    }

    @Test func anEntryThatIsNoAddressIsRefusedAtStart() throws {
        let site = try TestSite(server: ["metricsFrom": ["127.0.0.0/8", "prometheus.local"]])
        let checked = try Tool.run(Tool.server, ["--config", site.config, "--check-config"], timeout: 30)
        #expect(checked.status == 78)
        #expect(checked.stderr.contains("server.metricsFrom[1]"), "\(checked.stderr)")
        #expect(checked.stderr.contains("prometheus.local"), "\(checked.stderr)")
    }
}
