import Foundation
import TestSupport
import Testing

extension SharedServerTests {
    /// `/api/v1/template`: what the personal page needs to make attestations offline.
    @Suite struct OfflineTemplateRouteTests {
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
}
