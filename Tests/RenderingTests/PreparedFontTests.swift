import AttestationKit
import FormSchema
import Foundation
import TestSupport
import Testing

@testable import Rendering

/// A drawn version's fonts and pictures are prepared once, when the form loads (issue 37): every
/// document copies the same bytes, whoever it is for.
@Suite("Prepared fonts and pictures")
struct PreparedFontTests {
    /// Each object of the PDF that is a font program or a picture, its dictionary and its bytes,
    /// in the order the PDF writes them.
    static func fontAndPictureStreams(_ pdf: [UInt8]) -> [[UInt8]] {
        var streams: [[UInt8]] = []
        // Each indirect object, from the end of its `N 0 obj` line to its `endobj`.
        for object in pdf.ranges(of: Array(" obj\n".utf8)) {
            guard let end = pdf[object.upperBound...].firstRange(of: Array("endobj".utf8)) else { continue }
            let body = pdf[object.upperBound..<end.lowerBound]
            guard let stream = body.firstRange(of: Array(">>\nstream\r\n".utf8)) else { continue }
            let dictionary = String(decoding: body[..<stream.lowerBound], as: UTF8.self)
            // A font program, or a picture (the QR code's image, 1 bit a pixel, is the person's).
            if dictionary.contains("/Length1")
                || dictionary.contains("/Subtype /Image") && !dictionary.contains("/BitsPerComponent 1\n")
            {
                streams.append(Array(body))
            }
        }
        return streams
    }

    @Test(arguments: ["deplacement-2021-06-10", "deplacement-2021-04-07-journee"])
    func twoPeoplesPDFsEmbedTheSameFontAndPictureBytes(formID: String) throws {
        let renderer = try Fixture.renderer()
        let camille = try renderer.pdf(try Fixture.attestation(try Fixture.camille(), formID: formID))
        // Other letters than Camille's (Œ, Ç, W…): a subset made per document would differ.
        let other = try renderer.pdf(try Fixture.attestation(try Fixture.latin1Person(), formID: formID))
        // Each object summed up as its size and a hash of its bytes, for a failure that reads.
        let summary = { (pdf: [UInt8]) in
            Self.fontAndPictureStreams(pdf).map { object in
                "\(object.count) bytes, FNV-1a \(object.reduce(UInt64(0xCBF2_9CE4_8422_2325)) { ($0 ^ UInt64($1)) &* 0x100_0000_01B3 })"
            }
        }
        let streams = summary(camille)
        #expect(streams.count >= 3, "fonts and pictures found: \(streams)")
        #expect(streams == summary(other))
    }

    @Test func aFontOfDatesOnlyHoldsTheirDigitsNotTheWholeAlphabet() throws {
        // deplacement-2021-06-10 writes the exit date and time in Luciole Bold, the names in Luciole.
        let layout = try FormLayout(form: try Fixture.form("deplacement-2021-06-10"))
        let fonts = Dictionary(uniqueKeysWithValues: layout.preparedFonts.map { ($0.key.rawValue, $0.value) })
        let bold = try #require(fonts["LucioleBold"])
        let regular = try #require(fonts["Luciole"])
        #expect(bold.covers(Array("0123456789/:h".utf8)))
        #expect(!bold.covers([0x8C]))
        #expect(regular.covers([0x8C, UInt8(ascii: "W"), 0xC7]))
    }
}
