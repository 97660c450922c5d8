import Foundation
import TestSupport
import Testing

extension SharedServerTests {
    /// `/attestation-papier.pdf`: the link's paper attestation, to print and fill in by hand.
    @Suite struct PaperAttestationRouteTests {
        @Test func paperAttestationHoldsThePersonAndNoTimeNorQRCode() throws {
            let s = try SharedServer.get()
            let scratch = try Scratch(prefix: "server-paper")
            let r = try curl(s.server.url("/attestation-papier.pdf", token: s.eloise))
            try #require(r.curlExit == 0, "curl: \(r.curlError)")
            #expect(r.status == 200, "\(r.text.prefix(300))")
            #expect(r.header("Content-Type") == "application/pdf")
            #expect(r.header("Content-Disposition") == "inline; filename=\"attestation-papier.pdf\"")
            SharedServerTests.AttestationRouteTests.expectPrivateHeaders(r)
            let file = try write(r.body, to: "papier.pdf", in: scratch)
            #expect(try Tool.external("qpdf", ["--check", file]).status == 0)
            let text = try Tool.external("pdftotext", [file, "-"]).stdout
            #expect(text.contains("Éloïse Quimperlé"))
            #expect(text.contains("29/02/1988"))
            #expect(text.firstMatch(of: /[0-9]{1,2} ?[:hH] ?[0-9]{2}/) == nil, "a time is printed")
            let info = try Tool.external("pdfinfo", [file]).stdout
            #expect(info.contains(/Pages: +1\n/) && !info.contains("CreationDate"), "\(info)")
            let images = try Tool.external("pdfimages", ["-list", file]).stdout
            #expect(images.split(separator: "\n").count == 2, "no image, so no QR code: \(images)")
        }

        /// Timed under its own format, not as an attestation PDF (issue 29, item 10). Other
        /// suites draw PDFs on the same server meanwhile: only the paper count is compared.
        @Test func paperAttestationsAreTimedUnderTheirOwnFormat() throws {
            let s = try SharedServer.get()
            func paperCount() throws -> Double {
                let metrics = try curl(s.server.baseURL + "/metrics").text
                let line = metrics.split(separator: "\n").first {
                    $0.hasPrefix("attestation_render_seconds_count") && $0.contains("format=\"paper_pdf\"")
                }
                return line.flatMap { $0.split(separator: " ").last }.flatMap { Double($0) } ?? 0
            }
            let before = try paperCount()
            #expect(try curl(s.server.url("/attestation-papier.pdf", token: s.eloise)).status == 200)
            #expect(try paperCount() >= before + 1)
        }

        @Test func paperAttestationRefusesAnExpiredLinkAndOtherParameters() throws {
            let s = try SharedServer.get()
            let expired = try s.site.expiredToken(.yasmine)
            let gone = try curl(s.server.url("/attestation-papier.pdf", token: expired))
            #expect(gone.status == 410, "\(gone.status) \(gone.text)")
            #expect(gone.text.contains("expiré"))
            SharedServerTests.AttestationRouteTests.expectPrivateHeaders(gone)
            let timed = try curl(s.server.url("/attestation-papier.pdf", token: s.eloise, "offset=-20"))
            #expect(timed.status == 400, "\(timed.status) \(timed.text)")
            #expect(timed.text.contains("offset"), "\(timed.text)")
        }
    }
}
