import Foundation
import HTTPServer
import TestSupport
import Testing

extension SharedServerTests {
    /// The requests the HTTP layer refuses before any route (issue 12): worded by the service in
    /// French, as JSON under /api/, with the headers every response carries.
    @Suite struct HTTPRefusalTests {
        func expectErrorHeaders(_ r: HTTPResult, sourceLocation: SourceLocation = #_sourceLocation) {
            #expect(r.header("Referrer-Policy") == "no-referrer", sourceLocation: sourceLocation)
            #expect(r.header("X-Content-Type-Options") == "nosniff", sourceLocation: sourceLocation)
            #expect(r.header("Cache-Control") == "no-store", sourceLocation: sourceLocation)
            #expect(r.header("Connection") == "close", sourceLocation: sourceLocation)
        }

        @Test func aTooLongAddressUnderAPIIsJSONWithTheCommonHeaders() throws {
            let s = try SharedServer.get()
            let r = try curl(s.server.baseURL + "/api/v1/link?t=" + String(repeating: "a", count: 17000))
            #expect(r.status == 414)
            expectErrorHeaders(r)
            #expect(r.header("Content-Type") == "application/json")
            #expect(try r.json()["error"] as? String == "Adresse trop longue : 16384 octets au plus.")
        }

        @Test func tooLongHeadersGetAFrenchAnswerWithTheCommonHeaders() throws {
            let s = try SharedServer.get()
            let r = try curl(s.server.baseURL + "/healthz", ["-H", "X-Grand: " + String(repeating: "a", count: 17000)])
            #expect(r.status == 431)
            expectErrorHeaders(r)
            #expect(r.text == "En-têtes trop longs : 16384 octets au plus.\n")
        }

        @Test func tooManyParametersGetAFrenchAnswer() throws {
            let s = try SharedServer.get()
            let query = (0..<600).map { "p\($0)=1" }.joined(separator: "&")
            let r = try curl(s.server.baseURL + "/attestation.pdf?" + query)
            #expect(r.status == 414)
            expectErrorHeaders(r)
            #expect(r.text == "Trop de paramètres dans l’adresse : 100 au plus.\n")
        }

        /// RFC 9112 §3.2; curl sends no Host when given an empty one. libmicrohttpd 1.0 (Debian
        /// 13) refuses it itself, before the service sees it, with its own English page and
        /// none of the service's headers; 0.9.75 (Debian 12) leaves it to the service's wording.
        @Test func http11WithoutHostIsABadRequest() throws {
            let s = try SharedServer.get()
            let r = try curl(s.server.baseURL + "/healthz", ["--http1.1", "-H", "Host:"])
            #expect(r.status == 400)
            #expect(r.header("Connection") == "close")
            if HTTPServer.libraryParsesStrictly {
                #expect(r.text.contains("Host:"), "libmicrohttpd's own page names the missing header")
            } else {
                expectErrorHeaders(r)
                #expect(r.text == "Requête mal formée : en-tête Host manquant, obligatoire en HTTP/1.1.\n")
            }
        }

        @Test func twoContentLengthsAreABadRequest() throws {
            let s = try SharedServer.get()
            let r = try curl(
                s.server.baseURL + "/api/v1/forms", ["-H", "Content-Length: 0", "-H", "Content-Length: 0"])
            #expect(r.status == 400)
            expectErrorHeaders(r)
            #expect(
                try r.json()["error"] as? String
                    == "Requête mal formée : plusieurs en-têtes Content-Length ; un seul est accepté.")
        }

        /// `/metrics%00` read as `/metrics` went past the proxy rule that keeps it private.
        @Test func anEncodedNulEndsNoPath() throws {
            let s = try SharedServer.get()
            for path in ["/metrics%00", "/licenses%00x", "/healthz%00"] {
                let r = try curl(s.server.baseURL + path, ["--path-as-is"])
                #expect(r.status == 400, "\(path)")
                expectErrorHeaders(r)
                #expect(r.text == "Requête mal formée : caractère nul (%00) dans le chemin.\n")
            }
        }
    }
}
