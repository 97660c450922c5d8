import Foundation
import TestSupport
import Testing

extension SharedServerTests {
    /// Issue 29, item 8: French typography holds guillemets to their words with a narrow no-break
    /// space (U+202F): with a plain space, « and » were left alone at the end or the start of a
    /// line. Every page of the site and every message the server sends to a person, as served.
    @Suite struct FrenchTypographyTests {
        /// The guillemets of `text` not held to their word by U+202F, with what surrounds them.
        static func looseGuillemets(in text: String) -> [String] {
            let characters = Array(text)
            var loose: [String] = []
            for (index, character) in characters.enumerated() {
                let held: Bool
                switch character {
                case "«": held = index + 1 < characters.count && characters[index + 1] == "\u{202F}"
                case "»": held = index > 0 && characters[index - 1] == "\u{202F}"
                default: continue
                }
                if !held {
                    let start = max(0, index - 20)
                    let end = min(characters.count, index + 20)
                    loose.append(String(characters[start..<end]))
                }
            }
            return loose
        }

        /// Every page and script of the site (Public/, as the server serves it) and `/licenses`.
        @Test func everyPageOfTheSiteHoldsItsGuillemetsToTheirWords() throws {
            let publicFolder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
                .deletingLastPathComponent().appendingPathComponent("Public")
            let site = try TestSite(server: ["publicDirectory": publicFolder.path])
            let server = try ServerProcess(config: site.config)
            defer {
                server.terminate()
                _ = server.waitForExit(timeout: 20)
            }
            let files = try FileManager.default.contentsOfDirectory(atPath: publicFolder.path)
                .filter { $0.hasSuffix(".html") || $0.hasSuffix(".js") }.sorted()
            #expect(files.contains("raccourcis.html") && files.contains("app.js"), "\(files)")
            var seen = 0
            for path in ["/", "/licenses"] + files.map({ "/" + $0 }) {
                let r = try curl(server.baseURL + path)
                #expect(r.status == 200, "\(path)")
                seen += r.text.filter { $0 == "«" }.count
                #expect(Self.looseGuillemets(in: r.text).isEmpty, "\(path): \(Self.looseGuillemets(in: r.text))")
            }
            #expect(seen > 50)
        }

        /// What a person reads when a request is refused: the error page, the text for scripts and
        /// the JSON the personal page shows.
        @Test func everyMessageToAPersonHoldsItsGuillemetsToTheirWords() throws {
            let s = try SharedServer.get()
            // Follows the calendar: today's form has contexts, and no longer the reason of 2020.
            let following = try s.site.mint(.yasmine, reasons: ["achats_culturel_cultuel"])
            let cases: [(path: String, token: String, query: String, status: Int)] = [
                ("/attestation.pdf", s.eloise, "motif=travail", 400),
                ("/attestation.pdf", s.eloise, "reasons=promenade_du_chien", 400),
                ("/attestation.pdf", following, "context=plage", 400),
                ("/attestation.pdf", following, "", 409),
                ("/api/v1/link", s.eloise, "motif=1", 400),
            ]
            var seen = 0
            for (path, token, query, status) in cases {
                for accept in ["text/html", "text/plain", "application/json"] {
                    let r = try curl(s.server.url(path, token: token, query), ["-H", "Accept: \(accept)"])
                    #expect(r.status == status, "\(path)?\(query): \(r.status) \(r.text.prefix(200))")
                    var text = r.text
                    if r.header("Content-Type")?.hasPrefix("application/json") == true {
                        text = try r.json()["error"] as? String ?? ""
                    }
                    seen += text.filter { $0 == "«" }.count
                    #expect(Self.looseGuillemets(in: text).isEmpty, "\(path)?\(query) \(accept): \(text.prefix(300))")
                }
            }
            #expect(seen >= 12, "the messages name what they refuse between guillemets")
        }
    }
}
