import Foundation
import TestSupport
import Testing

extension SharedServerTests {
    /// The attestation routes' refusals: a French page for a browser, text for scripts, the same status.
    @Suite struct ErrorPageTests {
        static let browser = ["-H", "Accept: text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"]

        @Test func aBrowserGetsAReadablePageWithTheSameStatus() throws {
            let s = try SharedServer.get()
            var flipped = Array(s.eloise)
            flipped[flipped.count / 2] = flipped[flipped.count / 2] == "A" ? "B" : "A"
            let cases: [(String, Int, String)] = [
                (s.server.url("/attestation.pdf", token: String(flipped)), 403, "Lien non valable"),
                (
                    s.server.url("/attestation.png", token: try s.site.expiredToken(.maxime)), 410,
                    "Lien expiré ou révoqué"
                ),
                (s.server.url("/attestation.pdf", token: s.eloise, "offset=-9999"), 400, "Demande incorrecte"),
            ]
            for (url, status, title) in cases {
                let page = try curl(url, Self.browser)
                let text = try curl(url)
                #expect(
                    page.status == status && text.status == status, "\(url.suffix(30)): \(page.status) \(text.status)")
                #expect(page.header("Content-Type") == "text/html; charset=utf-8")
                #expect(page.header("Cache-Control") == "no-store")
                #expect(page.header("Content-Security-Policy")?.contains("default-src 'self'") == true)
                #expect(page.text.contains("<h1>\(title)</h1>"), "\(page.text)")
                #expect(page.text.contains("Que faire ?"))
                let message = text.text.trimmingCharacters(in: .newlines).replacingOccurrences(of: "'", with: "&#39;")
                #expect(page.text.contains(message), "the server's own message is on the page")
                #expect(text.header("Content-Type") == "text/plain; charset=utf-8", "scripts keep the text")
                #expect(!page.text.contains("Votre administrateur :"), "no contact configured")
            }
            // A valid link with a wrong parameter leads to the person's page; an altered one does not.
            let wrong = try curl(s.server.url("/attestation.pdf", token: s.eloise, "offset=-9999"), Self.browser)
            #expect(wrong.text.contains("href=\"/?t=\(s.eloise)\""))
            #expect(!(try curl(cases[0].0, Self.browser)).text.contains("href=\"/?t="))
        }
    }
}
