import AttestationKit
import FormSchema
import Foundation
import TestSupport
import Testing

@testable import Rendering

// MARK: - Fixed inputs

/// The ids of the built-in forms, the argument of most parameterized tests.
let builtInFormIDs = ["deplacement-2020-11-28", "deplacement-2020-11-02"]

extension Fixture {
    /// 2020-11-28T07:15:00Z, that is 08:15 in Paris (UTC+1 in November).
    static let now = Date(timeIntervalSince1970: 1_606_547_700)

    /// One renderer of the built-in forms for every test that needs no other: laying out the 16
    /// forms was most of a test's cost under the address sanitizer (`PaperAttestationTests`, 68
    /// renderers, 76 s of CPU), and a renderer is immutable and shared by threads.
    static func renderer() throws -> AttestationRenderer { try sharedRenderer.get() }

    private static let sharedRenderer = Result { () throws(RenderingError) -> AttestationRenderer in
        try AttestationRenderer(forms: FormCatalog.builtIn.forms)
    }

    static func form(_ id: String) throws -> Form {
        try #require(FormCatalog.builtIn.form(id: id), "built-in form \(id) is missing")
    }

    static func identity(
        first: String = "Camille", last: String = "Dupont", birthDate: String = "01/01/1970",
        birthPlace: String = "Lyon", address: String = "999 avenue de France", zip: String = "75001",
        city: String = "Paris"
    ) throws -> Identity {
        try Identity(
            firstName: first, lastName: last, birthDate: birthDate, birthPlace: birthPlace,
            address: address, zipCode: zip, city: city, today: today)
    }

    /// Camille Dupont, born 01/01/1970 in Lyon, 999 avenue de France 75001 Paris.
    static func camille() throws -> Identity { try identity() }

    /// A person whose every value is in Windows-1252 but not all in Latin-1 (Œ is 0x8C).
    static func latin1Person() throws -> Identity {
        try identity(
            first: "François", last: "Lefèvre-Œuvray", birthPlace: "Besançon",
            address: "12 rue de l’Église", zip: "42000", city: "Saint-Étienne")
    }

    /// Every free-text value at its longest (Identity.maximumLengths), in capital W, the widest
    /// Helvetica letter.
    static func widestPerson() throws -> Identity {
        let w = { (count: Int) in String(repeating: "W", count: count) }
        return try identity(first: w(50), last: w(50), birthPlace: w(60), address: w(100), city: w(50))
    }

    /// The first reason and the third one of the form (so not only the first is tested).
    static func attestation(
        _ identity: Identity, formID: String, reasonCodes: [String]? = nil
    ) throws -> Attestation {
        let form = try form(formID)
        let codes = reasonCodes ?? [form.reasons[0].code, form.reasons[2].code]
        return try Attestation(
            identity: identity, form: form, reasonCodes: codes, exit: .now,
            timeZone: .paris, now: now)
    }
}

// MARK: - Scratch directory

/// Runs `body` with a fresh temporary directory, removed afterwards whatever happens.
func withScratchDirectory<T>(_ body: (URL) throws -> T) throws -> T {
    let url = FileManager.default.temporaryDirectory
        .appendingPathComponent("rendering-tests-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: url) }
    return try body(url)
}

/// Writes `bytes` as `name` in `directory` and returns its path.
@discardableResult
func write(_ bytes: [UInt8], named name: String, in directory: URL) throws -> String {
    let url = directory.appendingPathComponent(name)
    try Data(bytes).write(to: url)
    return url.path
}

// MARK: - Outside tools

struct ToolFailure: Error, CustomStringConvertible {
    let description: String
}

struct ToolResult {
    let status: Int32
    let stdout: Data
    let stderr: String
    var text: String { String(decoding: stdout, as: UTF8.self) }
}

enum Tool {
    /// The Debian package of each tool, for the message when one is missing.
    static let packages = [
        "pdftotext": "poppler-utils", "pdftoppm": "poppler-utils", "pdffonts": "poppler-utils",
        "pdfinfo": "poppler-utils", "pdfimages": "poppler-utils", "qpdf": "qpdf", "zbarimg": "zbar-tools",
        "convert": "imagemagick", "compare": "imagemagick",
    ]

    static func locate(_ name: String) -> URL? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        let directories = path.split(separator: ":").map(String.init) + ["/usr/bin", "/usr/local/bin", "/bin"]
        for directory in directories {
            let candidate = URL(fileURLWithPath: directory).appendingPathComponent(name)
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        }
        return nil
    }

    /// Runs `name` with `arguments` in `directory`; a missing tool or an exit status outside
    /// `accepting` is an error that says what to install or what the tool printed.
    @discardableResult
    static func run(
        _ name: String, _ arguments: [String], in directory: URL, accepting statuses: Set<Int32> = [0]
    ) throws -> ToolResult {
        guard let executable = locate(name) else {
            let package = packages[name] ?? name
            throw ToolFailure(
                description:
                    "outside tool `\(name)` is not installed (not found in PATH); install the Debian package \(package): apt-get install \(package)"
            )
        }
        // Output goes to files, not pipes: a chatty tool cannot block on a full pipe.
        let id = UUID().uuidString
        let outURL = directory.appendingPathComponent(".\(name)-\(id).stdout")
        let errURL = directory.appendingPathComponent(".\(name)-\(id).stderr")
        guard FileManager.default.createFile(atPath: outURL.path, contents: nil),
            FileManager.default.createFile(atPath: errURL.path, contents: nil)
        else {
            throw ToolFailure(description: "cannot create output files in \(directory.path)")
        }
        defer {
            try? FileManager.default.removeItem(at: outURL)
            try? FileManager.default.removeItem(at: errURL)
        }
        let out = try FileHandle(forWritingTo: outURL)
        let err = try FileHandle(forWritingTo: errURL)

        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.currentDirectoryURL = directory
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = out
        process.standardError = err
        try process.run()
        process.waitUntilExit()
        try out.close()
        try err.close()

        let result = ToolResult(
            status: process.terminationStatus,
            stdout: try Data(contentsOf: outURL),
            stderr: String(decoding: try Data(contentsOf: errURL), as: UTF8.self))
        guard statuses.contains(result.status) else {
            throw ToolFailure(
                description:
                    "`\(name) \(arguments.joined(separator: " "))` exited with status \(result.status); stderr: \(result.stderr)"
            )
        }
        return result
    }
}

// MARK: - pdftotext -bbox

struct Word: CustomStringConvertible {
    let text: String
    let xMin: Double
    let yMin: Double
    let xMax: Double
    let yMax: Double

    var description: String { "«\(text)» [x \(xMin)…\(xMax), y \(yMin)…\(yMax)]" }

    /// Helvetica as poppler boxes it: the box spans the font's descender and ascender,
    /// yMax − yMin = (0.718 + 0.207) × size, and yMax = pageHeight − baseline + 0.207 × size
    /// (AFM descender −207/1000; README §6 suggests ≈ 0.212). Measured once on the 2020-11-28
    /// form: "Camille" at 11 pt on baseline 702 of the 841.92 pt page gives yMin 132.022,
    /// yMax 142.197, so 142.197 − (841.92 − 702) = 2.277 = 0.207 × 11 and the height
    /// 10.175 = 0.925 × 11. Both constants are for Helvetica only.
    static let helveticaDescent = 0.207
    static let helveticaHeight = 0.925

    /// The type size, from the height of the box (Helvetica).
    var fontSize: Double { (yMax - yMin) / Self.helveticaHeight }

    /// The baseline in PDF points from the bottom of the page (Helvetica).
    func baseline(pageHeight: Double) -> Double {
        pageHeight - yMax + Self.helveticaDescent * fontSize
    }
}

struct BBoxPage {
    let width: Double
    let height: Double
    let words: [Word]
}

enum BBox {
    /// Pages and words of `pdftotext -bbox` output.
    static func parse(_ xhtml: String) throws -> [BBoxPage] {
        var pages: [BBoxPage] = []
        var size: (Double, Double)?
        var words: [Word] = []
        for line in xhtml.split(separator: "\n") {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.hasPrefix("<page ") {
                size = (try attribute("width", trimmed), try attribute("height", trimmed))
                words = []
            } else if trimmed.hasPrefix("<word ") {
                guard let open = trimmed.firstIndex(of: ">"), let close = trimmed.range(of: "</word>") else {
                    throw ToolFailure(description: "unreadable bbox line: \(trimmed)")
                }
                let text = unescape(String(trimmed[trimmed.index(after: open)..<close.lowerBound]))
                words.append(
                    Word(
                        text: text, xMin: try attribute("xMin", trimmed), yMin: try attribute("yMin", trimmed),
                        xMax: try attribute("xMax", trimmed), yMax: try attribute("yMax", trimmed)))
            } else if trimmed.hasPrefix("</page>"), let (width, height) = size {
                pages.append(BBoxPage(width: width, height: height, words: words))
                size = nil
            }
        }
        return pages
    }

    private static func attribute(_ name: String, _ line: String) throws -> Double {
        guard let start = line.range(of: " \(name)=\""),
            let end = line[start.upperBound...].firstIndex(of: "\""),
            let value = Double(line[start.upperBound..<end])
        else {
            throw ToolFailure(description: "attribute \(name) missing in bbox line: \(line)")
        }
        return value
    }

    private static func unescape(_ text: String) -> String {
        text.replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
            .replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&apos;", with: "'")
            .replacingOccurrences(of: "&amp;", with: "&")
    }

    /// Page 1 of `pdf`, boxed by `pdftotext -bbox`.
    static func firstPage(of pdf: [UInt8], in directory: URL) throws -> BBoxPage {
        try page(1, of: pdf, in: directory)
    }

    /// Page `number` of `pdf`, boxed by `pdftotext -bbox`.
    static func page(_ number: Int, of pdf: [UInt8], in directory: URL) throws -> BBoxPage {
        let path = try write(pdf, named: "bbox-\(UUID().uuidString).pdf", in: directory)
        let output = try Tool.run(
            "pdftotext", ["-bbox", "-f", "\(number)", "-l", "\(number)", path, "-"], in: directory)
        let pages = try parse(output.text)
        try #require(pages.count == 1, "pdftotext -bbox -f \(number) -l \(number) gave \(pages.count) pages")
        return pages[0]
    }
}

// MARK: - Images

/// The width and height in a PNG's IHDR chunk, which must come first.
func pngDimensions(_ bytes: [UInt8]) throws -> (width: Int, height: Int) {
    let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
    try #require(bytes.count >= 24, "PNG too short (\(bytes.count) bytes)")
    try #require(Array(bytes[0..<8]) == signature, "no PNG signature")
    try #require(Array(bytes[12..<16]) == Array("IHDR".utf8), "first chunk is not IHDR")
    func bigEndian(_ offset: Int) -> Int {
        bytes[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
    }
    return (bigEndian(16), bigEndian(20))
}

/// An 8-bit greyscale picture read from a binary PGM (P5), as `pdftoppm -gray` writes it.
struct GrayImage {
    let width: Int
    let height: Int
    let pixels: [UInt8]

    init(pgm data: Data) throws {
        let bytes = [UInt8](data)
        var index = 0
        func token() throws -> String {
            while index < bytes.count,
                bytes[index] == 0x20 || bytes[index] == 0x0A || bytes[index] == 0x0D || bytes[index] == 0x09
            {
                index += 1
            }
            let start = index
            while index < bytes.count,
                !(bytes[index] == 0x20 || bytes[index] == 0x0A || bytes[index] == 0x0D || bytes[index] == 0x09)
            {
                index += 1
            }
            guard index > start else { throw ToolFailure(description: "truncated PGM header") }
            return String(decoding: bytes[start..<index], as: UTF8.self)
        }
        guard try token() == "P5", let width = Int(try token()), let height = Int(try token()),
            try token() == "255"
        else { throw ToolFailure(description: "not an 8-bit binary PGM") }
        index += 1  // the single whitespace after the maximum value
        guard bytes.count - index == width * height else {
            throw ToolFailure(description: "PGM holds \(bytes.count - index) pixels, expected \(width * height)")
        }
        self.width = width
        self.height = height
        self.pixels = Array(bytes[index...])
    }

    func isDark(x: Int, y: Int) -> Bool { pixels[y * width + x] < 128 }

    /// The bounding box (inclusive pixel columns and rows) of the dark pixels inside a region.
    func darkBounds(xs: Range<Int>, ys: Range<Int>) -> (minX: Int, maxX: Int, minY: Int, maxY: Int)? {
        var result: (minX: Int, maxX: Int, minY: Int, maxY: Int)?
        for y in ys.clamped(to: 0..<height) {
            for x in xs.clamped(to: 0..<width) where isDark(x: x, y: y) {
                if let r = result {
                    result = (min(r.minX, x), max(r.maxX, x), min(r.minY, y), max(r.maxY, y))
                } else {
                    result = (x, x, y, y)
                }
            }
        }
        return result
    }
}

// MARK: - Words of a text

enum TextTokens {
    /// Runs of letters and digits, and each punctuation or symbol character on its own
    /// (so "à:" and "à :" give the same tokens); whitespace, control and private-use
    /// characters (the official template's check-box glyphs) are dropped, and so are tokens
    /// made only of digits and periods (the numbering "1.", "1", ".").
    static func words(_ text: String) -> [String] {
        var tokens: [String] = []
        var current = ""
        for character in text {
            if character.isLetter || character.isNumber {
                current.append(character)
                continue
            }
            if !current.isEmpty {
                tokens.append(current)
                current = ""
            }
            if character.isPunctuation || character.isSymbol { tokens.append(String(character)) }
        }
        if !current.isEmpty { tokens.append(current) }
        return tokens.filter { token in !token.allSatisfy { $0 == "." || ("0"..."9").contains($0) } }
    }

    /// The index in `needles` of the first word that cannot be matched in order in `haystack`,
    /// or nil when `needles` is a subsequence of `haystack`.
    static func firstUnmatched(_ needles: [String], in haystack: [String]) -> Int? {
        var position = haystack.startIndex
        for (index, needle) in needles.enumerated() {
            guard let found = haystack[position...].firstIndex(of: needle) else { return index }
            position = found + 1
        }
        return nil
    }
}

/// The official positions of README §6 (x, baseline y in PDF points from the bottom), typed
/// here from the README, not read from the form JSON the renderer uses.
struct OfficialPositions {
    let name: (x: Double, y: Double)
    let birthDate: (x: Double, y: Double)
    let birthPlace: (x: Double, y: Double)
    let address: (x: Double, y: Double)
    let city: (x: Double, y: Double)
    let exitDate: (x: Double, y: Double)
    let exitTime: (x: Double, y: Double)
    let markX: Double
    let reasonY: [String: Double]

    static func of(_ formID: String) throws -> OfficialPositions {
        switch formID {
        case "deplacement-2020-11-28":
            return OfficialPositions(
                name: (92, 702), birthDate: (92, 684), birthPlace: (214, 684), address: (104, 665),
                city: (78, 76), exitDate: (63, 58), exitTime: (227, 58), markX: 47,
                reasonY: [
                    "travail": 553, "achats_culturel_cultuel": 482, "sante": 434, "famille": 410,
                    "handicap": 373, "sport_animaux": 349, "convocation": 276, "missions": 252,
                    "enfants": 228,
                ])
        case "deplacement-2020-11-02":
            return OfficialPositions(
                name: (107, 657), birthDate: (107, 627), birthPlace: (240, 627), address: (124, 596),
                city: (93, 122), exitDate: (76, 92), exitTime: (246, 92), markX: 59,
                reasonY: [
                    "travail": 488, "achats": 417, "sante": 347, "famille": 325, "handicap": 291,
                    "sport_animaux": 269, "convocation": 199, "missions": 178, "enfants": 157,
                ])
        default:
            throw ToolFailure(description: "no official positions for \(formID)")
        }
    }
}

/// The official templates' text, as the repository keeps it (TestSupport's ReferenceFile).
enum Reference {
    /// `official-DATE.txt` of the form `deplacement-DATE`: `pdftotext -layout` of its blank.
    static func officialText(_ formID: String) throws -> String {
        try ReferenceFile.text("official-\(formID.replacingOccurrences(of: "deplacement-", with: "")).txt")
    }
}
