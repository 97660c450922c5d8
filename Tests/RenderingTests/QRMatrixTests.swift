import AttestationKit
import FormSchema
import Foundation
import TestSupport
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
