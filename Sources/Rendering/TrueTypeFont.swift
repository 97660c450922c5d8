import Foundation

/// A TrueType font file (DejaVu Sans by default), read and indexed once, from which each
/// document embeds a subset holding only the glyphs it prints.
///
/// Why not libharu's loader: `HPDF_LoadTTFontFromFile` parses the file again for every
/// document (about 0.9 ms), and on saving copies the whole `cmap`, `hmtx`, `loca`, `name` and
/// `post` tables (about 140 KB for DejaVu Sans, whatever the text) and deflates them: 9–10 ms
/// and 50 KB a document with a single-byte encoding, 15 ms and 92 KB with its UTF-8 CID font,
/// which also builds a 65,536-entry CIDToGIDMap. A subset of the twenty-odd glyphs of a name is
/// a few kilobytes, built in microseconds.
final class TrueTypeFont: Sendable {
    let path: String
    /// The font's PostScript name (`DejaVuSans`), for `/BaseFont`.
    let postScriptName: String
    let unitsPerEm: Int
    let glyphCount: Int
    /// Font descriptor values, in thousandths of an em.
    let ascent: Int
    let descent: Int
    let capHeight: Int
    let boundingBox: (Int, Int, Int, Int)
    let italicAngle: Double

    private let data: [UInt8]
    private let tables: [String: Range<Int>]
    /// Unicode scalar → glyph, from the Windows Unicode `cmap` subtable.
    private let glyphs: [UInt32: UInt16]
    private let advances: [UInt16]
    private let sideBearings: [Int16]
    /// `glyf` offsets of each glyph's data, `glyphCount + 1` of them (from `loca`).
    private let glyphOffsets: [Int]
    /// The tables a subset copies unchanged, and its `name` table (the names and copyright
    /// of the original only).
    private let copiedTables: [(tag: String, bytes: [UInt8])]

    /// Reads and checks the file; any problem is `.unicodeFont(path:)`.
    static func load(path: String) throws(RenderingError) -> TrueTypeFont {
        guard let contents = FileManager.default.contents(atPath: path) else { throw .unicodeFont(path: path) }
        do {
            return try TrueTypeFont(path: path, data: [UInt8](contents))
        } catch {
            throw .unicodeFont(path: path)
        }
    }

    private struct Malformed: Error {}

    private init(path: String, data: [UInt8]) throws(Malformed) {
        let file = Bytes(data)
        // TrueType outlines only (0x00010000 or 'true'); not CFF ('OTTO') nor a collection ('ttcf').
        let version = try file.u32(0)
        guard version == 0x0001_0000 || version == 0x7472_7565 else { throw Malformed() }
        var tables: [String: Range<Int>] = [:]
        for index in 0..<Int(try file.u16(4)) {
            let entry = 12 + 16 * index
            let tag = String(decoding: try file.slice(entry, 4), as: UTF8.self)
            let offset = Int(try file.u32(entry + 8)), length = Int(try file.u32(entry + 12))
            guard offset + length <= data.count else { throw Malformed() }
            tables[tag] = offset..<offset + length
        }
        for tag in ["head", "hhea", "maxp", "hmtx", "loca", "glyf", "cmap"] where tables[tag] == nil { throw Malformed() }
        func table(_ tag: String) -> Bytes { Bytes(data, tables[tag]!) }

        let head = table("head"), hhea = table("hhea"), maxp = table("maxp")
        let unitsPerEm = Int(try head.u16(18))
        guard unitsPerEm > 0 else { throw Malformed() }
        let scale = { (value: Int16) in Int(value) * 1000 / unitsPerEm }
        let longOffsets = try head.i16(50) != 0
        let glyphCount = Int(try maxp.u16(4))
        guard glyphCount > 0 else { throw Malformed() }

        // Horizontal metrics: numberOfHMetrics full entries, then side bearings only.
        let hmtx = table("hmtx")
        let metricCount = Int(try hhea.u16(34))
        guard metricCount > 0, metricCount <= glyphCount else { throw Malformed() }
        var advances = [UInt16](), sideBearings = [Int16]()
        advances.reserveCapacity(glyphCount)
        sideBearings.reserveCapacity(glyphCount)
        for glyph in 0..<glyphCount {
            if glyph < metricCount {
                advances.append(try hmtx.u16(4 * glyph))
                sideBearings.append(try hmtx.i16(4 * glyph + 2))
            } else {
                advances.append(advances[metricCount - 1])
                sideBearings.append(try hmtx.i16(4 * metricCount + 2 * (glyph - metricCount)))
            }
        }

        let loca = table("loca"), glyf = tables["glyf"]!
        var offsets: [Int] = []
        offsets.reserveCapacity(glyphCount + 1)
        for glyph in 0...glyphCount {
            let offset = longOffsets ? Int(try loca.u32(4 * glyph)) : 2 * Int(try loca.u16(2 * glyph))
            guard offset <= glyf.count, offset >= (offsets.last ?? 0) else { throw Malformed() }
            offsets.append(offset)
        }
        let glyphs = try Self.readCmap(table("cmap"))

        var copied: [(String, [UInt8])] = []
        for tag in ["OS/2", "cvt ", "fpgm", "prep"] {
            if let range = tables[tag] { copied.append((tag, Array(data[range]))) }
        }
        if let name = tables["name"], let names = Self.essentialNames(Bytes(data, name)) { copied.append(("name", names)) }

        self.path = path
        self.data = data
        self.tables = tables
        self.unitsPerEm = unitsPerEm
        self.glyphCount = glyphCount
        self.advances = advances
        self.sideBearings = sideBearings
        self.glyphOffsets = offsets
        self.glyphs = glyphs
        self.copiedTables = copied
        boundingBox = (scale(try head.i16(36)), scale(try head.i16(38)), scale(try head.i16(40)), scale(try head.i16(42)))
        ascent = scale(try hhea.i16(4))
        descent = scale(try hhea.i16(6))
        italicAngle = if let post = tables["post"] { Double(try Bytes(data, post).i32(4)) / 65536 } else { 0 }
        postScriptName = Self.postScriptName(tables["name"].map { Bytes(data, $0) }) ?? "UnicodeFont"
        // CapHeight: the top of "H", as libharu measured it.
        let h = Int(glyphs[0x48] ?? 0)
        if h != 0, offsets[h + 1] - offsets[h] >= 10 {
            capHeight = scale(try Bytes(data, glyf).i16(offsets[h] + 8))
        } else {
            capHeight = scale(try hhea.i16(4))
        }
    }

    /// The glyph of a character; 0 (.notdef, a box) when the font has none.
    func glyph(for scalar: Unicode.Scalar) -> UInt16 { glyphs[scalar.value] ?? 0 }

    /// Advance width in thousandths of an em, truncated as libharu truncated it: the PDF's
    /// `/W` array and the layout use this same number.
    func width(ofGlyph glyph: UInt16) -> Int {
        Int(advances[Int(glyph)]) * 1000 / unitsPerEm
    }

    // MARK: - Subset

    /// A TrueType font whose glyph `i` is `requested[i]` of this one (`requested[0]` should be
    /// 0, .notdef), followed by the components of composite glyphs. `characters[i]`, when not
    /// nil, is what glyph `i` maps from in the subset's own `cmap`.
    func subset(_ requested: [UInt16], characters: [Unicode.Scalar?]) throws(RenderingError) -> [UInt8] {
        var order = requested
        var newIndex: [UInt16: UInt16] = [:]
        for (index, glyph) in requested.enumerated() where newIndex[glyph] == nil { newIndex[glyph] = UInt16(index) }
        let glyfStart = tables["glyf"]!.lowerBound

        var glyf: [UInt8] = []
        var loca: [UInt32] = []
        var position = 0
        while position < order.count {
            let glyph = Int(order[position])
            guard glyph < glyphCount else { throw .unicodeFont(path: path) }
            loca.append(UInt32(glyf.count))
            let start = glyfStart + glyphOffsets[glyph], end = glyfStart + glyphOffsets[glyph + 1]
            let base = glyf.count
            glyf.append(contentsOf: data[start..<end])
            // A composite glyph names its components by index: renumber them, adding any not
            // yet in the subset at its end.
            if end - start >= 10, Int16(bitPattern: UInt16(data[start]) << 8 | UInt16(data[start + 1])) < 0 {
                var offset = 10
                while true {
                    guard offset + 4 <= end - start else { throw .unicodeFont(path: path) }
                    let flags = UInt16(glyf[base + offset]) << 8 | UInt16(glyf[base + offset + 1])
                    let component = UInt16(glyf[base + offset + 2]) << 8 | UInt16(glyf[base + offset + 3])
                    let renumbered: UInt16
                    if let known = newIndex[component] {
                        renumbered = known
                    } else {
                        guard order.count < 0xFFFF else { throw .unicodeFont(path: path) }
                        renumbered = UInt16(order.count)
                        newIndex[component] = renumbered
                        order.append(component)
                    }
                    glyf[base + offset + 2] = UInt8(renumbered >> 8)
                    glyf[base + offset + 3] = UInt8(renumbered & 0xFF)
                    offset += 4 + (flags & 0x0001 != 0 ? 4 : 2)
                    offset += flags & 0x0008 != 0 ? 2 : flags & 0x0040 != 0 ? 4 : flags & 0x0080 != 0 ? 8 : 0
                    if flags & 0x0020 == 0 { break }
                }
            }
            while glyf.count % 4 != 0 { glyf.append(0) }
            position += 1
        }
        loca.append(UInt32(glyf.count))

        var hmtx: [UInt8] = []
        hmtx.reserveCapacity(order.count * 4)
        for glyph in order {
            hmtx.appendBigEndian(advances[Int(glyph)])
            hmtx.appendBigEndian(UInt16(bitPattern: sideBearings[Int(glyph)]))
        }
        var locaBytes: [UInt8] = []
        locaBytes.reserveCapacity(loca.count * 4)
        for offset in loca { locaBytes.appendBigEndian(offset) }

        var head = Array(data[tables["head"]!])
        head.replaceBigEndian(at: 8, UInt32(0))     // checkSumAdjustment, set last
        head.replaceBigEndian(at: 50, UInt16(1))    // long loca offsets
        var hhea = Array(data[tables["hhea"]!])
        hhea.replaceBigEndian(at: 34, UInt16(order.count))
        var maxp = Array(data[tables["maxp"]!])
        maxp.replaceBigEndian(at: 4, UInt16(order.count))
        // post version 3: the metrics of the header, no glyph names.
        var post = [UInt8](repeating: 0, count: 32)
        if let range = tables["post"], range.count >= 32 { post = Array(data[range.prefix(32)]) }
        post.replaceBigEndian(at: 0, UInt32(0x0003_0000))

        var tables = copiedTables
        tables += [("cmap", Self.cmap(characters)), ("glyf", glyf), ("head", head), ("hhea", hhea),
                   ("hmtx", hmtx), ("loca", locaBytes), ("maxp", maxp), ("post", post)]
        return Self.assemble(tables)
    }

    /// The sfnt file: table directory sorted by tag, each table 4-byte aligned, checksums and
    /// `head.checkSumAdjustment` filled in.
    private static func assemble(_ unsorted: [(tag: String, bytes: [UInt8])]) -> [UInt8] {
        let tables = unsorted.sorted { Array($0.tag.utf8).lexicographicallyPrecedes(Array($1.tag.utf8)) }
        var power = 1, log = 0
        while power * 2 <= tables.count { power *= 2; log += 1 }
        var file: [UInt8] = []
        file.appendBigEndian(UInt32(0x0001_0000))
        file.appendBigEndian(UInt16(tables.count))
        file.appendBigEndian(UInt16(power * 16))
        file.appendBigEndian(UInt16(log))
        file.appendBigEndian(UInt16(tables.count * 16 - power * 16))
        var offset = 12 + 16 * tables.count
        var headOffset: Int?
        for table in tables {
            file.append(contentsOf: table.tag.utf8)
            file.appendBigEndian(checksum(table.bytes))
            file.appendBigEndian(UInt32(offset))
            file.appendBigEndian(UInt32(table.bytes.count))
            if table.tag == "head" { headOffset = offset }
            offset += (table.bytes.count + 3) & ~3
        }
        file.reserveCapacity(offset)
        for table in tables {
            file.append(contentsOf: table.bytes)
            while file.count % 4 != 0 { file.append(0) }
        }
        if let headOffset {
            file.replaceBigEndian(at: headOffset + 8, 0xB1B0_AFBA &- checksum(file))
        }
        return file
    }

    private static func checksum(_ bytes: [UInt8]) -> UInt32 {
        var sum: UInt32 = 0
        var index = 0
        while index < bytes.count {
            var word: UInt32 = 0
            for byte in 0..<4 { word = word << 8 | UInt32(index + byte < bytes.count ? bytes[index + byte] : 0) }
            sum &+= word
            index += 4
        }
        return sum
    }

    /// A Windows Unicode `cmap` (format 4, one segment per character) for the BMP characters.
    private static func cmap(_ characters: [Unicode.Scalar?]) -> [UInt8] {
        var pairs: [(UInt16, UInt16)] = []
        for (glyph, scalar) in characters.enumerated() {
            if let scalar, scalar.value < 0xFFFF { pairs.append((UInt16(scalar.value), UInt16(glyph))) }
        }
        pairs.sort { $0.0 < $1.0 }
        let segments = pairs.count + 1
        var power = 1, log = 0
        while power * 2 <= segments { power *= 2; log += 1 }
        var subtable: [UInt8] = []
        subtable.appendBigEndian(UInt16(4))
        subtable.appendBigEndian(UInt16(16 + 8 * segments))
        subtable.appendBigEndian(UInt16(0))
        subtable.appendBigEndian(UInt16(2 * segments))
        subtable.appendBigEndian(UInt16(2 * power))
        subtable.appendBigEndian(UInt16(log))
        subtable.appendBigEndian(UInt16(2 * segments - 2 * power))
        for (code, _) in pairs { subtable.appendBigEndian(code) }
        subtable.appendBigEndian(UInt16(0xFFFF))
        subtable.appendBigEndian(UInt16(0))
        for (code, _) in pairs { subtable.appendBigEndian(code) }
        subtable.appendBigEndian(UInt16(0xFFFF))
        for (code, glyph) in pairs { subtable.appendBigEndian(glyph &- code) }
        subtable.appendBigEndian(UInt16(1))
        for _ in 0..<segments { subtable.appendBigEndian(UInt16(0)) }

        var table: [UInt8] = []
        table.appendBigEndian(UInt16(0))
        table.appendBigEndian(UInt16(1))
        table.appendBigEndian(UInt16(3))
        table.appendBigEndian(UInt16(1))
        table.appendBigEndian(UInt32(12))
        return table + subtable
    }

    // MARK: - Reading

    /// The Windows Unicode subtable: full repertoire (3,10) format 12 if present, else BMP
    /// (3,1) format 4.
    private static func readCmap(_ cmap: Bytes) throws(Malformed) -> [UInt32: UInt16] {
        var bmp: Int?, full: Int?
        for index in 0..<Int(try cmap.u16(2)) {
            let platform = try cmap.u16(4 + 8 * index), encoding = try cmap.u16(6 + 8 * index)
            let offset = Int(try cmap.u32(8 + 8 * index))
            let format = try cmap.u16(offset)
            if platform == 3, encoding == 10, format == 12 { full = offset }
            if platform == 3, encoding == 1, format == 4 { bmp = offset }
        }
        var result: [UInt32: UInt16] = [:]
        if let full {
            let groups = Int(try cmap.u32(full + 12))
            for group in 0..<groups {
                let entry = full + 16 + 12 * group
                let first = try cmap.u32(entry), last = try cmap.u32(entry + 4), glyph = try cmap.u32(entry + 8)
                guard first <= last, last <= 0x10FFFF, last - first < 0x10000 else { throw Malformed() }
                for code in first...last { result[code] = UInt16(truncatingIfNeeded: glyph + (code - first)) }
            }
            return result
        }
        guard let bmp else { throw Malformed() }
        let segments = Int(try cmap.u16(bmp + 6)) / 2
        let ends = bmp + 14, starts = ends + 2 * segments + 2
        let deltas = starts + 2 * segments, rangeOffsets = deltas + 2 * segments
        for segment in 0..<segments {
            let end = try cmap.u16(ends + 2 * segment), start = try cmap.u16(starts + 2 * segment)
            let delta = try cmap.u16(deltas + 2 * segment)
            let rangeOffsetPosition = rangeOffsets + 2 * segment
            let rangeOffset = Int(try cmap.u16(rangeOffsetPosition))
            guard start <= end else { continue }
            for code in start...end where code != 0xFFFF {
                var glyph: UInt16
                if rangeOffset == 0 {
                    glyph = code &+ delta
                } else {
                    glyph = try cmap.u16(rangeOffsetPosition + rangeOffset + 2 * Int(code - start))
                    if glyph != 0 { glyph = glyph &+ delta }
                }
                if glyph != 0 { result[UInt32(code)] = glyph }
            }
        }
        return result
    }

    /// Name 6 (PostScript name), Windows or Macintosh record.
    private static func postScriptName(_ name: Bytes?) -> String? {
        guard let name, let records = try? nameRecords(name) else { return nil }
        for record in records where record.id == 6 {
            let text: String
            let bytes = Array(record.bytes)
            if record.platform == 3 {
                let units = stride(from: 0, to: bytes.count - 1, by: 2).map { UInt16(bytes[$0]) << 8 | UInt16(bytes[$0 + 1]) }
                text = String(decoding: units, as: UTF16.self)
            } else if record.platform == 1 {
                text = String(decoding: bytes, as: UTF8.self)
            } else {
                continue
            }
            // A PDF name without delimiters or spaces.
            let cleaned = String(text.unicodeScalars.filter { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "-" || $0 == "_") }
                .map(Character.init))
            if !cleaned.isEmpty { return String(cleaned.prefix(63)) }
        }
        return nil
    }

    /// A `name` table with only the Windows records of names 0–6 (copyright, family, style,
    /// unique id, full name, version, PostScript name): the font's identity and copyright,
    /// without its long licence text and the other platforms' copies.
    private static func essentialNames(_ name: Bytes) -> [UInt8]? {
        guard let records = try? nameRecords(name) else { return nil }
        let kept = records.filter { $0.platform == 3 && $0.id <= 6 }
        guard !kept.isEmpty else { return nil }
        var table: [UInt8] = []
        table.appendBigEndian(UInt16(0))
        table.appendBigEndian(UInt16(kept.count))
        table.appendBigEndian(UInt16(6 + 12 * kept.count))
        var storage: [UInt8] = []
        for record in kept {
            table.appendBigEndian(record.platform)
            table.appendBigEndian(record.encoding)
            table.appendBigEndian(record.language)
            table.appendBigEndian(record.id)
            table.appendBigEndian(UInt16(record.bytes.count))
            table.appendBigEndian(UInt16(storage.count))
            storage.append(contentsOf: record.bytes)
        }
        return table + storage
    }

    private struct NameRecord {
        let platform, encoding, language, id: UInt16
        let bytes: ArraySlice<UInt8>
    }

    private static func nameRecords(_ name: Bytes) throws(Malformed) -> [NameRecord] {
        let count = Int(try name.u16(2)), storage = Int(try name.u16(4))
        var records: [NameRecord] = []
        for index in 0..<count {
            let entry = 6 + 12 * index
            let length = Int(try name.u16(entry + 8)), offset = Int(try name.u16(entry + 10))
            records.append(NameRecord(platform: try name.u16(entry), encoding: try name.u16(entry + 2),
                                      language: try name.u16(entry + 4), id: try name.u16(entry + 6),
                                      bytes: try name.slice(storage + offset, length)))
        }
        return records
    }

    /// Big-endian reads within a range of the file, each checked against its end.
    private struct Bytes {
        let data: [UInt8]
        let range: Range<Int>

        init(_ data: [UInt8], _ range: Range<Int>? = nil) {
            self.data = data
            self.range = range ?? 0..<data.count
        }

        func slice(_ offset: Int, _ count: Int) throws(Malformed) -> ArraySlice<UInt8> {
            guard offset >= 0, count >= 0, offset + count <= range.count else { throw Malformed() }
            return data[range.lowerBound + offset..<range.lowerBound + offset + count]
        }

        func u16(_ offset: Int) throws(Malformed) -> UInt16 {
            let bytes = try slice(offset, 2)
            return UInt16(bytes[bytes.startIndex]) << 8 | UInt16(bytes[bytes.startIndex + 1])
        }

        func i16(_ offset: Int) throws(Malformed) -> Int16 { Int16(bitPattern: try u16(offset)) }

        func u32(_ offset: Int) throws(Malformed) -> UInt32 {
            UInt32(try u16(offset)) << 16 | UInt32(try u16(offset + 2))
        }

        func i32(_ offset: Int) throws(Malformed) -> Int32 { Int32(bitPattern: try u32(offset)) }
    }
}

extension [UInt8] {
    mutating func appendBigEndian<T: FixedWidthInteger>(_ value: T) {
        for shift in stride(from: T.bitWidth - 8, through: 0, by: -8) { append(UInt8(truncatingIfNeeded: value >> shift)) }
    }

    mutating func replaceBigEndian<T: FixedWidthInteger>(at offset: Int, _ value: T) {
        for (index, shift) in stride(from: T.bitWidth - 8, through: 0, by: -8).enumerated() {
            self[offset + index] = UInt8(truncatingIfNeeded: value >> shift)
        }
    }
}
