import AttestationConfiguration
import AttestationKit
import AttestationService
import FormSchema
import Foundation
import TestSupport
import Testing

private let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()
private let checkoutExample = root.appendingPathComponent("config.example.json")

/// The example as an administrator would install it: in a directory of its own, beside the
/// revocation list it names (required).
private let example: URL = {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("config-example-\(UUID().uuidString)")
    try! FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    try! FileManager.default.copyItem(at: checkoutExample, to: directory.appendingPathComponent("config.json"))
    try! Data("# aucune révocation\n".utf8).write(to: directory.appendingPathComponent("revoked.txt"))
    return directory.appendingPathComponent("config.json")
}()

/// `config.example.json` shows every option at its default. These tests tie it to the code, so a
/// new option, a changed default or a renamed key breaks them until the file and docs/configuration.md follow.
@Suite struct ConfigExampleTests {
    @Test func loadsThroughTheServersOwnLoader() throws {
        let state = try ServiceState.load(configurationFile: example)
        #expect(state.keys.keys.count == 1)
        #expect(state.revoked.ids.isEmpty, "revoked.txt holds a comment only: no link revoked")
        #expect(
            state.catalog.forms.map(\.id) == FormCatalog.builtIn.forms.map(\.id),
            "forms/ is absent: the built-in forms only")

        let snapshot = try ServiceSnapshot.load(configurationFile: example)
        #expect(snapshot.publicFiles.files["/index.html"] != nil, "the built-in site")
        #expect(snapshot.siteOrigin == "intégré au serveur")
    }

    @Test func everyValueIsTheDefault() throws {
        let configuration = try ServiceState.load(configurationFile: example).configuration
        let server = try #require(configuration.server)
        #expect(server.resolved == ServerSettings.defaults)
        #expect(configuration.offsetBounds == .standard)
        // Each server key is written out, not left to its default (tls and publicDirectory have none).
        let unset = Mirror(reflecting: server).children.filter { "\($0.value)" == "nil" }.compactMap(\.label)
        #expect(unset == ["publicDirectory", "tls"], "keys missing from the example's server object: \(unset)")
    }

    /// What `attestation-admin init` writes, apart from the address and the key, is the example.
    @Test func matchesWhatInitWrites() throws {
        let scratch = try Scratch(prefix: "config-example")
        let written = try Tool.admin(["init", "--config", scratch.path("config.json")])
        try #require(written.status == 0, "\(written.stderr)")
        let initialised = try jsonObject(URL(fileURLWithPath: scratch.path("config.json")))
        let shown = try jsonObject(example)
        for key in ["signingKey", "revocationList", "formsDirectory"] {
            #expect(initialised[key] as? String == shown[key] as? String, "\(key)")
        }
        #expect(
            NSDictionary(dictionary: initialised["offsetBounds"] as? [String: Any] ?? [:])
                .isEqual(to: shown["offsetBounds"] as? [String: Any] ?? [:]))
    }

    /// Every key the configuration types can encode is in the example, and the tables of
    /// docs/configuration.md name every key of the example.
    @Test func showsEveryKeyAndTheConfigurationPageDocumentsThem() throws {
        let everything = Configuration(
            baseURL: "https://a.example", keys: [.init(id: "k", publicKey: "p")], signingKey: "s", revocationList: "r",
            formsDirectory: "f", offsetBounds: .standard,
            server: {
                var server = ServerSettings()
                server.host = "h"
                server.port = 1
                server.threads = 1
                server.maxConnections = 1
                server.maxConnectionsPerAddress = 1
                server.connectionTimeout = 1
                server.maxRequestBytes = 1
                server.shutdownTimeout = 1
                server.publicDirectory = "p"
                server.logLevel = .info
                server.logFormat = .json
                server.reloadOnChange = false
                server.metricsFrom = ["::1"]
                server.tls = .init(certificate: "c", privateKey: "k")
                return server
            }(), contact: "c", calendar: [.init(from: "2020-10-17T00:00", forms: ["f"])])
        // A key added to the types but not to `everything` above would be nil and go unseen.
        let serverFields = Mirror(reflecting: everything.server!).children
        #expect(serverFields.allSatisfy { "\($0.value)" != "nil" }, "set every ServerSettings field above")
        #expect(
            Mirror(reflecting: everything).children.allSatisfy { "\($0.value)" != "nil" },
            "set every Configuration field above")

        let encoded = try JSONSerialization.jsonObject(with: JSONEncoder().encode(everything))
        let shown = try JSONSerialization.jsonObject(with: Data(contentsOf: example))
        var codePaths = keyPaths(encoded)
        // `tls` is null in the example: it has no default, and setting it needs certificate files.
        codePaths.subtract(["server.tls.certificate", "server.tls.privateKey"])
        // `calendar` is null in the example: the official calendar.
        codePaths.subtract(["calendar.from", "calendar.forms"])
        #expect(keyPaths(shown) == codePaths)

        let page = try String(contentsOf: root.appendingPathComponent("docs/configuration.md"), encoding: .utf8)
        for path in keyPaths(shown) {
            let key = path.split(separator: ".").last.map(String.init) ?? path
            guard !["minimum", "maximum", "id", "publicKey"].contains(key) else { continue }
            #expect(page.contains("| `\(key)` |"), "docs/configuration.md has no table row for \(path)")
        }
    }

    /// Beside its revocation list the example is valid; without it, the server refuses to start.
    @Test func theServerRefusesItWithoutItsRevocationList() throws {
        let scratch = try Scratch(prefix: "config-example-alone")
        try FileManager.default.copyItem(atPath: checkoutExample.path, toPath: scratch.path("config.json"))
        let result = try Tool.run(
            Tool.server, ["--config", scratch.path("config.json"), "--check-config"], timeout: 30)
        #expect(result.status == 78, "\(result.stderr)")
        #expect(result.stderr.contains("revoked.txt") && result.stderr.contains("introuvable"), "\(result.stderr)")
    }

    /// The timeout guards against a hang, it judges no speed: 3.5 s alone under the address
    /// sanitizer, and over 30 s in a make test that reused its builds (issue 39), where
    /// Debian 13's Swift suite ran beside this one.
    @Test func theServerAcceptsItAsIs() throws {
        let result = try Tool.run(Tool.server, ["--config", example.path, "--check-config"], timeout: 180)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("écoute : http sur 127.0.0.1:8080, un thread par cœur"), "\(result.stdout)")
        #expect(result.stdout.contains("décalage accepté : de -180 à +1440 minutes"), "\(result.stdout)")
    }
}

private func jsonObject(_ url: URL) throws -> [String: Any] {
    try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
}

/// `server.port`, `keys.id`…: the dotted path of every key, arrays looked through.
private func keyPaths(_ value: Any, prefix: String = "") -> Set<String> {
    if let object = value as? [String: Any] {
        return object.reduce(into: []) { paths, entry in
            let path = prefix.isEmpty ? entry.key : "\(prefix).\(entry.key)"
            paths.insert(path)
            paths.formUnion(keyPaths(entry.value, prefix: path))
        }
    }
    if let array = value as? [Any] { return array.reduce(into: []) { $0.formUnion(keyPaths($1, prefix: prefix)) } }
    return []
}
