import Foundation
import TestSupport
import Testing

extension SharedServerTests {
    /// The attestation routes answering real links: the documents, their headers, what their QR
    /// code says, and each way a request is refused.
    @Suite struct AttestationRouteTests {
        /// The headers every personal response carries.
        static func expectPrivateHeaders(_ r: HTTPResult, sourceLocation: SourceLocation = #_sourceLocation) {
            #expect(r.header("Cache-Control") == "no-store", sourceLocation: sourceLocation)
            #expect(r.header("Referrer-Policy") == "no-referrer", sourceLocation: sourceLocation)
            #expect(r.header("X-Content-Type-Options") == "nosniff", sourceLocation: sourceLocation)
        }

        @Test func pdfLeftTwentyMinutesAgo() throws {
            let s = try SharedServer.get()
            let scratch = try Scratch(prefix: "server-pdf")
            let before = Date()
            let r = try curl(s.server.url("/attestation.pdf", token: s.eloise, "offset=-20"))
            try #require(r.curlExit == 0, "curl: \(r.curlError)")
            #expect(r.status == 200, "\(r.text.prefix(300))")
            #expect(r.header("Content-Type") == "application/pdf")
            Self.expectPrivateHeaders(r)
            #expect(r.body.starts(with: Data("%PDF-".utf8)))
            #expect(r.header("Content-Length") == String(r.body.count))

            let file = try write(r.body, to: "a.pdf", in: scratch)
            let check = try Tool.external("qpdf", ["--check", file])
            #expect(check.status == 0, "qpdf --check: \(check.stdout.suffix(1500)) \(check.stderr.prefix(1500))")

            let text = try Tool.external("pdftotext", [file, "-"])
            #expect(text.stdout.contains("Éloïse Quimperlé"), "the PDF keeps the exact spelling")

            let payloads = try decodedQRCodes(in: file, scratch: scratch)
            #expect(payloads.count == 2, "a QR code on each of the two pages")
            let qr = try QRFields(try #require(payloads.last))
            if let first = payloads.first { #expect(first == qr.text, "both pages hold the same code") }
            let created = try qr.created
            #expect(
                abs(created.timeIntervalSince(before)) < 120, "Cree le \(qr["Cree le"] ?? "?") is not now (\(before))")
            #expect(
                created.timeIntervalSince(try qr.exit) == 20 * 60,
                "Sortie \(qr["Sortie"] ?? "?") is 20 minutes before Cree le \(qr["Cree le"] ?? "?")")
            #expect(qr["Nom"] == "Quimperle")
            #expect(qr["Prenom"] == "Eloise")
            #expect(qr["Naissance"] == "29/02/1988 a Besancon")
            #expect(qr["Adresse"] == "12 rue des Lilas Bleus 25000 Besancon")
            #expect(qr["Motifs"] == "travail")
            #expect(
                r.header("Content-Disposition") == "inline; filename=\"\(Paris.fileName(created))\"",
                "the file name is the creation time of the QR code (\(qr["Cree le"] ?? "?"))")
        }

        @Test func explicitExitTimeAndOtherReasons() throws {
            let s = try SharedServer.get()
            let scratch = try Scratch(prefix: "server-at")
            // 30 minutes ago, or in 30 minutes just after midnight, so that it is today either way.
            let now = Date()
            let minutesToday = Paris.calendar.dateComponents([.hour, .minute], from: now)
            let early = minutesToday.hour! * 60 + minutesToday.minute! < 45
            let at = Paris.clock(now.addingTimeInterval(early ? 30 * 60 : -30 * 60))

            let r = try curl(s.server.url("/attestation.pdf", token: s.eloise, "at=\(at)&reasons=sante,famille"))
            try #require(r.status == 200, "\(r.status) \(r.text.prefix(300))")
            let qr = try qrCode(of: r.body, in: scratch)
            let created = try qr.created
            #expect(abs(created.timeIntervalSince(now)) < 120)
            let exitParts = try #require(qr["Sortie"]).components(separatedBy: " a ")
            let createdDay = try #require(qr["Cree le"]).components(separatedBy: " a ").first
            #expect(exitParts.last == at, "Sortie holds the time asked for")
            #expect(exitParts.first == createdDay, "at= is a time of the day of creation")
            #expect(
                Set(qr.reasons) == ["sante", "famille"], "reasons= replaces the link's reasons: \(qr["Motifs"] ?? "?")")
            #expect(qr.reasons == ["sante", "famille"], "in the form's order")

            let both = try curl(s.server.url("/attestation.pdf", token: s.eloise, "at=\(at)&offset=-5"))
            #expect(both.status == 400)
            #expect(both.text.contains("s’excluent"), "\(both.text)")
            for bad in ["25:00", "7h30", "12:60", "midi"] {
                let r = try curl(s.server.url("/attestation.pdf", token: s.eloise, "at=\(bad)"))
                #expect(r.status == 400, "at=\(bad): \(r.status) \(r.text)")
            }
        }

        @Test func pngOfTheQRCode() throws {
            let s = try SharedServer.get()
            let scratch = try Scratch(prefix: "server-png")
            let before = Date()
            let r = try curl(s.server.url("/attestation.png", token: s.eloise, "reasons=sante"))
            try #require(r.status == 200, "\(r.status) \(r.text.prefix(300))")
            #expect(r.header("Content-Type") == "image/png")
            Self.expectPrivateHeaders(r)
            #expect(r.body.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]))
            Self.expectPNGWidth(r.body, atMost: 400)
            let qr = try qrCode(of: r.body, in: scratch, png: true)
            #expect(abs(try qr.created.timeIntervalSince(before)) < 120)
            #expect(try qr.exit == (try qr.created), "no offset: the exit is the creation")
            #expect(qr["Nom"] == "Quimperle")
            #expect(qr["Prenom"] == "Eloise")
            #expect(qr["Adresse"] == "12 rue des Lilas Bleus 25000 Besancon")
            #expect(qr["Motifs"] == "sante")
            #expect(
                r.header("Content-Disposition")
                    == "inline; filename=\"\(Paris.fileName(try qr.created, extension: "png"))\"")

            let small = try curl(s.server.url("/attestation.png", token: s.eloise, "size=185"))
            #expect(small.status == 200)
            Self.expectPNGWidth(small.body, atMost: 185)
            let large = try curl(s.server.url("/attestation.png", token: s.eloise, "size=4096"))
            #expect(large.status == 200)
            Self.expectPNGWidth(large.body, atMost: 4096)
            for bad in ["184", "4097", "abc", "-400", "400.5"] {
                let r = try curl(s.server.url("/attestation.png", token: s.eloise, "size=\(bad)"))
                #expect(r.status == 400, "size=\(bad): \(r.status)")
                #expect(
                    r.text.contains("185") && r.text.contains("4096"),
                    "size=\(bad): the message names the bounds: \(r.text)")
            }
            let sizeOnPDF = try curl(s.server.url("/attestation.pdf", token: s.eloise, "size=400"))
            #expect(sizeOnPDF.status == 400, "size is a parameter of the PNG only")
        }

        /// Whole pixels per module, so the image is at most `size` wide, and not much less (with
        /// these codes of at most 65 modules and their quiet zone).
        static func expectPNGWidth(_ png: Data, atMost size: Int, sourceLocation: SourceLocation = #_sourceLocation) {
            let width = pngWidth(png) ?? 0
            #expect(
                width <= size && width > size - 66 && width >= size * 2 / 3, "size=\(size): \(width) px wide",
                sourceLocation: sourceLocation)
        }

        /// Width from the IHDR chunk.
        static func pngWidth(_ data: Data) -> Int? {
            guard data.count > 24 else { return nil }
            let bytes = [UInt8](data[16..<20])
            return bytes.reduce(0) { $0 << 8 | Int($1) }
        }

        @Test func alteredTruncatedAndForeignLinksAre403() throws {
            let s = try SharedServer.get()
            let token = s.eloise
            var flipped = Array(token)
            let middle = flipped.count / 2
            flipped[middle] = flipped[middle] == "A" ? "B" : "A"
            let foreign = try s.site.foreignKeyToken(.yasmine)
            let unknownKey = try s.site.foreignKeyToken(.yasmine, keyID: "k9")
            let cases: [(String, String, String?)] = [
                ("a character flipped in the middle", String(flipped), "altéré"),
                ("truncated", String(token.dropLast(12)), nil),
                ("cut in half", String(token.prefix(token.count / 2)), nil),
                ("not a token", "bonjour", nil),
                ("signed by another key with the same id", foreign, "altéré"),
                ("signed by a key the server does not know", unknownKey, "clé inconnue"),
            ]
            for (name, bad, message) in cases {
                for path in ["/attestation.pdf", "/attestation.png"] {
                    let r = try curl(s.server.url(path, token: bad))
                    #expect(r.status == 403, "\(name) \(path): \(r.status) \(r.text)")
                    #expect(r.header("Content-Type")?.hasPrefix("text/plain") == true)
                    Self.expectPrivateHeaders(r)
                    if let message { #expect(r.text.contains(message), "\(name): \(r.text)") }
                    #expect(
                        !r.text.contains(bad) && !r.text.contains("Quimperl") && !r.text.contains("Belkacemi"),
                        "an error never echoes the token or the person")
                }
            }
        }

        @Test func expiredLinkIs410() throws {
            let s = try SharedServer.get()
            let expired = try s.site.expiredToken(.yasmine)
            for path in ["/attestation.pdf", "/attestation.png"] {
                let r = try curl(s.server.url(path, token: expired))
                #expect(r.status == 410, "\(path): \(r.status) \(r.text)")
                #expect(r.text.contains("expiré"), "\(r.text)")
                Self.expectPrivateHeaders(r)
            }
            let api = try curl(s.server.url("/api/v1/link", token: expired))
            #expect(api.status == 410)
            #expect(api.header("Content-Type") == "application/json")
            #expect((try api.json()["error"] as? String)?.contains("expiré") == true, "\(api.text)")
        }

        @Test func revokedLinkIs410AfterSIGHUP() throws {
            let s = try SharedServer.get()
            let token = try s.site.mint(.yasmine, reasons: ["achats_culturel_cultuel"], SharedServer.pinned)
            let before = try curl(s.server.url("/attestation.pdf", token: token))
            #expect(before.status == 200, "the link works before its revocation")
            for path in Self.personalAPIRoutes + ["/attestation-papier.pdf"] {
                #expect(try curl(s.server.url(path, token: token)).status == 200, "\(path) before the revocation")
            }

            try s.site.revoke(token)
            let notYet = try curl(s.server.url("/attestation.pdf", token: token))
            #expect(notYet.status == 200, "the list is read at start and on SIGHUP only")

            #expect(s.server.reload(), "SIGHUP reloads: \(s.server.logText.suffix(500))")
            // The paper attestation too (issue 29, item 10: only expiry was tested there).
            for path in ["/attestation.pdf", "/attestation.png", "/attestation-papier.pdf"] {
                let r = try curl(s.server.url(path, token: token))
                #expect(r.status == 410, "\(path): \(r.status) \(r.text)")
                #expect(r.text.contains("révoqué"), "\(r.text)")
            }
            // The page's API too: a revoked link gets no offline template, which would let the
            // page go on making attestations without the network.
            for path in Self.personalAPIRoutes {
                let api = try curl(s.server.url(path, token: token))
                #expect(api.status == 410, "\(path): \(api.status) \(api.text.prefix(200))")
                #expect(api.header("Content-Type") == "application/json")
                #expect(
                    (try api.json()["error"] as? String)?.contains("révoqué") == true,
                    "\(path): \(api.text.prefix(200))")
                let holdsADocument = api.text.contains("\"pdf\"")
                #expect(!holdsADocument, "\(path): no document in a refusal")
            }
            #expect(try curl(s.server.url("/attestation.pdf", token: s.eloise)).status == 200, "other links still work")
        }

        /// The routes of the personal page that answer for one link.
        static let personalAPIRoutes = ["/api/v1/link", "/api/v1/template", "/api/v1/manifest"]

        @Test(arguments: [
            ("offset=-500", ["-180", "1440"]),
            ("offset=1441", ["-180", "1440"]),
            ("offset=vingt", ["offset", "minutes"]),
            ("offset=-20.5", ["offset"]),
            ("reasons=plage", ["plage", "travail", "achats_culturel_cultuel", "sante", "famille", "enfants"]),
            ("reasons=,", ["motif manquant", "travail"]),
            ("ofset=-20", ["ofset", "offset"]),
            ("offset=-20&offset=-10", ["offset", "plusieurs fois"]),
            ("offset=-20&reasons=sante&offset=-10", ["plusieurs fois"]),
            ("size=400", ["size"]),
        ])
        func badParameterIs400(query: String, words: [String]) throws {
            let s = try SharedServer.get()
            let r = try curl(s.server.url("/attestation.pdf", token: s.eloise, query))
            #expect(r.status == 400, "\(query): \(r.status) \(r.text)")
            #expect(r.header("Content-Type")?.hasPrefix("text/plain") == true)
            Self.expectPrivateHeaders(r)
            for word in words {
                #expect(
                    r.text.lowercased().contains(word.lowercased()), "\(query): the message names \(word): \(r.text)")
            }
        }

        /// A value echoed in a refusal never brings its control characters back raw (issue 22,
        /// item 7: `reasons=%00` put a NUL byte in the text, the page and the message): they are
        /// written out, `U+0000`, and the message still says which parameter is wrong. Each
        /// case as text, as the browser's page, and under `/api/` as JSON.
        @Test(arguments: [
            ("reasons=%00", ["motif", "U+0000"]),
            ("reasons=sante,a%01b", ["motif", "U+0001"]),
            ("reasons=%1B%5B31m", ["motif", "U+001B"]),
            ("reasons=%7F", ["motif", "U+007F"]),
            ("reasons=%C2%85", ["motif", "U+0085"]),
            ("reasons=%E2%80%AE", ["motif", "U+202E"]),
            ("offset=%00", ["offset"]),
            ("at=%00", ["at"]),
            ("size=%00", ["size"]),
            ("page=%00", ["page"]),
            ("page=1&dpi=%00", ["dpi"]),
            ("%00=1", ["paramètre"]),
            ("x%00=1", ["paramètre"]),
        ])
        func controlCharactersInAParameterAreShownEscaped(query: String, words: [String]) throws {
            let s = try SharedServer.get()
            var responses: [(String, HTTPResult)] = []
            for path in ["/attestation.pdf", "/attestation.png"] {
                let url = s.server.url(path, token: s.eloise, query)
                responses.append(("\(path) text", try curl(url)))
                responses.append(("\(path) page", try curl(url, ErrorPageTests.browser)))
            }
            for path in ["/api/v1/link", "/api/v1/template"] {
                responses.append(("\(path)", try curl(s.server.url(path, token: s.eloise, query))))
            }
            for (name, r) in responses {
                #expect(r.status == 400, "\(query) \(name): \(r.status) \(r.text)")
                Self.expectNoControlCharacters(r.body, "\(query) \(name)")
            }
            // size, page and dpi are the PNG's: the PDF refuses them as unknown, by name.
            let pngOnly = ["size=", "page="].contains { query.hasPrefix($0) }
            for (name, r) in responses[(pngOnly ? 2 : 0)..<4] {
                for word in words {
                    #expect(r.text.lowercased().contains(word.lowercased()), "\(query) \(name): \(word) in \(r.text)")
                }
            }
        }

        /// `t=%00` and other tokens with control characters: refused as links, nothing echoed.
        @Test func controlCharactersInTheTokenAreNotEchoed() throws {
            let s = try SharedServer.get()
            for token in ["%00", "%00abc", "a%01b", s.eloise + "%00", "%C2%85"] {
                for path in ["/attestation.pdf", "/attestation.png", "/api/v1/link", "/api/v1/manifest", "/"] {
                    for options in [[], ErrorPageTests.browser] {
                        let r = try curl(s.server.url(path, token: token), options)
                        Self.expectNoControlCharacters(r.body, "\(path) t=\(token.suffix(8)) \(options)")
                        if path != "/" {
                            #expect(r.status == 403, "\(path) t=\(token.suffix(8)): \(r.status)")
                            #expect(r.text.contains("ien"), "\(path): the message speaks of the link: \(r.text)")
                        }
                    }
                }
            }
        }

        /// No byte below 0x20 but line feed and tab, and no C1 control or bidirectional override.
        static func expectNoControlCharacters(
            _ body: Data, _ context: String, sourceLocation: SourceLocation = #_sourceLocation
        ) {
            let raw = body.filter { $0 < 0x20 && $0 != 0x0A && $0 != 0x09 }
            #expect(raw.isEmpty, "\(context): control bytes \(Array(raw))", sourceLocation: sourceLocation)
            let invisible = String(decoding: body, as: UTF8.self).unicodeScalars.filter {
                (0x7F...0x9F).contains($0.value) || (0x202A...0x202E).contains($0.value)
                    || (0x2066...0x2069).contains($0.value)
            }
            #expect(
                invisible.isEmpty, "\(context): \(invisible.map { String($0.value, radix: 16) })",
                sourceLocation: sourceLocation)
        }

        @Test func tokenMissingEmptyOrTwiceIs400() throws {
            let s = try SharedServer.get()
            for path in ["/attestation.pdf", "/attestation.png"] {
                let missing = try curl(s.server.baseURL + path)
                #expect(missing.status == 400)
                #expect(missing.text.contains("t manquant"), "\(missing.text)")
                let onlyOffset = try curl(s.server.baseURL + path + "?offset=-20")
                #expect(onlyOffset.status == 400)
                let empty = try curl(s.server.baseURL + path + "?t=")
                #expect(empty.status == 400, "an empty t counts as missing: \(empty.status)")
                let twice = try curl(s.server.url(path, token: s.eloise, "t=\(s.eloise)"))
                #expect(twice.status == 400, "t given twice: \(twice.status)")
                #expect(twice.text.contains("plusieurs fois"))
            }
        }

        @Test func lockedReasonsRefuseReasons() throws {
            let s = try SharedServer.get()
            let scratch = try Scratch(prefix: "server-locked")
            let r = try curl(s.server.url("/attestation.pdf", token: s.locked, "reasons=travail"))
            #expect(r.status == 400)
            #expect(r.text.contains("impose ses motifs"), "\(r.text)")
            let same = try curl(s.server.url("/attestation.pdf", token: s.locked, "reasons=sante"))
            #expect(same.status == 400, "a locked link takes no reasons= at all")

            let plain = try curl(s.server.url("/attestation.pdf", token: s.locked, "offset=15"))
            try #require(plain.status == 200)
            let qr = try qrCode(of: plain.body, in: scratch)
            #expect(qr["Motifs"] == "sante")
            #expect(qr["Prenom"] == "Maximilien")
            #expect(try qr.exit.timeIntervalSince(try qr.created) == 15 * 60)
        }

        @Test func oversizedURIIs414() throws {
            let s = try SharedServer.get()
            let r = try curl(s.server.url("/attestation.pdf", token: String(repeating: "A", count: 20_000)))
            #expect(r.curlExit == 0, "\(r.curlError)")
            #expect(r.status == 414, "\(r.status) \(r.text.prefix(200))")
            let reasons = "reasons=" + String(repeating: "x", count: 17_000)
            let long = try curl(s.server.url("/attestation.pdf", token: s.eloise, reasons))
            #expect(long.status == 414, "\(long.status)")
            #expect(try curl(s.server.baseURL + "/healthz").status == 200, "the server still answers")
        }

        @Test func otherMethodsAre405AndBodiesAre413() throws {
            let s = try SharedServer.get()
            let url = s.server.url("/attestation.pdf", token: s.eloise)
            for method in ["POST", "PUT", "DELETE", "PATCH", "OPTIONS"] {
                let r = try curl(url, ["-X", method])
                #expect(r.status == 405, "\(method): \(r.status)")
                #expect(r.header("Allow") == "GET, HEAD", "\(method): Allow \(r.header("Allow") ?? "absent")")
            }
            let post = try curl(url, ["--data-binary", "offset=-20"])
            #expect(post.status == 405, "POST with a form body: \(post.status)")
            #expect(post.header("Allow") == "GET, HEAD")
            let postHome = try curl(s.server.baseURL + "/", ["--data-binary", "x"])
            #expect(postHome.status == 405, "POST on a static file: \(postHome.status)")

            let withBody = try curl(url, ["-X", "GET", "--data-binary", "offset=-20"])
            #expect(withBody.status == 413, "GET with a body: \(withBody.status)")
            let chunked = try curl(url, ["-X", "GET", "-H", "Transfer-Encoding: chunked", "--data-binary", "abc"])
            #expect(chunked.status == 413, "GET with a chunked body: \(chunked.status)")
            #expect(try curl(url).status == 200, "the server still answers")
        }

        @Test func headIsAnsweredLikeGetWithoutBody() throws {
            let s = try SharedServer.get()
            let paths = [
                ("/attestation.pdf", "offset=-20"), ("/attestation.png", ""), ("/api/v1/forms", ""), ("/", ""),
            ]
            for (path, query) in paths {
                let url =
                    path.hasPrefix("/attestation")
                    ? s.server.url(path, token: s.eloise, query) : s.server.baseURL + path
                let get = try curl(url)
                let head = try curl(url, ["-I"])
                #expect(head.curlExit == 0, "\(head.curlError)")
                #expect(head.status == get.status, "\(path): HEAD \(head.status), GET \(get.status)")
                #expect(head.downloaded == 0, "\(path): HEAD has no body")
                let names = { (r: HTTPResult) in Set(r.headerNames).subtracting(["date"]) }
                #expect(
                    names(head) == names(get), "\(path): same headers: \(names(head).symmetricDifference(names(get)))")
                for name in ["Content-Type", "Cache-Control", "Referrer-Policy", "X-Content-Type-Options", "ETag"] {
                    #expect(head.header(name) == get.header(name), "\(path): \(name)")
                }
                let length = Int(head.header("Content-Length") ?? "") ?? 0
                #expect(
                    abs(length - get.body.count) < 64,
                    "\(path): HEAD announces the length of the GET body (\(length) vs \(get.body.count))")
            }
            // A HEAD response with a body would corrupt the next response on the same connection.
            let twice = try Tool.external(
                "curl",
                [
                    "-sS", "-I", s.server.url("/attestation.pdf", token: s.eloise),
                    s.server.baseURL + "/healthz",
                ])
            #expect(twice.status == 0, "\(twice.stderr)")
            #expect(twice.stdout.components(separatedBy: "HTTP/1.1 200").count == 3, "\(twice.stdout)")
        }
    }
}
