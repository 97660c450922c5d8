import AttestationKit
import FormSchema
import Foundation
import Testing

@testable import Rendering

@Suite("QRMatrix")
struct QRMatrixTests {
    static func payloads() throws -> [[UInt8]] {
        var result: [[UInt8]] = [
            Array("A".utf8), Array("https://example.org/?q=1".utf8),
            Array(String(repeating: "x", count: 500).utf8),
            (0..<1200).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) },
        ]
        for formID in builtInFormIDs {
            for identity in [try Fixture.camille(), try Fixture.widestPerson(), try Fixture.latin1Person()] {
                result.append(QRPayload(try Fixture.attestation(identity, formID: formID)).bytes)
            }
        }
        return result
    }

    @Test("rectangles cover exactly the dark modules, each once, with far fewer rectangles than modules")
    func rectanglesCoverDarkModules() throws {
        for bytes in try Self.payloads() {
            let qr = try QRMatrix(encoding: bytes)
            #expect(qr.width >= 21 && (qr.width - 17) % 4 == 0, "\(qr.width) is not a QR code width")
            let rectangles = qr.rectangles()
            var cover = [Int](repeating: 0, count: qr.width * qr.width)
            for rect in rectangles {
                let inside =
                    rect.x >= 0 && rect.y >= 0 && rect.width >= 1 && rect.height >= 1
                    && rect.x + rect.width <= qr.width && rect.y + rect.height <= qr.width
                #expect(inside, "\(rect) outside the \(qr.width)-module code")
                guard inside else { continue }
                for row in rect.y..<rect.y + rect.height {
                    for column in rect.x..<rect.x + rect.width { cover[row * qr.width + column] += 1 }
                }
            }
            var dark = 0
            var wrong: [(Int, Int)] = []
            for row in 0..<qr.width {
                for column in 0..<qr.width {
                    let isDark = qr.isDark(row: row, column: column)
                    if isDark { dark += 1 }
                    if cover[row * qr.width + column] != (isDark ? 1 : 0) { wrong.append((row, column)) }
                }
            }
            #expect(
                wrong.isEmpty,
                "\(bytes.count) bytes: \(wrong.count) modules covered wrongly (0 or 2+ times for a dark one, any for a light one), first \(wrong.prefix(5))"
            )
            // The point of merging: fewer than half as many rectangles as dark modules.
            #expect(rectangles.count * 2 < dark, "\(rectangles.count) rectangles for \(dark) dark modules")
            #expect(dark > qr.width * qr.width / 4, "a QR code is about half dark; \(dark) of \(qr.width * qr.width)")
        }
    }

    @Test(
        "the 1-bit image has each module as a square of set bits, and nothing in the row padding", arguments: [1, 2, 3])
    func bitmap(scale: Int) throws {
        for bytes in try Self.payloads().prefix(4) {
            let qr = try QRMatrix(encoding: bytes)
            let (image, side, bytesPerRow) = qr.bitmap(scale: scale)
            #expect(side == qr.width * scale && bytesPerRow == (side + 7) / 8 && image.count == side * bytesPerRow)
            var wrong = 0
            for y in 0..<side {
                for x in 0..<bytesPerRow * 8 {
                    let set = image[y * bytesPerRow + x / 8] & (0x80 >> UInt8(x % 8)) != 0
                    if set != (x < side && qr.isDark(row: y / scale, column: x / scale)) { wrong += 1 }
                }
            }
            #expect(wrong == 0, "\(bytes.count) bytes at scale \(scale): \(wrong) pixels wrong")
        }
    }

    @Test("a payload too long for a QR code is refused")
    func tooLarge() {
        #expect(throws: RenderingError.qrCodeTooLarge(3000)) {
            _ = try QRMatrix(encoding: [UInt8](repeating: 0x41, count: 3000))
        }
    }

    @Test("the finder patterns are in three corners")
    func finderPatterns() throws {
        let qr = try QRMatrix(encoding: Array("attestation".utf8))
        for (top, left) in [(0, 0), (0, qr.width - 7), (qr.width - 7, 0)] {
            // Outer ring dark, next ring light, 3 × 3 centre dark.
            for i in 0..<7 {
                #expect(qr.isDark(row: top, column: left + i) && qr.isDark(row: top + 6, column: left + i))
                #expect(qr.isDark(row: top + i, column: left) && qr.isDark(row: top + i, column: left + 6))
            }
            for i in 1..<6 {
                #expect(!qr.isDark(row: top + 1, column: left + i) && !qr.isDark(row: top + 5, column: left + i))
            }
            #expect(qr.isDark(row: top + 3, column: left + 3))
        }
    }
}

@Suite("WinAnsi")
struct WinAnsiTests {
    @Test("Windows-1252 bytes of French and typographic characters")
    func encode() {
        #expect(WinAnsi.encode("é") == [0xE9])
        #expect(WinAnsi.encode("’") == [0x92])
        #expect(WinAnsi.encode("œ") == [0x9C])
        #expect(WinAnsi.encode("Œ") == [0x8C])
        #expect(WinAnsi.encode("€") == [0x80])
        #expect(WinAnsi.encode("–") == [0x96])
        #expect(WinAnsi.encode("«ÿ»") == [0xAB, 0xFF, 0xBB])
        #expect(WinAnsi.encode("Né(e) le :") == [0x4E, 0xE9, 0x28, 0x65, 0x29, 0x20, 0x6C, 0x65, 0x20, 0x3A])
        #expect(WinAnsi.encode("") == [])
    }

    @Test("characters outside Windows-1252 have no encoding")
    func outside() {
        #expect(WinAnsi.encode("Ł") == nil)
        #expect(WinAnsi.encode("Łukasz") == nil)
        #expect(WinAnsi.encode("Nguyễn") == nil)
        #expect(WinAnsi.encode("\u{81}") == nil, "0x81 is undefined in Windows-1252")
        #expect(WinAnsi.encode("a\nb") == nil, "control characters are not text")
        #expect(WinAnsi.encode("🙂") == nil)
    }
}

@Suite("Form layout")
struct FormLayoutTests {
    /// A built-in form as JSON, changed by `edit`, decoded and checked as an added form would be.
    private func editedForm(_ formID: String, _ edit: (inout [String: Any]) throws -> Void) throws -> Form {
        let data = try JSONEncoder().encode(try Fixture.form(formID))
        var json = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        try edit(&json)
        let edited = try JSONSerialization.data(withJSONObject: json)
        return try FormCatalog.decodeForm(edited, source: "\(formID)-edited.json")
    }

    @Test("the built-in forms re-encoded unchanged lay out without error", arguments: builtInFormIDs)
    func unchangedForm(formID: String) throws {
        let form = try editedForm(formID) { _ in }
        #expect(form == (try Fixture.form(formID)))
        #expect(throws: Never.self) { _ = try AttestationRenderer(forms: [form]) }
    }

    /// Issue 17: such a form passed `forms` and `mint`, then failed at every render; it is now
    /// refused when loaded, naming the reason (the renderer keeps its own check).
    @Test("reasons 3 points apart are refused when the form is loaded", arguments: builtInFormIDs)
    func overlappingReasons(formID: String) throws {
        let error = #expect(throws: FormError.self) {
            _ = try editedForm(formID) { json in
                var reasons = try #require(json["reasons"] as? [[String: Any]])
                let y = try #require(reasons[2]["y"] as? Double)
                reasons[3]["y"] = y - 3
                json["reasons"] = reasons
            }
        }
        let formError = try #require(error)
        #expect(formError.path == "reasons[3].y")
        #expect(formError.message.contains("famille"), "the message names the reason: \(formError.message)")
        // The built-in forms alone are fine.
        #expect(throws: Never.self) { _ = try Fixture.renderer() }
    }
}

@Suite("Library versions")
struct LibraryVersionTests {
    @Test("the loaded HarfBuzz says its version")
    func harfBuzzVersion() {
        let version = AttestationRenderer.libraryVersions["harfbuzz"] ?? ""
        #expect(version.wholeMatch(of: /[0-9]+(\.[0-9]+)+/) != nil, "\(version)")
    }
}

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
