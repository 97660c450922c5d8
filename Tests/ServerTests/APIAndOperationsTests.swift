import AttestationKit
import FormSchema
import Foundation
import TestSupport
import Testing

extension SharedServerTests {
    /// The JSON API of the personal page, health and metrics.
    @Suite struct APIAndOperationsTests {
        @Test func linkInfo() throws {
            let s = try SharedServer.get()
            let r = try curl(s.server.url("/api/v1/link", token: s.eloise))
            try #require(r.status == 200, "\(r.status) \(r.text)")
            #expect(r.header("Content-Type") == "application/json")
            #expect(r.header("Cache-Control") == "no-store")
            #expect(r.header("Referrer-Policy") == "no-referrer")
            let json = try r.json()
            #expect(json["firstName"] as? String == "Éloïse")
            #expect(json["displayName"] as? String == "Éloïse Q.")
            #expect(json["defaultReasons"] as? [String] == ["travail"])
            #expect(json["lockReasons"] as? Bool == false)
            #expect(json["timeZone"] as? String == "Europe/Paris")
            #expect(json["expires"] as? String != nil, "a link minted with --expires 30d")
            let bounds = try #require(json["offsetBounds"] as? [String: Any])
            #expect(bounds["minimum"] as? Int == -180)
            #expect(bounds["maximum"] as? Int == 1440)
            let form = try #require(json["form"] as? [String: Any])
            #expect(form["id"] as? String == "deplacement-2020-11-28")
            let codes = (form["reasons"] as? [[String: Any]] ?? []).compactMap { $0["code"] as? String }
            #expect(codes.contains("travail") && codes.contains("sante") && codes.count == 9, "\(codes)")
            if let serverTime = json["serverTime"] as? String, let date = ISO8601DateFormatter().date(from: serverTime)
            {
                #expect(abs(date.timeIntervalSinceNow) < 120)
            } else {
                Issue.record("serverTime missing or not ISO 8601: \(json["serverTime"] ?? "nil")")
            }
            for hidden in ["Quimperl", "29/02/1988", "1988", "Lilas", "Besan", "25000"] {
                #expect(!r.text.contains(hidden), "the page gets the first name only, not \(hidden)")
            }

            let locked = try curl(s.server.url("/api/v1/link", token: s.locked)).json()
            #expect(locked["lockReasons"] as? Bool == true)
            #expect(locked["defaultReasons"] as? [String] == ["sante"])
            #expect(locked["expires"] == nil || locked["expires"] is NSNull)
        }

        @Test func linkInfoErrorsAreJSON() throws {
            let s = try SharedServer.get()
            var flipped = Array(s.eloise)
            flipped[flipped.count / 2] = flipped[flipped.count / 2] == "A" ? "B" : "A"
            let cases: [(String, Int)] = [
                (s.server.url("/api/v1/link", token: String(flipped)), 403),
                (s.server.url("/api/v1/link", token: String(s.eloise.dropLast(10))), 403),
                (s.server.url("/api/v1/link", token: try s.site.expiredToken(.maxime)), 410),
                (s.server.baseURL + "/api/v1/link", 400),
                (s.server.url("/api/v1/link", token: s.eloise, "offset=-20"), 400),
                (s.server.url("/api/v1/link", token: s.eloise, "t=\(s.eloise)"), 400),
            ]
            for (url, status) in cases {
                let r = try curl(url)
                #expect(r.status == status, "\(url.suffix(40)): \(r.status) \(r.text)")
                #expect(r.header("Content-Type") == "application/json")
                #expect(r.header("Cache-Control") == "no-store")
                let json = try r.json()
                #expect(json.keys.sorted() == ["error"], "\(r.text)")
                #expect((json["error"] as? String)?.isEmpty == false)
            }
            let post = try curl(s.server.url("/api/v1/link", token: s.eloise), ["-X", "POST"])
            #expect(post.status == 405)
            #expect(post.header("Allow") == "GET, HEAD")
            // Found by fuzzing (Tests/Fuzz/Corpus/query/post-api): the 405 was text under /api/.
            #expect(post.header("Content-Type") == "application/json")
            #expect(
                (try post.json()["error"] as? String)?.hasPrefix("Méthode POST non acceptée") == true, "\(post.text)")
        }

        @Test func forms() throws {
            let s = try SharedServer.get()
            let r = try curl(s.server.baseURL + "/api/v1/forms")
            try #require(r.status == 200)
            #expect(r.header("Content-Type") == "application/json")
            let json = try r.json()
            #expect(json["defaultForm"] as? String == "deplacement-2020-11-28")
            let forms = try #require(json["forms"] as? [[String: Any]])
            // Every official form of 2020–2021, each drawn.
            #expect(Set(forms.compactMap { $0["id"] as? String }) == Set(FormCatalog.builtIn.forms.map(\.id)))
            #expect(forms.count == 17)
            for form in forms {
                let reasons = form["reasons"] as? [[String: Any]] ?? []
                #expect((5...12).contains(reasons.count))
                #expect(reasons.allSatisfy { $0["label"] as? String != nil && $0["number"] as? Int != nil })
                // The personal page's toggles, none shared within a form (the code when the form
                // has none: the curfew forms' web pages had none). A few words each in the
                // November forms; the 2021 ones are the Ministry's web form's own titles, longer.
                let shortLabels = reasons.compactMap { $0["shortLabel"] as? String }
                #expect(Set(shortLabels).count == shortLabels.count, "\(shortLabels)")
                #expect(shortLabels.allSatisfy { !$0.isEmpty }, "\(shortLabels)")
                if (form["id"] as? String)?.hasPrefix("deplacement-2020-11") == true {
                    #expect(reasons.count == 9 && shortLabels.count == 9, "\(shortLabels)")
                    #expect(shortLabels.allSatisfy { (1...40).contains($0.count) }, "\(shortLabels)")
                }
            }
            let withParameter = try curl(s.server.baseURL + "/api/v1/forms?t=x")
            #expect(withParameter.status == 400)
            #expect(withParameter.header("Content-Type") == "application/json")
        }

        @Test func healthz() throws {
            let s = try SharedServer.get()
            let r = try curl(s.server.baseURL + "/healthz")
            #expect(r.status == 200)
            #expect(r.text == "{\"status\":\"ok\"}\n")
            #expect(r.header("Content-Type") == "application/json")
            #expect(try curl(s.server.baseURL + "/healthz?verbose=1").status == 400, "no parameter")
        }

        @Test func metricsCountRequestsByRouteAndStatus() throws {
            let s = try SharedServer.get()
            _ = try curl(s.server.url("/attestation.pdf", token: s.eloise))
            _ = try curl(s.server.url("/attestation.png", token: s.eloise))
            _ = try curl(s.server.url("/attestation.pdf", token: "bonjour"))
            _ = try curl(s.server.baseURL + "/healthz")
            _ = try curl(s.server.baseURL + "/no/such/page")
            let r = try curl(s.server.baseURL + "/metrics")
            try #require(r.status == 200)
            #expect(r.header("Content-Type")?.hasPrefix("text/plain") == true)
            let lines = r.text.split(separator: "\n").map(String.init)
            func count(route: String, status: Int) -> Double? {
                lines.first {
                    $0.hasPrefix("http_requests_total{") && $0.contains("route=\"\(route)\"")
                        && $0.contains("status=\"\(status)\"")
                }.flatMap { $0.split(separator: " ").last.flatMap { Double($0) } }
            }
            #expect(
                (count(route: "/attestation.pdf", status: 200) ?? 0) >= 1,
                "\(lines.filter { $0.hasPrefix("http_requests_total") })")
            #expect((count(route: "/attestation.png", status: 200) ?? 0) >= 1)
            #expect((count(route: "/attestation.pdf", status: 403) ?? 0) >= 1)
            #expect((count(route: "/healthz", status: 200) ?? 0) >= 1)
            #expect((count(route: "other", status: 404) ?? 0) >= 1, "paths outside the routes are counted as other")
            #expect(r.text.contains("http_request_duration_seconds"))
            #expect(r.text.contains("attestation_render_seconds"))
            #expect(!r.text.contains("no/such/page"), "no label value is chosen by the client")

            let before = count(route: "/healthz", status: 200) ?? 0
            _ = try curl(s.server.baseURL + "/healthz")
            let after = try curl(s.server.baseURL + "/metrics").text.split(separator: "\n").first {
                $0.hasPrefix("http_requests_total{") && $0.contains("route=\"/healthz\"")
                    && $0.contains("status=\"200\"")
            }.flatMap { $0.split(separator: " ").last.flatMap { Double($0) } }
            #expect(after == before + 1, "the counter counts each request")
        }

        /// Like every other route, `/metrics` refuses a parameter it does not take (issue 22,
        /// item 7: `/metrics?x=1` was 200).
        @Test func metricsRefusesParameters() throws {
            let s = try SharedServer.get()
            for query in ["x=1", "t=\(s.eloise)", "name[]=a"] {
                let r = try curl(s.server.baseURL + "/metrics?" + query, ["-g"])
                #expect(r.status == 400, "\(query): \(r.status)")
                #expect(r.header("Content-Type") == "text/plain; charset=utf-8", "\(query)")
                #expect(r.text.hasPrefix("Paramètre"), "\(query): \(r.text)")
                #expect(r.text.contains("cette adresse n’en accepte aucun"), "\(query): \(r.text)")
                #expect(!r.text.contains("http_requests_total"), "\(query): no metrics with a refusal")
            }
            #expect(
                try curl(s.server.baseURL + "/metrics?x=1").text.contains("«\u{202F}x\u{202F}»"),
                "the parameter is named")
            #expect(try curl(s.server.baseURL + "/metrics").status == 200)
            #expect(try curl(s.server.baseURL + "/metrics?").status == 200, "an empty query is no parameter")
        }

        /// What Prometheus's own linter says of `/metrics` once every family has samples: nothing
        /// (issue 22, item 6: no family had `# HELP`, and promtool exited 3).
        @Test func metricsPassPromtoolCheck() throws {
            let s = try SharedServer.get()
            _ = try curl(s.server.url("/attestation.pdf", token: s.eloise))
            _ = try curl(s.server.url("/attestation.png", token: s.eloise))
            _ = try curl(s.server.url("/attestation.png", token: s.eloise, "page=1&dpi=72"))
            _ = try curl(s.server.baseURL + "/healthz")
            let r = try curl(s.server.baseURL + "/metrics")
            try #require(r.status == 200)
            let families = Set(
                r.text.split(separator: "\n").filter { !$0.hasPrefix("#") }.compactMap {
                    $0.split(whereSeparator: { "{ ".contains($0) }).first.map(String.init)
                })
            for family in [
                "http_requests_total", "http_request_duration_seconds_count", "http_open_connections",
                "http_connections_refused_total", "http_connections_evicted_total", "attestation_render_seconds_count",
                "attestation_configuration_reloads_total", "attestation_configuration_degraded",
                "attestation_configuration_last_applied_timestamp_seconds", "attestation_revocations_missing_from_list",
            ] {
                #expect(families.contains(family), "no sample of \(family): \(r.text)")
            }
            let scratch = try Scratch()
            let file = scratch.path("metrics.txt")
            try r.body.write(to: URL(fileURLWithPath: file))
            let promtool = try Tool.externalPath("promtool")
            let check = try Tool.external("sh", ["-c", "\"$0\" check metrics < \"$1\"", promtool.path, file])
            #expect(check.status == 0, "promtool check metrics: exit \(check.status)\n\(check.stdout)\(check.stderr)")
            #expect(
                (check.stdout + check.stderr).trimmingCharacters(in: .whitespacesAndNewlines).isEmpty,
                "promtool found problems:\n\(check.stdout)\(check.stderr)")
            let helped = Set(
                r.text.split(separator: "\n").filter { $0.hasPrefix("# HELP ") }.map { $0.split(separator: " ")[2] })
            #expect(helped.count == 10, "every family has its help text: \(helped.sorted())")
        }

        /// "One line per request": the requests refused before any route (a body on a GET, an
        /// oversized request line) are logged and counted like the others.
        @Test func refusedOversizedRequestsAreLoggedAndCounted() throws {
            let s = try SharedServer.get()
            let before = s.server.logRecords.count
            let body = try curl(s.server.baseURL + "/healthz", ["-X", "GET", "--data-binary", "abc"])
            try #require(body.status == 413)
            let uri = try curl(s.server.baseURL + "/healthz?x=" + String(repeating: "A", count: 20_000))
            try #require(uri.status == 414)
            _ = try curl(s.server.baseURL + "/healthz")
            #expect(s.server.waitForRequest(route: "/healthz", status: 200, timeout: 5))
            let records = s.server.logRecords.dropFirst(before).filter { $0["message"] as? String == "request" }
            #expect(records.contains { $0["status"] as? Int == 413 }, "no access-log record for the 413: \(records)")
            #expect(records.contains { $0["status"] as? Int == 414 }, "no access-log record for the 414: \(records)")
            let metrics = try curl(s.server.baseURL + "/metrics").text.split(separator: "\n")
                .filter { $0.hasPrefix("http_requests_total{") }
            #expect(metrics.contains { $0.contains("status=\"413\"") }, "413 not counted: \(metrics)")
            #expect(metrics.contains { $0.contains("status=\"414\"") }, "414 not counted: \(metrics)")
        }

        /// The order of the tests is not guaranteed: this one makes its own requests of every
        /// kind, then reads the whole log so far (the suite's teardown reads it again at the end).
        @Test func theLogHoldsNoPersonalDataNoTokenNoQueryString() throws {
            let s = try SharedServer.get()
            let expired = try s.site.expiredToken(.eloise)
            for url in [
                s.server.url("/attestation.pdf", token: s.eloise, "offset=-20&reasons=sante"),
                s.server.url("/attestation.png", token: s.eloise, "size=300"),
                s.server.url("/attestation.pdf", token: s.eloise, "ofset=-20"),
                s.server.url("/attestation.pdf", token: String(s.eloise.dropLast(5))),
                s.server.url("/attestation.pdf", token: expired),
                s.server.url("/api/v1/link", token: s.locked),
                s.server.url("/attestation.pdf", token: s.locked, "reasons=travail"),
                s.server.url("/", token: s.eloise),
                s.server.baseURL + "/" + s.eloise,
                s.server.baseURL + "/Quimperl%C3%A9?t=29/02/1988",
            ] {
                _ = try curl(url)
            }
            _ = try curl(s.server.url("/attestation.pdf", token: s.eloise), ["-X", "POST", "--data-binary", "Éloïse"])
            _ = try curl(s.server.url("/attestation.pdf", token: s.eloise), ["-X", "BREW"])
            _ = try curl(s.server.url("/attestation.pdf", token: s.eloise), ["-H", "X-Name: Quimperlé"])
            let log = s.server.logText
            expectLogHoldsNoSecrets(log, secrets: s.secrets)
            #expect(!log.contains("BREW"), "an unknown method is logged as OTHER")
            // The access log: a record a request with its id, method, route, status, duration and size.
            let requests = s.server.requests()
            #expect(requests.count >= 10, "\(log.suffix(2000))")
            for record in requests {
                #expect(
                    ["GET", "HEAD", "POST", "PUT", "DELETE", "PATCH", "OPTIONS", "OTHER"].contains(
                        record["method"] as? String ?? ""),
                    "\(record)")
                #expect((record["request_id"] as? String)?.isEmpty == false, "\(record)")
                #expect(record["duration_ms"] is Double || record["duration_ms"] is Int, "\(record)")
                #expect(record["bytes"] is Int && record["status"] is Int, "\(record)")
                let route = record["route"] as? String ?? "?"
                #expect(
                    route == "other" || route == "refused" || (route.hasPrefix("/") && !route.contains("?")),
                    "\(record)")
            }
            #expect(!s.server.requests(route: "/attestation.pdf", status: 200).isEmpty)
            #expect(
                s.server.requests(route: "/attestation.pdf", status: 403).contains {
                    $0["refusal"] as? String == "link_bad_signature" || $0["refusal"] as? String == "link_malformed"
                })
            #expect(
                s.server.requests(route: "/attestation.pdf", status: 410).contains {
                    $0["refusal"] as? String == "link_expired"
                })
        }
    }
}
