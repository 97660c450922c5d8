import AttestationKit
import FormSchema
import Testing

@testable import Rendering

/// AttestationKit's widths of the standard fonts (made from URW's AFM files by
/// scripts/upkeep/generate-font-metrics.py), with which the load-time checks measure, the layout places
/// and the raster draws, against libharu's tables, the PDF's own writer's: the same for every
/// byte a font has a glyph for (a byte without one is refused at load time), but two.
@Suite("Standard font metrics")
struct StandardFontMetricsTests {
    static func libharuWidths(_ font: StandardFont) throws -> [Int] {
        let document = try HaruDocument()
        let handle = try document.standardFont(.standard(font))
        // Rendering's measure, libharu's widths: at 1000 points, a glyph's width in font units.
        return (0...255).map { Int(textWidth([UInt8($0)], font: handle, size: 1000).rounded()) }
    }

    @Test(arguments: StandardFont.allCases)
    func attestationKitsWidthsAreLibharusForEveryByte(font: StandardFont) throws {
        let libharu = try Self.libharuWidths(font)
        let ours = try StandardFontMetrics.shared.get().widths(.standard(font))
        var differing: [String] = []
        var compared = 0
        for byte in 0x20...0xFF where ours[byte] != 0 {
            compared += 1
            // WinAnsiEncoding's 0xAD is `hyphen` (ISO 32000-1, D.2), drawn so by PDF readers;
            // libharu maps it to U+00AD, a glyph the standard fonts lack, and counts its default
            // width. And URW's Symbol has a glyph at 0x80 (the euro) that Adobe's lacks.
            if font.usesWinAnsi && byte == 0xAD {
                #expect(ours[byte] == ours[0x2D], "\(font.rawValue): 0xAD is the hyphen")
                continue
            }
            if font == .symbol && byte == 0x80 { continue }
            if ours[byte] != libharu[byte] {
                differing.append("\(String(byte, radix: 16)): \(ours[byte]) for \(libharu[byte])")
            }
        }
        #expect(compared > 180, "\(font.rawValue): \(compared) glyphs")
        #expect(differing.isEmpty, "\(font.rawValue): \(differing)")
    }
}
