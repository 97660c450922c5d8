import Foundation
import TestSupport
import Testing

/// The server carries its site: started from an empty folder with a configuration that names no
/// site, as in a container or under systemd, it serves the personal page.
@Suite struct BuiltInSiteTests {
    @Test func theServerServesThePersonalPageFromAnyFolder() throws {
        let site = try TestSite()
        try site.editConfig { config in
            var server = config["server"] as? [String: Any] ?? [:]
            server["publicDirectory"] = nil
            config["server"] = server
        }
        let token = try site.mint(.eloise)
        let empty = try Scratch(prefix: "empty-working-directory")
        let check = try Tool.run(Tool.server, ["--config", site.config, "--check-config"], in: empty.url, timeout: 30)
        #expect(check.status == 0, "\(check.stderr)")
        #expect(check.stdout.contains("site statique : intégré au serveur"), "\(check.stdout)")
        let server = try ServerProcess(config: site.config, workingDirectory: empty.url)
        let page = try curl(server.url("/", token: token))
        #expect(page.status == 200)
        #expect(page.text.contains("<html"), "\(page.text.prefix(200))")
        for path in ["/app.js", "/app.css", "/sw.js", "/manifest.webmanifest", "/icones/icone-192.png"] {
            #expect(try curl(server.baseURL + path).status == 200, "\(path)")
        }
        server.terminate()
        #expect(server.waitForExit(timeout: 20) == 0)
    }

    /// A site named explicitly must be there, with its index: else 78, naming it.
    @Test func aNamedSiteWithoutIndexIsRefused() throws {
        let site = try TestSite()
        try FileManager.default.removeItem(atPath: site.scratch.path("site/index.html"))
        let r = try Tool.run(Tool.server, ["--config", site.config, "--check-config"], timeout: 30)
        #expect(r.status == 78, "\(r.stderr)")
        #expect(r.stderr.contains("server.publicDirectory") && r.stderr.contains("index.html"), "\(r.stderr)")
        let option = try Tool.run(
            Tool.server, ["--config", site.config, "--check-config", "--public-directory", "/nulle/part"],
            timeout: 30)
        #expect(option.status == 78)
        #expect(option.stderr.contains("/nulle/part"), "\(option.stderr)")
    }
}
