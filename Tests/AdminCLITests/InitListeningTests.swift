import Foundation
import TestSupport
import Testing

@Suite struct InitListeningTests {
    /// A base URL on this machine is the server itself: it must listen there, as the server's
    /// own check of the configuration says. Before, it stayed on 8080.
    @Test(arguments: [
        ("http://127.0.0.1:18437", "127.0.0.1", 18437), ("http://localhost:18438/", "127.0.0.1", 18438),
        ("http://127.0.0.2:18439", "127.0.0.2", 18439),
    ])
    func aLoopbackBaseURLSetsWhereTheServerListens(baseURL: String, host: String, port: Int) throws {
        let scratch = try initializedSite(baseURL: baseURL)
        let said = try Tool.admin(["keygen", "--key-id", "k2"], in: scratch.url)
        #expect(said.status == 0, "the configuration stays usable: \(said.stderr)")
        let check = try Tool.run(Tool.server, ["--config", scratch.path("config.json"), "--check-config"])
        #expect(check.status == 0, "\(check.stderr)")
        #expect(check.stdout.contains("écoute : http sur \(host):\(port)"), "\(check.stdout)")
    }

    @Test func initSaysWhereTheServerWillListen() throws {
        let scratch = try Scratch()
        let result = try Tool.admin(["init", "--base-url", "http://127.0.0.1:18437"], in: scratch.url)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("Le serveur écoutera sur http://127.0.0.1:18437/"), "\(result.stdout)")
        let server = try #require(try siteConfiguration(scratch)["server"] as? [String: Any])
        #expect(server["port"] as? Int == 18437)
    }

    /// An https address is a proxy's: the server keeps its defaults, written nowhere (scripts
    /// append their own `server` object), and init says where the proxy must reach it.
    @Test(arguments: ["https://attestation.example.org", "http://127.0.0.1:8080", "http://attestation.lan:8080"])
    func otherAddressesKeepTheDefaultListener(baseURL: String) throws {
        let scratch = try Scratch()
        let result = try Tool.admin(["init", "--base-url", baseURL], in: scratch.url)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try siteConfiguration(scratch)["server"] == nil)
        #expect(result.stdout.contains("Le serveur écoutera sur http://127.0.0.1:8080/"), "\(result.stdout)")
    }
}
