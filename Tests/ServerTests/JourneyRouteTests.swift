import Foundation
import TestSupport
import Testing

extension Requests {
    /// `/api/v1/template`: what the personal page needs to make attestations offline.
    @Suite struct OfflineTemplateRoute {
        @Test func theTemplateHoldsThePDFAndWhereEachVariablePartGoes() throws {
            let s = try SharedServer.get()
            let r = try curl(s.server.url("/api/v1/template", token: s.eloise))
            try #require(r.status == 200, "\(r.status) \(r.text)")
            #expect(r.header("Content-Type") == "application/json")
            #expect(r.header("Cache-Control") == "no-store")
            let json = try r.json()
            // For « Montrer à l’agent »: the name as the PDF prints it, not as the QR code folds it.
            #expect(json["fullName"] as? String == "Éloïse Quimperlé")
            let base64 = try #require(json["pdf"] as? String)
            let pdf = [UInt8](try #require(Data(base64Encoded: base64)))
            #expect(pdf.starts(with: Array("%PDF-".utf8)))
            func span(_ name: String) throws -> String {
                let object = try #require(json[name] as? [String: Int], "\(name)")
                let offset = try #require(object["offset"])
                let length = try #require(object["length"])
                return String(decoding: pdf[offset..<offset + length], as: UTF8.self)
            }
            // The placeholders as libharu escapes them in a PDF string, and the metadata's date.
            let texts = try #require(json["texts"] as? [[String: Any]])
            var printed: [String: String] = [:]
            for text in texts {
                let offset = try #require(text["offset"] as? Int)
                let length = try #require(text["length"] as? Int)
                printed[try #require(text["value"] as? String)] = String(
                    decoding: pdf[offset..<offset + length], as: UTF8.self)
            }
            #expect(printed == ["exitDate": "00\\05700\\0570000", "exitTime": "00:00"], "\(printed)")
            #expect(try span("creationDate").hasPrefix("D:"))
            #expect(try span("creationDate").count == 23)
            let marks = try #require(json["marks"] as? [[String: Any]])
            #expect(marks.count == 9)
            for mark in marks {
                let offset = try #require(mark["offset"] as? Int)
                #expect(pdf[offset..<offset + 6].elementsEqual("(x) Tj".utf8))
            }
            let qr = try #require(json["qr"] as? [String: Int])
            #expect(qr["modules"] == 17 + 4 * (qr["version"] ?? 0))
            #expect(qr["length"] == (qr["bytesPerRow"] ?? 0) * (qr["modules"] ?? 0) * (qr["scale"] ?? 0))
            let payload = try #require(json["payload"] as? [[String: String]])
            let text = payload.compactMap { $0["text"] }.joined()
            #expect(text.contains("Nom: Quimperle;"), "the person's values folded by the server: \(text)")
            #expect(
                Set(payload.compactMap { $0["value"] }) == [
                    "creationDate", "creationTimeH", "exitDate", "exitTime", "reasons",
                ])
            #expect((json["reasons"] as? [String])?.count == 9)
            #expect(json["timeZone"] as? String == "Europe/Paris")
            // A week offline at most: the link expires in 30 days.
            let until = try #require(
                (json["offlineUntil"] as? String).flatMap { ISO8601DateFormatter().date(from: $0) })
            #expect(abs(until.timeIntervalSinceNow - 7 * 24 * 3600) < 120, "\(until)")

            let locked = try curl(s.server.url("/api/v1/template", token: s.locked)).json()
            #expect(locked["reasons"] as? [String] == ["sante"], "a locked link's template prints its own reasons only")
        }

        /// A link expiring in two days: its template serves offline until then, not for the week
        /// a template otherwise serves (the link's own 410 cannot reach a page offline).
        @Test func aTemplateServesOfflineNoLongerThanItsLinkIsValid() throws {
            let s = try SharedServer.get()
            let token = try s.site.mint(.yasmine, reasons: ["sante"], ["--expires", "2d"])
            let r = try curl(s.server.url("/api/v1/template", token: token))
            try #require(r.status == 200, "\(r.status) \(r.text.prefix(300))")
            let json = try r.json()
            func date(_ key: String) throws -> Date {
                try #require(
                    (json[key] as? String).flatMap { ISO8601DateFormatter().date(from: $0) },
                    "\(key): \(json[key] ?? "missing")")
            }
            let expires = try date("expires")
            #expect(abs(expires.timeIntervalSinceNow - 2 * 24 * 3600) < 120, "minted with --expires 2d: \(expires)")
            let until = try date("offlineUntil")
            #expect(until == expires, "offlineUntil \(until), the link expires \(expires)")
        }

        @Test func aRefusedLinkGetsNoTemplate() throws {
            let s = try SharedServer.get()
            for (token, status) in [(String(s.eloise.dropLast(10)), 403), (try s.site.expiredToken(.maxime), 410)] {
                let r = try curl(s.server.url("/api/v1/template", token: token))
                #expect(r.status == status, "\(r.text)")
                #expect(r.header("Content-Type") == "application/json")
                #expect(!r.text.contains("pdf"))
            }
        }
    }

    /// `/api/v1/manifest`: the home-screen app of one person.
    @Suite struct PersonalManifest {
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

    /// The attestation routes' refusals: a French page for a browser, text for scripts, the same status.
    @Suite struct ErrorPages {
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

/// The administrator's contact on the error pages, from the configuration's `contact`.
@Suite struct ErrorPageContact {
    @Test func theContactOfTheConfigurationIsShownEscaped() throws {
        let site = try TestSite()
        try site.editConfig { $0["contact"] = "Marie <marie@example.org>, 06 12 34 56 78" }
        let token = try site.mint(.eloise)
        try site.revoke(token)
        let server = try ServerProcess(config: site.config)
        defer {
            server.terminate()
            _ = server.waitForExit(timeout: 20)
        }
        let page = try curl(server.url("/attestation.pdf", token: token), Requests.ErrorPages.browser)
        #expect(page.status == 410)
        #expect(
            page.text.contains(
                "Votre administrateur : <strong>Marie &lt;marie@example.org&gt;, 06 12 34 56 78</strong>"),
            "\(page.text)")
    }

    @Test func aContactOnSeveralLinesIsRefused() throws {
        let site = try TestSite()
        try site.editConfig { $0["contact"] = "Marie\nMartin" }
        let result = try Tool.run(Tool.server, ["--config", site.config, "--check-config"], timeout: 30)
        #expect(result.status == 78)
        #expect(result.stderr.contains("contact"), "\(result.stderr)")
    }
}
