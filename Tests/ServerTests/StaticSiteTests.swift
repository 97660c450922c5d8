import AttestationKit
import FormSchema
import Foundation
import TestSupport
import Testing

extension SharedServerTests {
    /// The static site: its files, and nothing else, however the path is written.
    @Suite struct StaticSiteTests {
        @Test func filesOfTheSiteAreServed() throws {
            let s = try SharedServer.get()
            let home = try curl(s.server.baseURL + "/")
            #expect(home.status == 200)
            #expect(home.text.contains("page d’accueil du site de test"))
            #expect(home.header("Content-Type") == "text/html; charset=utf-8")
            #expect(home.header("X-Frame-Options") == "DENY")
            #expect(home.header("Content-Security-Policy")?.contains("default-src 'self'") == true)
            #expect(try curl(s.server.baseURL + "/index.html").text == home.text)
            let personal = try curl(s.server.url("/", token: s.eloise))
            #expect(personal.status == 200, "the personal page is the site's index with ?t=")
            #expect(try curl(s.server.baseURL + "/docs/").text.contains("index des docs"))
            let note = try curl(s.server.baseURL + "/sub/note.txt")
            #expect(note.status == 200)
            #expect(note.text == "fichier de test\n")

            let etag = try #require(home.header("ETag"))
            let cached = try curl(s.server.baseURL + "/", ["-H", "If-None-Match: \(etag)"])
            #expect(cached.status == 304)
            #expect(cached.body.isEmpty)
        }

        @Test func unknownPathsAre404() throws {
            let s = try SharedServer.get()
            for path in [
                "/nothing", "/attestation.jpg", "/attestation.pdf/", "/api/v1/nothing", "/healthz/x", "/index.htm",
            ] {
                let r = try curl(s.server.baseURL + path)
                #expect(r.status == 404, "\(path): \(r.status)")
            }
            let api = try curl(s.server.baseURL + "/api/v2/link")
            #expect(api.header("Content-Type") == "application/json", "errors under /api/ are JSON")
            #expect((try api.json()["error"] as? String) != nil)
        }

        @Test func aDirectoryWithoutIndexIsNotListed() throws {
            let s = try SharedServer.get()
            for path in ["/sub/", "/sub", "/sub//", "/docs"] {
                let r = try curl(s.server.baseURL + path, ["--path-as-is"])
                #expect(r.status == 404, "\(path): \(r.status)")
                #expect(!r.text.contains("note.txt"), "\(path): no listing")
            }
        }

        /// Nothing outside the site, whatever the encoding, and no link inside it leading out.
        @Test(arguments: [
            "/../config.json", "/%2e%2e/config.json", "/%252e%252e/config.json", "/..%2fconfig.json",
            "/%2e%2e%2fconfig.json",
            "/Public/../config.json", "/site/../config.json", "/sub/../../config.json", "/./../config.json",
            "/..\\config.json", "/%5c..%5cconfig.json", "//config.json", "/config.json", "/config.json%00.html",
            "/keys/k1.key", "/../keys/k1.key", "/%2e%2e/keys/k1.key", "/sub/key.txt", "/revoked.txt", "/../revoked.txt",
            "/../../../../etc/passwd", "/%2e%2e/%2e%2e/%2e%2e/%2e%2e/etc/passwd",
        ])
        func traversalNeverReachesTheConfigurationOrTheKey(path: String) throws {
            let s = try SharedServer.get()
            let r = try curl(s.server.baseURL + path, ["--path-as-is"])
            #expect(r.curlExit == 0, "\(r.curlError)")
            #expect([400, 404].contains(r.status), "\(path): \(r.status)")
            for secret in ["publicKey", "revocationList", "privateKey", "ed25519", "root:"] {
                #expect(!r.text.contains(secret), "\(path) served \(secret)")
            }
        }

        @Test func linksLeadingOutOfTheSiteAreLeftOutAndLogged() throws {
            let s = try SharedServer.get()
            let leftOut = s.server.logRecords.filter {
                ($0["message"] as? String)?.hasPrefix("static file left out") == true
            }
            .compactMap { $0["path"] as? String }
            #expect(leftOut.contains("/config.json"), "\(s.server.logText.prefix(2000))")
            #expect(leftOut.contains("/sub/key.txt"))
        }
    }
}
