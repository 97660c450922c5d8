import AttestationKit
import Foundation

/// The 14 standard PDF fonts, which every PDF reader has: a form names them for its fixed text,
/// and nothing is embedded. Values of a person that Windows-1252 cannot write are drawn with the
/// embedded DejaVu Sans instead, by the renderer.
public enum StandardFont: String, Sendable, Hashable, CaseIterable, Codable {
    case helvetica = "Helvetica"
    case helveticaBold = "Helvetica-Bold"
    case helveticaOblique = "Helvetica-Oblique"
    case helveticaBoldOblique = "Helvetica-BoldOblique"
    case timesRoman = "Times-Roman"
    case timesBold = "Times-Bold"
    case timesItalic = "Times-Italic"
    case timesBoldItalic = "Times-BoldItalic"
    case courier = "Courier"
    case courierBold = "Courier-Bold"
    case courierOblique = "Courier-Oblique"
    case courierBoldOblique = "Courier-BoldOblique"
    case symbol = "Symbol"
    case zapfDingbats = "ZapfDingbats"

    /// The names a form may use, for messages.
    public static var accepted: String { allCases.map(\.rawValue).joined(separator: ", ") }

    /// The Helvetica of a version 1 `style`.
    public init(style: FontStyle) {
        self =
            switch style {
            case .regular: .helvetica
            case .bold: .helveticaBold
            case .italic: .helveticaOblique
            }
    }

    /// The version 1 style of the three Helvetica fonts the renderer of version 1 draws.
    public var helveticaStyle: FontStyle? {
        switch self {
        case .helvetica: .regular
        case .helveticaBold: .bold
        case .helveticaOblique: .italic
        default: nil
        }
    }

    /// Symbol and ZapfDingbats have their own encoding: a character's code (U+0020 to U+00FF)
    /// is the code of the glyph drawn, as in a word processor (`4` in ZapfDingbats is ✔).
    /// The others are written in WinAnsiEncoding (Windows-1252).
    public var usesWinAnsi: Bool { self != .symbol && self != .zapfDingbats }

    /// The bytes of `text` in this font's encoding, or nil when a character has none.
    public func encode(_ text: String) -> [UInt8]? {
        let bytes =
            usesWinAnsi
            ? WinAnsiText.encode(text)
            : text.unicodeScalars.map { scalar -> UInt8? in
                (0x20...0xFF).contains(scalar.value) ? UInt8(scalar.value) : nil
            }.reduce(into: [UInt8]?([])) { result, byte in
                if let byte { result?.append(byte) } else { result = nil }
            }
        // The table once, not per byte: `metrics` is a dictionary lookup, and a form's texts are
        // encoded at every process's start.
        let widths = metrics.widths
        guard let bytes, bytes.allSatisfy({ widths[Int($0)] != 0 }) else { return nil }
        return bytes
    }

    /// The width of `bytes` at `size`, in points: the sum of the glyphs' widths, no kerning,
    /// as libharu measures and draws.
    public func width(_ bytes: some Collection<UInt8>, size: Double) -> Double {
        Double(bytes.reduce(0) { $0 + Int(metrics.widths[Int($1)]) }) * size / 1000
    }

    /// The advance width of each byte in thousandths of an em (0: no glyph, refused at load
    /// time), as PDF readers draw the standard fonts: the renderer draws and rasterises with
    /// these, so what is measured here is what is drawn.
    public var widths: [Int] { metrics.widths.map(Int.init) }

    /// The lowest and highest ink of `bytes` relative to the baseline, in points at `size`.
    public func verticalExtent(_ bytes: some Collection<UInt8>, size: Double) -> (bottom: Double, top: Double) {
        guard !bytes.isEmpty else { return (0, 0) }
        let bottom = bytes.map { Int(metrics.bottoms[Int($0)]) }.min()!
        let top = bytes.map { Int(metrics.tops[Int($0)]) }.max()!
        return (Double(bottom) * size / 1000, Double(top) * size / 1000)
    }

    struct Metrics: Sendable {
        let widths: [Int16]
        let bottoms: [Int16]
        let tops: [Int16]
    }

    var metrics: Metrics { Self.table[self]! }

    /// Read once from `Fonts/standard-fonts.json`, made by `scripts/upkeep/generate-font-metrics.py`.
    private static let table: [StandardFont: Metrics] = {
        struct File: Decodable {
            struct Font: Decodable {
                let widths: [Int16]
                let bottoms: [Int16]
                let tops: [Int16]
            }
            let fonts: [String: Font]
        }
        do {
            let json = Data(EmbeddedFiles.required("Fonts/standard-fonts.json"))
            let file = try JSONDecoder().decode(File.self, from: json)
            var table: [StandardFont: Metrics] = [:]
            for font in StandardFont.allCases {
                guard let entry = file.fonts[font.rawValue], entry.widths.count == 256,
                    entry.bottoms.count == 256, entry.tops.count == 256
                else {
                    fatalError("standard-fonts.json: no metrics for \(font.rawValue)")
                }
                table[font] = Metrics(widths: entry.widths, bottoms: entry.bottoms, tops: entry.tops)
            }
            return table
        } catch {
            fatalError("standard-fonts.json is unreadable: \(error)")
        }
    }()
}
