import Foundation
import TestSupport
import Testing

extension SharedServerTests {
    /// `/api/v1/manifest`: the home-screen app of one person.
    @Suite struct PersonalManifestTests {
        @Test func theManifestOpensThePersonsPage() throws {
            let s = try SharedServer.get()
            let r = try curl(s.server.url("/api/v1/manifest", token: s.eloise))
            try #require(r.status == 200, "\(r.status) \(r.text)")
            #expect(r.header("Content-Type") == "application/manifest+json")
            #expect(r.header("Cache-Control") == "no-store")
            let json = try r.json()
            #expect(json["start_url"] as? String == "/?t=\(s.eloise)")
            #expect(json["id"] as? String == "/?t=\(s.eloise)")
            #expect(json["scope"] as? String == "/")
            #expect(json["name"] as? String == "Attestation – Éloïse")
            #expect(json["short_name"] as? String == "Éloïse")
            #expect((json["icons"] as? [[String: Any]])?.count == 4)
            #expect(!r.text.contains("Quimperl"), "the first name only")
            let altered = try curl(s.server.url("/api/v1/manifest", token: String(s.eloise.dropLast(10))))
            #expect(altered.status == 403)
            #expect(altered.header("Content-Type") == "application/json")
        }
    }
}
