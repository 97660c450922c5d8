import Foundation
import HTTPServer
import TestSupport
import Testing

/// The built-in TLS speaks Mozilla's "intermediate" configuration and nothing older, checked with
/// a client that really offers what the server must refuse: gnutls-cli given one protocol, suite
/// family or group alone. (OpenSSL 3's client refuses TLS 1.0 by itself at its default security
/// level, so check-deploy's `openssl s_client -tls1_1` passed without reaching the server.)
@Suite struct TLSTests {
    /// What intermediate leaves out, each offered alone: the handshake must fail.
    static let refused: [(what: String, priority: String)] = [
        ("TLS 1.0", "NORMAL:-VERS-ALL:+VERS-TLS1.0"),
        ("TLS 1.1", "NORMAL:-VERS-ALL:+VERS-TLS1.1"),
        ("CBC suites", "NORMAL:-VERS-ALL:+VERS-TLS1.2:-CIPHER-ALL:+AES-128-CBC:+AES-256-CBC"),
        ("CCM suites", "NORMAL:-VERS-ALL:+VERS-TLS1.2:-CIPHER-ALL:+AES-128-CCM:+AES-256-CCM"),
        ("the group X448", "NORMAL:-VERS-ALL:+VERS-TLS1.3:-GROUP-ALL:+GROUP-X448"),
        ("the group P-521", "NORMAL:-VERS-ALL:+VERS-TLS1.3:-GROUP-ALL:+GROUP-SECP521R1"),
    ]

    /// What intermediate keeps: the handshake completes and the server answers.
    static let accepted: [(what: String, priority: String)] = [
        ("TLS 1.2, AES-128-GCM", "NORMAL:-VERS-ALL:+VERS-TLS1.2:-CIPHER-ALL:+AES-128-GCM"),
        ("TLS 1.2, ChaCha20-Poly1305", "NORMAL:-VERS-ALL:+VERS-TLS1.2:-CIPHER-ALL:+CHACHA20-POLY1305"),
        ("TLS 1.3, X25519", "NORMAL:-VERS-ALL:+VERS-TLS1.3:-GROUP-ALL:+GROUP-X25519"),
        ("TLS 1.3, P-256", "NORMAL:-VERS-ALL:+VERS-TLS1.3:-GROUP-ALL:+GROUP-SECP256R1"),
    ]

    @Test func onlyTheIntermediateProtocolsSuitesAndGroupsAreAccepted() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tls-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let made = try Tool.external(
            "openssl",
            [
                "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-days", "2",
                "-subj", "/CN=localhost", "-keyout", "key.pem", "-out", "cert.pem",
            ], in: directory)
        try #require(made.status == 0, "openssl: \(made.stderr)")
        var configuration = HTTPServerConfiguration.forTests(port: 0)
        configuration.tls = TLSCredentials(
            certificatePEM: try String(contentsOf: directory.appendingPathComponent("cert.pem"), encoding: .utf8),
            privateKeyPEM: try String(contentsOf: directory.appendingPathComponent("key.pem"), encoding: .utf8))
        let server = try HTTPServer(configuration: configuration, handler: HTTPServerTests.echo)
        defer { server.stop(gracePeriod: 1) }

        func handshake(_ priority: String) throws -> (completed: Bool, output: String) {
            let r = try Tool.external(
                "gnutls-cli", ["--insecure", "--priority", priority, "-p", String(server.port), "127.0.0.1"],
                timeout: 30)
            let output = r.stdout + r.stderr
            return (r.status == 0 && output.contains("Handshake was completed"), output)
        }
        for (what, priority) in Self.refused {
            let (completed, output) = try handshake(priority)
            #expect(!completed, "\(what) accepted: \(output.suffix(600))")
        }
        for (what, priority) in Self.accepted {
            let (completed, output) = try handshake(priority)
            #expect(completed, "\(what) refused: \(output.suffix(600))")
        }
    }
}
