import AttestationKit
import FormSchema
import Foundation
import Testing

@testable import Rendering

@Suite("Rendering errors")
struct RenderingErrorTests {
    @Test("a libharu failure carries libharu's own code; a call that recorded none is named instead")
    func libharuCodesAreLibharus() throws {
        let document = try HaruDocument()
        #expect(document.error("HPDF_AddPage") == .pdfCallFailed("HPDF_AddPage"))
        // libharu refuses a page 1 point wide (its bounds are 3 to 14,400) and records why:
        // HPDF_PAGE_INVALID_SIZE, 0x1054 in hpdf_error.h.
        #expect(throws: RenderingError.pdf(code: 0x1054)) { _ = try document.addPage(width: 1, height: 100) }
        #expect(throws: RenderingError.pdf(code: 0x1054)) { try document.check() }
    }

    @Test("every internal failure says in French that it is internal")
    func frenchMessages() {
        let internalFailures: [RenderingError] = [
            .pdf(code: 0x1054), .pdfCallFailed("HPDF_AddPage"), .documentNotCreated, .unexpectedFontNames,
            .compressionFailed(-2), .incompleteOutput(expected: 100, read: 10),
        ]
        for error in internalFailures {
            #expect(error.description.hasPrefix("erreur interne de génération PDF ("), "\(error)")
        }
        #expect(RenderingError.incompleteOutput(expected: 100, read: 10).description.contains("10 octets lus sur 100"))
    }
}
