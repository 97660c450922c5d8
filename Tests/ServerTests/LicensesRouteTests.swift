import Foundation
import Licenses
import TestSupport
import Testing

/// The text as the page must show it inside `<pre>`: the five characters HTML gives a meaning.
private func htmlEscaped(_ text: String) -> String {
    text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
        .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
        .replacingOccurrences(of: "'", with: "&#39;")
}

extension SharedServerTests {
    /// `/licenses`: every third-party component and licence text, from the data that
    /// `attestation-admin licenses` prints too.
    @Suite struct LicensesRouteTests {
        @Test func thePageNamesTheComponentsAndHoldsEveryTextOnce() throws {
            let s = try SharedServer.get()
            let r = try curl(s.server.baseURL + "/licenses")
            #expect(r.status == 200)
            #expect(r.header("Content-Type") == "text/html; charset=utf-8")
            #expect(r.header("Cache-Control") == "no-cache")
            #expect(r.header("Content-Security-Policy")?.contains("default-src 'self'") == true)
            #expect(r.header("X-Frame-Options") == "DENY")
            #expect(r.header("Referrer-Policy") == "no-referrer")
            #expect(r.header("Content-Length") == String(r.body.count))
            let page = r.text
            #expect(page.hasPrefix("<!doctype html>\n<html lang=\"fr\">"))
            for name in [
                "GNU libmicrohttpd", "GnuTLS", "Polices DejaVu", "libharu", "Nettle",
                "Copyright (c) 2020 Ministère de l&#39;intérieur",
            ] {
                #expect(page.contains(name), "\(name) is not named")
            }
            for licence in ThirdPartyNotices.licences {
                let shown = "<pre class=\"licence\">\(htmlEscaped(licence.text))</pre>"
                #expect(page.components(separatedBy: shown).count == 2, "\(licence.id) is not shown exactly once")
            }
            // Against the files themselves, where this machine has them.
            if let lgpl = FileManager.default.contents(atPath: "/usr/share/common-licenses/LGPL-2.1"),
                let stored = ThirdPartyNotices.licences.first(where: { $0.id == "LGPL-2.1" })?.text
            {
                // The system's text in the edition the programs embed (Debian 13's is the FSF's later one).
                #expect(FSFEdition.later(stored) == FSFEdition.later(String(decoding: lgpl, as: UTF8.self)))
                #expect(page.components(separatedBy: htmlEscaped(stored)).count == 2, "the full LGPL 2.1, once")
            }
            // The Ministry's notice, as the repository keeps it (a missing copy fails, it is not skipped).
            let mit = try ReferenceFile.text("official-LICENCE.txt")
            #expect(page.contains(htmlEscaped(mit)), "the Ministry's MIT notice")
            #expect(page.contains("apt-get source libmicrohttpd"), "where the LGPL source is")
            #expect(page.contains("<a href=\"https://sources.debian.org/src/libmicrohttpd/\">"))
        }

        /// The page shows the version of each library the server links; `attestation-admin
        /// licenses --list` the same for the libraries both programs link (libharu), and none for
        /// libmicrohttpd, which the admin tool does not link.
        @Test func theLinkedVersionIsTheCommandsToo() throws {
            let s = try SharedServer.get()
            let page = try curl(s.server.baseURL + "/licenses").text
            let list = try Tool.admin(["licenses", "--list"])
            #expect(list.status == 0)
            func listed(_ name: String) throws -> Substring {
                let line = try #require(list.stdout.split(separator: "\n").first { $0.hasPrefix(name + " ") })
                return try #require(
                    line.dropFirst(name.count).split(separator: " ", omittingEmptySubsequences: true).first)
            }
            func shown(_ id: String) throws -> Substring {
                let section = try #require(page.range(of: "<section class=\"composant\" id=\"c-\(id)\""))
                let rest = page[section.upperBound...]
                let end = try #require(rest.range(of: "</section>"))
                let block = rest[..<end.lowerBound]
                let start = try #require(block.range(of: "<dt>Version liée</dt><dd>"))
                return block[start.upperBound...].prefix { $0 != "<" }
            }
            let haru = try listed("libharu")
            #expect(haru.first?.isNumber == true, "\(haru)")
            #expect(try shown("libharu") == haru)
            #expect(try listed("GNU libmicrohttpd") == "-")
            #expect(try shown("libmicrohttpd").first?.isNumber == true, "the server links libmicrohttpd")
        }

        @Test func headAndRevalidation() throws {
            let s = try SharedServer.get()
            let url = s.server.baseURL + "/licenses"
            let get = try curl(url)
            let head = try curl(url, ["-I"])
            #expect(head.status == 200)
            #expect(head.downloaded == 0, "HEAD has no body")
            #expect(head.header("Content-Type") == get.header("Content-Type"))
            #expect(head.header("Content-Length") == String(get.body.count))
            let etag = try #require(get.header("ETag"))
            #expect(head.header("ETag") == etag)
            let cached = try curl(url, ["-H", "If-None-Match: \(etag)"])
            #expect(cached.status == 304)
            #expect(cached.body.isEmpty)
        }

        @Test func parametersAndOtherMethodsAreRefused() throws {
            let s = try SharedServer.get()
            for query in ["x=1", "t=abc", "lang=en"] {
                let r = try curl(s.server.baseURL + "/licenses?" + query)
                #expect(r.status == 400, "\(query): \(r.status)")
                #expect(r.text.contains("inconnu ; cette adresse n’en accepte aucun"), "\(r.text)")
            }
            let post = try curl(s.server.baseURL + "/licenses", ["-X", "POST"])
            #expect(post.status == 405)
            #expect(post.header("Allow") == "GET, HEAD")
            #expect(s.server.waitForRequest(route: "/licenses", status: 200), "the route is logged by its name")
        }
    }
}
