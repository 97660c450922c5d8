import AttestationKit
import Foundation
import TestSupport
import Testing

@testable import Rendering

/// The renderer draws every QR code with one fixed mask instead of letting libqrencode score
/// all eight (QRMatrix.mask). ISO/IEC 18004 makes any mask valid; these tests prove that each
/// of the eight, on attestations of every kind, is read back by a real decoder from the
/// rasterised PDF: at print size (page 1's 92 pt code at 150 dpi) and at the size of a phone
/// screenshot (page 2's 300 pt code at 72 dpi).
@Suite("QR masks read back")
struct QRMaskTests {
    /// People whose payloads span the code sizes: short, accented, the longest allowed, and a
    /// name outside Windows-1252 (folded to ASCII in the payload).
    static func people() throws -> [(String, Identity)] {
        [
            ("camille", try Fixture.camille()), ("latin1", try Fixture.latin1Person()),
            ("widest", try Fixture.widestPerson()),
            ("polish", try Fixture.identity(first: "Łukasz", last: "Wałęsa", birthPlace: "Gdańsk")),
        ]
    }

    /// zbarimg's reading of the region of `page` at `dpi` holding the code (`x`, `y` from the
    /// bottom left, `side` in points), with 8 points of margin around it.
    private func read(
        _ path: String, page: Int, dpi: Int, x: Double, y: Double, side: Double, pageHeight: Double,
        in directory: URL
    ) throws -> String {
        let scale = Double(dpi) / 72
        let prefix = directory.appendingPathComponent("page\(page)-\(dpi)").path
        let crop = [
            "-x", "\(Int((x - 8) * scale))", "-y", "\(Int((pageHeight - y - side - 8) * scale))",
            "-W", "\(Int((side + 16) * scale))", "-H", "\(Int((side + 16) * scale))",
        ]
        try Tool.run(
            "pdftoppm",
            ["-gray", "-r", "\(dpi)", "-f", "\(page)", "-l", "\(page)", "-singlefile"] + crop + [path, prefix],
            in: directory)
        return try Tool.run("zbarimg", ["--raw", "-q", prefix + ".pgm"], in: directory, accepting: [0, 4]).text
    }

    @Test("each of the eight masks is read back at print and at phone size", arguments: 0..<8)
    func everyMaskScans(mask: Int) throws {
        let renderer = try Fixture.renderer()
        try withScratchDirectory { directory in
            for formID in builtInFormIDs {
                let form = try Fixture.form(formID)
                let small = try #require(form.qrCodes.first { $0.page == 1 })
                let large = try #require(form.qrCodes.first { $0.page == 2 })
                for (person, identity) in try Self.people() {
                    let attestation = try Fixture.attestation(identity, formID: formID)
                    let payload = QRPayload(attestation).text + "\n"
                    let path = try write(
                        try renderer.pdf(attestation, qrMask: Int32(mask)), named: "mask.pdf", in: directory)
                    for (placement, dpi) in [(small, 150), (large, 72)] {
                        let decoded = try read(
                            path, page: placement.page, dpi: dpi, x: placement.x, y: placement.y,
                            side: placement.size, pageHeight: form.page.height, in: directory)
                        #expect(
                            decoded == payload,
                            "mask \(mask), \(formID), \(person), page \(placement.page) at \(dpi) dpi: zbarimg read \(decoded.debugDescription)"
                        )
                    }
                }
            }
        }
    }

    @Test("the mask is the one drawn: the codes of two masks differ, and QRMatrix uses the fixed one by default")
    func maskIsApplied() throws {
        let bytes = QRPayload(try Fixture.attestation(try Fixture.camille(), formID: builtInFormIDs[0])).bytes
        let codes = try (0..<8).map { mask in try QRMatrix(encoding: bytes, mask: Int32(mask)) }
        for (index, code) in codes.enumerated() {
            for other in codes[(index + 1)...] {
                #expect(code.modules != other.modules, "two masks gave the same modules")
            }
        }
        #expect(try QRMatrix(encoding: bytes).modules == codes[Int(QRMatrix.mask)].modules)
    }
}
