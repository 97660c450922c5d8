import Foundation
import TestSupport
import Testing

/// Reloads, configuration checks and start-up failures, each with a server of its own.
@Suite struct LifecycleTests {
    @Test func aBrokenConfigurationOnReloadKeepsTheOldOneAndAFixedOneApplies() throws {
        let site = try TestSite()
        let revoked = try site.mint(.yasmine)
        let kept = try site.mint(.eloise)
        let server = try ServerProcess(config: site.config)
        let pdf = { (token: String) in try curl(server.url("/attestation.pdf", token: token)).status }
        #expect(try pdf(revoked) == 200)
        #expect(try curl(server.baseURL + "/new.txt").status == 404)

        let good = try Data(contentsOf: URL(fileURLWithPath: site.config))
        try site.revoke(revoked)
        try Data("fichier ajouté\n".utf8).write(to: URL(fileURLWithPath: site.scratch.path("site/new.txt")))
        let unknownKey = String(decoding: good, as: UTF8.self).replacingOccurrences(
            of: "\"keys\"", with: "\"surprise\": 1, \"keys\"")
        for broken in [Data("{ \"baseURL\": ".utf8), Data(unknownKey.utf8)] {
            try broken.write(to: URL(fileURLWithPath: site.config))
            #expect(!server.reload(), "a broken configuration is refused")
            #expect(server.isRunning)
            #expect(try pdf(revoked) == 200, "the previous configuration (and its revocation list) stays in force")
            #expect(try pdf(kept) == 200)
            #expect(try curl(server.baseURL + "/new.txt").status == 404, "nor is the site reloaded")
            #expect(try curl(server.baseURL + "/healthz").status == 200)
        }
        #expect(server.logText.contains("surprise"), "the refusal names the unknown key: \(server.logText.suffix(800))")

        try good.write(to: URL(fileURLWithPath: site.config))
        #expect(server.reload(), "the fixed configuration is taken")
        #expect(try pdf(revoked) == 410, "the new revocation list applies")
        #expect(try pdf(kept) == 200)
        #expect(try curl(server.baseURL + "/new.txt").text == "fichier ajouté\n", "the site is reloaded")

        server.terminate()
        #expect(server.waitForExit(timeout: 20) == 0, "\(server.logText.suffix(3000))")
        expectLogHoldsNoSecrets(server.logText, secrets: site.secrets.withLock { $0 })
    }

    @Test func keyRotationOnReload() throws {
        let site = try TestSite()
        let old = try site.mint(.eloise)
        let server = try ServerProcess(config: site.config)
        let keygen = try Tool.admin(["keygen", "--config", site.config, "--key-id", "k2"])
        try #require(keygen.status == 0, "\(keygen.stderr)")
        let new = try site.mint(.maxime)
        #expect(try curl(server.url("/attestation.pdf", token: new)).status == 403, "k2 is not known before the reload")
        #expect(server.reload())
        #expect(try curl(server.url("/attestation.pdf", token: new)).status == 200)
        #expect(try curl(server.url("/attestation.pdf", token: old)).status == 200, "k1 links work until k1 is removed")

        try site.editConfig { config in
            config["keys"] = (config["keys"] as? [[String: Any]] ?? []).filter { $0["id"] as? String != "k1" }
        }
        #expect(server.reload())
        let ended = try curl(server.url("/attestation.pdf", token: old))
        #expect(ended.status == 403, "a removed key ends its links: \(ended.status)")
        #expect(ended.text.contains("clé inconnue"), "\(ended.text)")
        #expect(try curl(server.url("/attestation.pdf", token: new)).status == 200)
    }

    @Test func checkConfigAcceptsAGoodConfiguration() throws {
        let site = try TestSite()
        let r = try Tool.run(Tool.server, ["--config", site.config, "--check-config"], timeout: 30)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.contains("Configuration valide"), "\(r.stdout)")
        #expect(r.stdout.contains("deplacement-2020-11-28"))
    }

    @Test(arguments: [
        ("a port out of range", #"{"port": 70000}"#, ["server.port", "65535"]),
        ("an unknown server key", #"{"prot": 8080}"#, ["server.prot", "clé inconnue"]),
        ("a wrong type", #"{"threads": "deux"}"#, ["server.threads"]),
        ("a missing public directory", #"{"publicDirectory": "nowhere"}"#, ["server.publicDirectory"]),
        ("a bad log level", #"{"logLevel": "verbose"}"#, ["server.logLevel"]),
        ("a tiny request limit", #"{"maxRequestBytes": 100}"#, ["server.maxRequestBytes"]),
    ])
    func aBadServerObjectIsRefusedWith78(name: String, server: String, words: [String]) throws {
        let site = try TestSite()
        let text = try String(contentsOfFile: site.config, encoding: .utf8)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        var replaced = object
        replaced["server"] = try JSONSerialization.jsonObject(with: Data(server.utf8))
        try JSONSerialization.data(withJSONObject: replaced).write(to: URL(fileURLWithPath: site.config))
        for arguments in [["--check-config"], ["--port", "0"]] {
            let r = try Tool.run(Tool.server, ["--config", site.config] + arguments, timeout: 30)
            #expect(r.status == 78, "\(name) \(arguments): \(r.status) \(r.stderr)")
            for word in words { #expect(r.stderr.contains(word), "\(name): the message names \(word): \(r.stderr)") }
            #expect(!r.stdout.contains("listening"), "no readiness line: \(r.stdout)")
        }
    }

    /// The container image's case: the configuration on a volume, the site beside the binaries.
    @Test func publicDirectoryReplacesTheConfiguredSiteAndSurvivesAReload() throws {
        let site = try TestSite()
        let other = site.scratch.path("elsewhere")
        try FileManager.default.createDirectory(atPath: other, withIntermediateDirectories: true)
        try Data("<!doctype html><title>Autre</title><p>site de l’image</p>\n".utf8)
            .write(to: URL(fileURLWithPath: other + "/index.html"))

        let check = try Tool.run(
            Tool.server, ["--config", site.config, "--public-directory", other, "--check-config"], timeout: 30)
        #expect(check.status == 0, "\(check.stderr)")
        #expect(check.stdout.contains("site statique : \(other) ("), "\(check.stdout)")

        let server = try ServerProcess(config: site.config, arguments: ["--public-directory", other])
        #expect(try curl(server.baseURL + "/").text.contains("site de l’image"))
        #expect(try curl(server.baseURL + "/sub/note.txt").status == 404, "server.publicDirectory is not served")
        #expect(server.reload())
        #expect(try curl(server.baseURL + "/").text.contains("site de l’image"), "a reload keeps the option")

        let missing = try Tool.run(
            Tool.server,
            [
                "--config", site.config, "--public-directory", site.scratch.path("absent"),
                "--check-config",
            ], timeout: 30)
        #expect(missing.status == 78, "\(missing.status) \(missing.stderr)")
        #expect(missing.stderr.contains("--public-directory") && missing.stderr.contains("absent"), "\(missing.stderr)")
    }

    @Test func anUnknownTopLevelKeyOrAMissingFileIsRefusedWith78() throws {
        let site = try TestSite()
        try site.editConfig { $0["revocationLsit"] = "revoked.txt" }
        let r = try Tool.run(Tool.server, ["--config", site.config, "--check-config"], timeout: 30)
        #expect(r.status == 78)
        #expect(r.stderr.contains("revocationLsit") && r.stderr.contains("clé inconnue"), "\(r.stderr)")

        let missing = try Tool.run(
            Tool.server, ["--config", site.scratch.path("absent.json"), "--check-config"], timeout: 30)
        #expect(missing.status == 78)
        #expect(missing.stderr.contains("attestation-admin init"), "says how to create one: \(missing.stderr)")
    }

    @Test func aPortInUseIs69() throws {
        let site = try TestSite()
        let first = try ServerProcess(config: site.config)
        let r = try Tool.run(Tool.server, ["--config", site.config, "--port", String(first.port)], timeout: 30)
        #expect(r.status == 69, "\(r.status) \(r.stderr)")
        #expect(r.stderr.contains("déjà utilisé") && r.stderr.contains(String(first.port)), "\(r.stderr)")
        #expect(try curl(first.baseURL + "/healthz").status == 200, "the first server is untouched")
    }

    @Test(arguments: [["--port", "70000"], ["--log-level", "bavard"], ["--bogus"], ["--port", "huit"]])
    func badUsageIs64(arguments: [String]) throws {
        let site = try TestSite()
        let r = try Tool.run(Tool.server, ["--config", site.config] + arguments, timeout: 30)
        #expect(r.status == 64, "\(arguments): \(r.status) \(r.stderr)")
    }
}
