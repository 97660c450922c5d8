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
            guard let bytes = WinAnsiText.encode(text), bytes.allSatisfy({ file.metrics.widths[Int($0)] != 0 }) else {
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
        let reader = Reader(bytes: bytes)
        guard let version = reader.u32(0), version == 0x0001_0000 || version == 0x7472_7565,
            let tableCount = reader.u16(4)
        else {
            throw Unreadable(
                reason: "pas une police TrueType (contours TrueType attendus ; CFF/OpenType-PostScript refusé)")
        }
        var tables: [String: (offset: Int, length: Int)] = [:]
        for index in 0..<tableCount {
            let entry = 12 + 16 * index
            guard let tag = reader.tag(entry), let offset = reader.u32(entry + 8), let length = reader.u32(entry + 12),
                offset + length <= bytes.count
            else { throw Unreadable(reason: "table des tables tronquée") }
            tables[tag] = (offset, length)
        }
        func table(_ tag: String) throws(Unreadable) -> Int {
            guard let found = tables[tag] else { throw Unreadable(reason: "table « \(tag) » absente") }
            return found.offset
        }
        let head = try table("head")
        let hhea = try table("hhea")
        let maxp = try table("maxp")
        let hmtx = try table("hmtx")
        let loca = try table("loca")
        let glyf = try table("glyf")
        let cmap = try table("cmap")
        guard let unitsPerEm = reader.u16(head + 18), unitsPerEm > 0, let longLoca = reader.i16(head + 50),
            let horizontalMetrics = reader.u16(hhea + 34), horizontalMetrics > 0,
            let glyphCount = reader.u16(maxp + 4)
        else { throw Unreadable(reason: "tables head, hhea ou maxp illisibles") }
        guard let unicodeMap = reader.unicodeCMap(cmap) else {
            throw Unreadable(reason: "pas de table cmap Unicode (plateforme 3, encodage 1, format 4)")
        }

        var widths = [Int16](repeating: 0, count: 256)
        var bottoms = [Int16](repeating: 0, count: 256)
        var tops = [Int16](repeating: 0, count: 256)
        for byte in 0x20...0xFF {
            guard let scalar = WinAnsiText.decode(UInt8(byte)), let glyph = unicodeMap(scalar.value), glyph > 0,
                glyph < glyphCount
            else { continue }
            let metric = hmtx + 4 * min(glyph, horizontalMetrics - 1)
            guard let advance = reader.u16(metric) else { throw Unreadable(reason: "table hmtx tronquée") }
            // A space has no ink but a width; a width of 0 marks "no glyph" (refused at load).
            widths[byte] = Int16(clamping: max(1, advance * 1000 / unitsPerEm))
            let (start, end) =
                longLoca == 0
                ? (reader.u16(loca + 2 * glyph).map { $0 * 2 }, reader.u16(loca + 2 * glyph + 2).map { $0 * 2 })
                : (reader.u32(loca + 4 * glyph), reader.u32(loca + 4 * glyph + 4))
            guard let start, let end else { throw Unreadable(reason: "table loca tronquée") }
            guard end > start else { continue }
            guard let yMin = reader.i16(glyf + start + 4), let yMax = reader.i16(glyf + start + 8) else {
                throw Unreadable(reason: "table glyf tronquée")
            }
            bottoms[byte] = Int16(clamping: Int((Double(yMin) * 1000 / Double(unitsPerEm)).rounded(.down)))
            tops[byte] = Int16(clamping: Int((Double(yMax) * 1000 / Double(unitsPerEm)).rounded(.up)))
        }
        guard widths[0x20] != 0 else { throw Unreadable(reason: "pas d’espace (U+0020) dans la police") }
        return StandardFont.Metrics(widths: widths, bottoms: bottoms, tops: tops)
    }

    /// Big-endian numbers of the file, nil past its end.
    private struct Reader {
        let bytes: [UInt8]

        func u16(_ offset: Int) -> Int? {
            guard offset >= 0, offset + 2 <= bytes.count else { return nil }
            return Int(bytes[offset]) << 8 | Int(bytes[offset + 1])
        }
        func i16(_ offset: Int) -> Int? { u16(offset).map { Int(Int16(bitPattern: UInt16($0))) } }
        func u32(_ offset: Int) -> Int? {
            guard let high = u16(offset), let low = u16(offset + 2) else { return nil }
            return high << 16 | low
        }
        func tag(_ offset: Int) -> String? {
            guard offset + 4 <= bytes.count else { return nil }
            return String(decoding: bytes[offset..<offset + 4], as: UTF8.self)
        }

        /// The (3, 1) format 4 subtable as a lookup from a character to its glyph (0: none).
        func unicodeCMap(_ cmap: Int) -> ((UInt32) -> Int?)? {
            guard let count = u16(cmap + 2) else { return nil }
            for index in 0..<count {
                let record = cmap + 4 + 8 * index
                guard let platform = u16(record), let encoding = u16(record + 2), let offset = u32(record + 4),
                    platform == 3, encoding == 1, u16(cmap + offset) == 4,
                    let segmentsTwice = u16(cmap + offset + 6)
                else { continue }
                let table = cmap + offset
                let ends = table + 14
                let starts = ends + segmentsTwice + 2
                let deltas = starts + segmentsTwice
                let rangeOffsets = deltas + segmentsTwice
                return { (code: UInt32) -> Int? in
                    guard code <= 0xFFFF else { return 0 }
                    let code = Int(code)
                    for segment in 0..<segmentsTwice / 2 {
                        guard let end = u16(ends + 2 * segment) else { return nil }
                        guard code <= end else { continue }
                        guard let start = u16(starts + 2 * segment), code >= start,
                            let delta = u16(deltas + 2 * segment),
                            let rangeOffset = u16(rangeOffsets + 2 * segment)
                        else { return 0 }
                        if rangeOffset == 0 { return (code + delta) & 0xFFFF }
                        let at = rangeOffsets + 2 * segment + rangeOffset + 2 * (code - start)
                        guard let glyph = u16(at) else { return nil }
                        return glyph == 0 ? 0 : (glyph + delta) & 0xFFFF
                    }
                    return 0
                }
            }
            return nil
        }
    }
}
