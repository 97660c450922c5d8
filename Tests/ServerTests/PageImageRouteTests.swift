import Foundation
import TestSupport
import Testing

extension SharedServerTests {
    /// `/attestation.png?page=…`: the whole page as an image, drawn by cairo from the PDF's
    /// layout (the comparison with the PDF itself is in RenderingTests' page image tests).
    @Suite struct PageImageRouteTests {
        /// Width and height from the IHDR chunk.
        static func pngSize(_ data: Data) -> (width: Int, height: Int)? {
            guard data.count > 24 else { return nil }
            let number = { (range: Range<Int>) in [UInt8](data[range]).reduce(0) { $0 << 8 | Int($1) } }
            return (number(16..<20), number(20..<24))
        }

        @Test func eachPageIsAPNGOfTheSameAttestationAsThePDF() throws {
            let s = try SharedServer.get()
            let scratch = try Scratch(prefix: "server-page-png")
            let before = Date()
            for page in 1...2 {
                let r = try curl(
                    s.server.url("/attestation.png", token: s.eloise, "page=\(page)&offset=-20&reasons=sante"))
                try #require(r.status == 200, "page \(page): \(r.status) \(r.text.prefix(300))")
                #expect(r.header("Content-Type") == "image/png")
                AttestationRouteTests.expectPrivateHeaders(r)
                #expect(r.body.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]))
                let size = try #require(Self.pngSize(r.body))
                #expect(size.width == 1241 && size.height == 1754, "A4 at 150 dpi by default: \(size)")
                #expect(r.body.count <= 150_000, "page \(page): \(r.body.count) bytes")
                let qr = try qrCode(of: r.body, in: scratch, png: true)
                let created = try qr.created
                #expect(abs(created.timeIntervalSince(before)) < 120)
                #expect(created.timeIntervalSince(try qr.exit) == 20 * 60, "offset=-20 as for the PDF")
                #expect(qr["Nom"] == "Quimperle")
                #expect(qr["Motifs"] == "sante")
                let name = String(Paris.fileName(created, extension: "png").dropLast(4)) + "-page\(page).png"
                #expect(r.header("Content-Disposition") == "inline; filename=\"\(name)\"")
            }
            for (dpi, width) in [(72, 596), (300, 2481)] {
                let r = try curl(s.server.url("/attestation.png", token: s.eloise, "page=1&dpi=\(dpi)"))
                #expect(r.status == 200, "dpi=\(dpi): \(r.status) \(r.text.prefix(300))")
                #expect(Self.pngSize(r.body)?.width == width, "dpi=\(dpi)")
            }
            // Without page, still the QR code alone.
            let qrOnly = try curl(s.server.url("/attestation.png", token: s.eloise, "size=300"))
            #expect(qrOnly.status == 200)
            #expect((Self.pngSize(qrOnly.body)?.width ?? 0) <= 300)
        }

        @Test(arguments: [
            ("page=9", ["Page invalide", "de 1 à 8"]),
            ("page=3", ["Page 3 inexistante", "de 1 à 2"]),
            ("page=0", ["Page invalide", "de 1 à 8"]),
            ("page=un", ["Page invalide", "de 1 à 8"]),
            ("page=1&dpi=71", ["Résolution (dpi) invalide", "72", "300"]),
            ("page=1&dpi=301", ["Résolution (dpi) invalide", "72", "300"]),
            ("page=2&dpi=150.5", ["Résolution (dpi) invalide", "72", "300"]),
            ("page=1&size=400", ["size", "QR code seul", "dpi"]),
            ("dpi=150", ["dpi", "page=1", "page=2"]),
        ])
        func aBadPageOrResolutionIsRefusedSayingWhatIsAccepted(query: String, words: [String]) throws {
            let s = try SharedServer.get()
            let r = try curl(s.server.url("/attestation.png", token: s.eloise, query))
            #expect(r.status == 400, "\(query): \(r.status)")
            for word in words { #expect(r.text.contains(word), "\(query): \(r.text)") }
        }

        @Test func pageAndDPIAreParametersOfThePNGOnly() throws {
            let s = try SharedServer.get()
            for query in ["page=1", "dpi=150"] {
                let r = try curl(s.server.url("/attestation.pdf", token: s.eloise, query))
                #expect(r.status == 400, "\(query) on the PDF: \(r.status)")
            }
        }

        @Test func pageImagesAreTimedUnderTheirOwnFormat() throws {
            let s = try SharedServer.get()
            let r = try curl(s.server.url("/attestation.png", token: s.eloise, "page=2&dpi=72"))
            try #require(r.status == 200)
            let metrics = try curl(s.server.baseURL + "/metrics").text
            let line = metrics.split(separator: "\n").first {
                $0.hasPrefix("attestation_render_seconds") && $0.contains("format=\"page_png\"")
            }
            #expect(
                line != nil, "\(metrics.split(separator: "\n").filter { $0.contains("attestation_render_seconds") })")
            #expect(!metrics.contains("Quimperle") && !metrics.contains(s.eloise), "no personal data in the metrics")
        }
    }
}
