import AttestationKit
import Foundation

/// The font of a text: one of the 14 standard PDF fonts, or a TrueType font file given with the
/// form (`fonts`). Both are written in WinAnsiEncoding (a file font too: one byte a character,
/// its glyphs reached through the file's Unicode `cmap`), so layout, measuring and the load
/// checks are the same for both.
public enum TextFont: Sendable, Hashable {
    case standard(StandardFont)
    case file(FontFile)

    public static let helvetica = TextFont.standard(.helvetica)

    /// The name a form uses for it.
    public var rawValue: String {
        switch self {
        case .standard(let font): font.rawValue
        case .file(let file): file.name
        }
    }

    /// Whether it is one of the 14 standard fonts, which nothing embeds.
    public var isStandard: Bool { if case .standard = self { true } else { false } }

    /// Whether the text is written in WinAnsiEncoding (all but Symbol and ZapfDingbats).
    public var usesWinAnsi: Bool {
        switch self {
        case .standard(let font): font.usesWinAnsi
        case .file: true
        }
    }

    var metrics: StandardFont.Metrics {
        switch self {
        case .standard(let font): font.metrics
        case .file(let file): file.metrics
        }
    }

    /// The bytes of `text` in this font's encoding, or nil when a character has no glyph.
    public func encode(_ text: String) -> [UInt8]? {
        switch self {
        case .standard(let font): return font.encode(text)
        case .file(let file):
            let widths = file.metrics.widths
            guard let bytes = WinAnsiText.encode(text), bytes.allSatisfy({ widths[Int($0)] != 0 }) else {
                return nil
            }
            return bytes
        }
    }

    /// The width of `bytes` at `size`, in points, as libharu measures and draws.
    public func width(_ bytes: some Collection<UInt8>, size: Double) -> Double {
        Double(bytes.reduce(0) { $0 + Int(metrics.widths[Int($1)]) }) * size / 1000
    }

    /// The advance width of each byte in thousandths of an em (0: no glyph).
    public var widths: [Int] { metrics.widths.map(Int.init) }

    /// The lowest and highest ink of `bytes` relative to the baseline, in points at `size`.
    public func verticalExtent(_ bytes: some Collection<UInt8>, size: Double) -> (bottom: Double, top: Double) {
        guard !bytes.isEmpty else { return (0, 0) }
        let bottom = bytes.map { Int(metrics.bottoms[Int($0)]) }.min()!
        let top = bytes.map { Int(metrics.tops[Int($0)]) }.max()!
        return (Double(bottom) * size / 1000, Double(top) * size / 1000)
    }
}

/// A TrueType font file given with a form, under the name its texts use. Read and measured at
/// load: the advance width (truncated to thousandths of an em, as libharu writes `/Widths`) and
/// the ink's bottom and top of the glyph of each WinAnsi byte, from the file's `head`, `hhea`,
/// `hmtx`, `maxp`, `loca`, `glyf` and its Unicode `cmap` (platform 3, encoding 1, format 4: the
/// one libharu, which embeds it, reads). Read here rather than through HarfBuzz: FormSchema
/// imports no C, and these few tables are all a form's checks need.
public final class FontFile: Sendable, Hashable {
    /// The name the form's texts use (`"font": "Luciole"`).
    public let name: String
    /// The file as the form names it (beside the form).
    public let fileName: String
    /// Where it was read.
    public let path: String
    let metrics: StandardFont.Metrics

    /// Files larger than this are refused: a font for a form's text, not a CJK font.
    public static let maximumBytes = 4 << 20

    public static func == (a: FontFile, b: FontFile) -> Bool { a.path == b.path && a.name == b.name }
    public func hash(into hasher: inout Hasher) {
        hasher.combine(path)
        hasher.combine(name)
    }

    /// Why a file cannot be used, in French.
    public struct Unreadable: Error, Sendable {
        public let reason: String
    }

    /// The font's bytes when it is built in (`BuiltInFormFiles`); nil for a file read from
    /// `path`.
    public let builtInBytes: [UInt8]?
    /// The bytes read and measured: the renderer embeds these, never the file read again, so
    /// that what it draws is what was checked.
    public let bytes: [UInt8]

    /// The file at `path`, read and measured now.
    public convenience init(name: String, fileName: String, path: String) throws(Unreadable) {
        let file: (bytes: [UInt8], path: String, isBuiltIn: Bool)
        do {
            file = try FormFiles.directory(URL(fileURLWithPath: path).deletingLastPathComponent())
                .read(URL(fileURLWithPath: path).lastPathComponent, limit: Self.maximumBytes)
        } catch {
            throw Unreadable(reason: error.reason)
        }
        try self.init(name: name, fileName: fileName, path: file.path, bytes: file.bytes, builtIn: false)
    }

    init(name: String, fileName: String, path: String, bytes: [UInt8], builtIn: Bool) throws(Unreadable) {
        (self.name, self.fileName, self.path) = (name, fileName, path)
        builtInBytes = builtIn ? bytes : nil
        self.bytes = bytes
        metrics = try Self.measure(bytes)
    }

    private static func measure(_ bytes: [UInt8]) throws(Unreadable) -> StandardFont.Metrics {
        let file = Reader(bytes: bytes, start: 0, end: bytes.count)
        guard let version = file.u32(0), version == 0x0001_0000 || version == 0x7472_7565,
            let tableCount = file.u16(4)
        else {
            throw Unreadable(
                reason: "pas une police TrueType (contours TrueType attendus ; CFF/OpenType-PostScript refusé)")
        }
        var tables: [String: Reader] = [:]
        for index in 0..<tableCount {
            let entry = 12 + 16 * index
            guard let tag = file.tag(entry), let offset = file.u32(entry + 8), let length = file.u32(entry + 12),
                offset + length <= bytes.count
            else {
                throw Unreadable(reason: "table des tables tronquée, ou table qui sort du fichier")
            }
            tables[tag] = Reader(bytes: bytes, start: offset, end: offset + length)
        }
        // Each table is read within its own bounds, so that a count or an offset that runs past
        // a table's end is refused, never read from the next table.
        func table(_ tag: String, atLeast minimum: Int) throws(Unreadable) -> Reader {
            guard let found = tables[tag] else { throw Unreadable(reason: "table « \(tag) » absente") }
            guard found.count >= minimum else {
                throw Unreadable(reason: "table « \(tag) » trop courte (\(found.count) octets, \(minimum) au moins)")
            }
            return found
        }
        let head = try table("head", atLeast: 54)
        let hhea = try table("hhea", atLeast: 36)
        let maxp = try table("maxp", atLeast: 6)
        let glyphCount = maxp.u16(4)!
        let horizontalMetrics = hhea.u16(34)!
        guard glyphCount > 0, horizontalMetrics > 0, horizontalMetrics <= glyphCount else {
            throw Unreadable(
                reason:
                    "nombre de métriques (hhea, \(horizontalMetrics)) incohérent avec le nombre de glyphes (maxp, \(glyphCount))"
            )
        }
        let hmtx = try table("hmtx", atLeast: 4 * horizontalMetrics + 2 * (glyphCount - horizontalMetrics))
        let unitsPerEm = head.u16(18)!
        guard unitsPerEm > 0, let longLoca = head.i16(50), longLoca == 0 || longLoca == 1 else {
            throw Unreadable(reason: "table head illisible (unitsPerEm, indexToLocFormat)")
        }
        let loca = try table("loca", atLeast: (glyphCount + 1) * (longLoca == 0 ? 2 : 4))
        let glyf = try table("glyf", atLeast: 0)
        let cmap = try table("cmap", atLeast: 4)
        guard let unicodeMap = cmap.unicodeCMap() else {
            throw Unreadable(reason: "pas de table cmap Unicode lisible (plateforme 3, encodage 1, format 4)")
        }

        var widths = [Int16](repeating: 0, count: 256)
        var bottoms = [Int16](repeating: 0, count: 256)
        var tops = [Int16](repeating: 0, count: 256)
        for byte in 0x20...0xFF {
            guard let scalar = WinAnsiText.decode(UInt8(byte)) else { continue }
            guard let glyph = unicodeMap(scalar.value) else {
                throw Unreadable(
                    reason: "table cmap tronquée (glyphe de U+\(String(scalar.value, radix: 16, uppercase: true)))")
            }
            guard glyph > 0, glyph < glyphCount else { continue }
            let advance = hmtx.u16(4 * min(glyph, horizontalMetrics - 1))!
            // A space has no ink but a width; a width of 0 marks "no glyph" (refused at load).
            widths[byte] = Int16(clamping: max(1, advance * 1000 / unitsPerEm))
            let (start, end) =
                longLoca == 0
                ? (loca.u16(2 * glyph)! * 2, loca.u16(2 * glyph + 2)! * 2)
                : (loca.u32(4 * glyph)!, loca.u32(4 * glyph + 4)!)
            guard end > start else { continue }
            guard end <= glyf.count, let yMin = glyf.i16(start + 4), let yMax = glyf.i16(start + 8) else {
                throw Unreadable(reason: "glyphe \(glyph) hors de la table glyf (loca incohérente)")
            }
            bottoms[byte] = Int16(clamping: Int((Double(yMin) * 1000 / Double(unitsPerEm)).rounded(.down)))
            tops[byte] = Int16(clamping: Int((Double(yMax) * 1000 / Double(unitsPerEm)).rounded(.up)))
        }
        guard widths[0x20] != 0 else { throw Unreadable(reason: "pas d’espace (U+0020) dans la police") }
        return StandardFont.Metrics(widths: widths, bottoms: bottoms, tops: tops)
    }

    /// Big-endian numbers of a part of the file (the whole file, or one table), nil outside it;
    /// offsets are from the part's start.
    private struct Reader {
        let bytes: [UInt8]
        let start: Int
        let end: Int

        var count: Int { end - start }

        func u16(_ offset: Int) -> Int? {
            guard offset >= 0, offset + 2 <= count else { return nil }
            return Int(bytes[start + offset]) << 8 | Int(bytes[start + offset + 1])
        }
        func i16(_ offset: Int) -> Int? { u16(offset).map { Int(Int16(bitPattern: UInt16($0))) } }
        func u32(_ offset: Int) -> Int? {
            guard let high = u16(offset), let low = u16(offset + 2) else { return nil }
            return high << 16 | low
        }
        func tag(_ offset: Int) -> String? {
            guard offset >= 0, offset + 4 <= count else { return nil }
            return String(decoding: bytes[start + offset..<start + offset + 4], as: UTF8.self)
        }
        /// The `length` bytes at `offset`, nil unless they are all inside this part.
        func part(_ offset: Int, length: Int) -> Reader? {
            guard offset >= 0, length >= 0, offset + length <= count else { return nil }
            return Reader(bytes: bytes, start: start + offset, end: start + offset + length)
        }

        /// The (3, 1) format 4 subtable of this `cmap` table as a lookup from a character to its
        /// glyph (0: none; nil: the subtable is cut short there). The subtable must lie inside
        /// the table, and its four arrays inside its own `length`.
        func unicodeCMap() -> ((UInt32) -> Int?)? {
            guard let count = u16(2) else { return nil }
            for index in 0..<count {
                let record = 4 + 8 * index
                guard let platform = u16(record), let encoding = u16(record + 2), let offset = u32(record + 4),
                    platform == 3, encoding == 1, u16(offset) == 4, let length = u16(offset + 2),
                    let table = part(offset, length: length), let segmentsTwice = table.u16(6),
                    segmentsTwice > 0, segmentsTwice % 2 == 0, 16 + 4 * segmentsTwice <= length
                else { continue }
                let ends = 14
                let starts = ends + segmentsTwice + 2
                let deltas = starts + segmentsTwice
                let rangeOffsets = deltas + segmentsTwice
                return { (code: UInt32) -> Int? in
                    guard code <= 0xFFFF else { return 0 }
                    let code = Int(code)
                    for segment in 0..<segmentsTwice / 2 {
                        guard let end = table.u16(ends + 2 * segment) else { return nil }
                        guard code <= end else { continue }
                        guard let start = table.u16(starts + 2 * segment), code >= start,
                            let delta = table.u16(deltas + 2 * segment),
                            let rangeOffset = table.u16(rangeOffsets + 2 * segment)
                        else { return 0 }
                        if rangeOffset == 0 { return (code + delta) & 0xFFFF }
                        let at = rangeOffsets + 2 * segment + rangeOffset + 2 * (code - start)
                        guard let glyph = table.u16(at) else { return nil }
                        return glyph == 0 ? 0 : (glyph + delta) & 0xFFFF
                    }
                    return 0
                }
            }
            return nil
        }
    }
}
