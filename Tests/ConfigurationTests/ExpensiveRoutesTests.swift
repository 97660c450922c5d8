import HTTPServer
import Testing

@testable import AttestationService

/// Which requests the service hands to the HTTP server's expensive threads (issue 22, item 3):
/// those that cost tens of milliseconds, never the PDF or the page's small QR code.
@Suite struct ExpensiveRoutesTests {
    static func request(_ path: String, _ query: [(String, String)] = []) -> HTTPRequest {
        HTTPRequest(method: "GET", path: path, query: query.map { QueryItem(name: $0.0, value: $0.1) })
    }

    @Test func pageImagesLargeQRCodesAndTemplatesAreExpensive() {
        #expect(Routes.isExpensive(Self.request("/attestation.png", [("t", "x"), ("page", "1"), ("dpi", "300")])))
        #expect(Routes.isExpensive(Self.request("/attestation.png", [("t", "x"), ("page", "2")])))
        #expect(Routes.isExpensive(Self.request("/attestation.png", [("t", "x"), ("size", "4096")])))
        #expect(Routes.isExpensive(Self.request("/api/v1/template", [("t", "x")])))
    }

    @Test func documentsSmallQRCodesAndEverythingElseAreNot() {
        #expect(!Routes.isExpensive(Self.request("/attestation.pdf", [("t", "x"), ("page", "1")])))
        #expect(!Routes.isExpensive(Self.request("/attestation.png", [("t", "x")])))
        #expect(!Routes.isExpensive(Self.request("/attestation.png", [("t", "x"), ("size", "1024")])))
        #expect(!Routes.isExpensive(Self.request("/attestation.png", [("t", "x"), ("size", "abc")])))
        for path in ["/healthz", "/metrics", "/api/v1/link", "/api/v1/forms", "/", "/licenses"] {
            #expect(!Routes.isExpensive(Self.request(path, [("t", "x")])), "\(path)")
        }
    }
}
