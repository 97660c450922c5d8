import Foundation
import TestSupport
import Testing

/// A terminal's two themes: the colour of text and of the background, as grey levels.
enum Theme: CaseIterable, Sendable {
    case light, dark

    var text: UInt8 { self == .light ? 20 : 225 }
    var background: UInt8 { self == .light ? 250 : 30 }
}

/// What a terminal would show of `output`: each character cell two half-blocks high, drawn in the
/// text colour where the glyph covers it and in the background colour elsewhere; 256-colour SGR
/// escapes (`38;5;N`, `48;5;N`, `0`) change those colours as a terminal would.
private func screen(_ output: String, theme: Theme, scale: Int = 6) -> (width: Int, height: Int, pixels: [UInt8]) {
    func grey(_ index: Int) -> UInt8 {
        switch index {
        case 0, 16: 0
        case 15, 231: 255
        case 232...255: UInt8(8 + (index - 232) * 10)
        default: 128
        }
    }
    var rows: [[(top: UInt8, bottom: UInt8)]] = []
    var text = theme.text
    var background = theme.background
    // The drawing: the lines between the person's name and the address under the code.
    let lines = output.split(separator: "\n", omittingEmptySubsequences: false)
    let end = lines.firstIndex { $0.hasPrefix("https://") } ?? lines.endIndex
    for line in lines[1..<end] {
        var cells: [(UInt8, UInt8)] = []
        var rest = Substring(line)
        while let character = rest.first {
            if character == "\u{1B}", let end = rest.firstIndex(of: "m") {
                let codes = rest[rest.index(rest.startIndex, offsetBy: 2)..<end].split(separator: ";").compactMap {
                    Int($0)
                }
                var index = 0
                while index < codes.count {
                    switch codes[index] {
                    case 0: (text, background) = (theme.text, theme.background)
                    case 38 where index + 2 < codes.count:
                        text = grey(codes[index + 2])
                        index += 2
                    case 48 where index + 2 < codes.count:
                        background = grey(codes[index + 2])
                        index += 2
                    default: break
                    }
                    index += 1
                }
                rest = rest[rest.index(after: end)...]
                continue
            }
            switch character {
            case "█": cells.append((text, text))
            case "▀": cells.append((text, background))
            case "▄": cells.append((background, text))
            default: cells.append((background, background))
            }
            rest = rest.dropFirst()
        }
        rows.append(cells)
    }
    // The terminal around the code: its own background, a few cells of it.
    let margin = 4
    let columns = (rows.map(\.count).max() ?? 0) + 2 * margin
    let width = columns * scale
    let height = (rows.count + 2 * margin) * 2 * scale
    var pixels = [UInt8](repeating: theme.background, count: width * height)
    for (row, cells) in rows.enumerated() {
        for (column, cell) in cells.enumerated() {
            for dy in 0..<(2 * scale) {
                for dx in 0..<scale {
                    pixels[((row + margin) * 2 * scale + dy) * width + (column + margin) * scale + dx] =
                        dy < scale ? cell.top : cell.bottom
                }
            }
        }
    }
    return (width, height, pixels)
}

/// zbarimg's reading of the terminal's picture, or nil when it finds no code.
private func decoded(_ output: String, theme: Theme, scratch: Scratch) throws -> String? {
    let (width, height, pixels) = screen(output, theme: theme)
    let image = URL(fileURLWithPath: scratch.path("terminal-\(theme)-\(UUID().uuidString).pgm"))
    try (Data("P5\n\(width) \(height)\n255\n".utf8) + Data(pixels)).write(to: image)
    let result = try Tool.external("zbarimg", zbarimgQRCodeOptions + [image.path])
    return result.status == 0 ? result.stdout.trimmingCharacters(in: .newlines) : nil
}

private let camille = [
    "--first-name", "Camille", "--last-name", "Dupont", "--birth-date", "01/01/1970", "--birth-place", "Lyon",
    "--address", "999 avenue de France", "--zip", "75001", "--city", "Paris", "--reason", "travail",
]

@Suite struct TerminalQRTests {
    /// The code a phone scans opens the person's page (`/?t=…`), on a light terminal as on a dark
    /// one: explicit colours, not the terminal's own. Before, the light modules were drawn in the
    /// text colour, which is dark on a light terminal: an inverted code zbarimg could not read.
    @Test func theDefaultCodeReadsOnLightAndDarkTerminalsAndOpensThePersonalPage() throws {
        let scratch = try initializedForQR()
        // swift test sets NO_COLOR for what it runs.
        let result = try Tool.external(
            "env", ["-u", "NO_COLOR", Tool.admin.path, "mint"] + camille + ["--format", "qr"], in: scratch.url)
        #expect(result.status == 0, "\(result.stderr)")
        let page = try #require(
            result.stdout.split(separator: "\n").first { $0.hasPrefix("https://") }.map(String.init))
        #expect(
            page.hasPrefix("https://attestation.example.org/?t="),
            "the code and the line under it are the personal page")
        #expect(result.stdout.contains("\u{1B}[38;5;16;48;5;231m"), "explicit colours")
        for theme in Theme.allCases {
            #expect(try decoded(result.stdout, theme: theme, scratch: scratch) == page, "\(theme) terminal")
        }
    }

    @Test(arguments: [("--no-color", Theme.light), ("--invert", Theme.dark)])
    func withoutColoursEachDrawingReadsOnItsOwnBackground(flag: String, theme: Theme) throws {
        let scratch = try initializedForQR()
        let result = try Tool.external(
            "env", ["-u", "NO_COLOR", Tool.admin.path, "mint"] + camille + ["--format", "qr", flag], in: scratch.url)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(!result.stdout.contains("\u{1B}"), "no escape codes")
        let page = try #require(
            result.stdout.split(separator: "\n").first { $0.hasPrefix("https://") }.map(String.init))
        #expect(try decoded(result.stdout, theme: theme, scratch: scratch) == page)
    }

    @Test func noColorFromTheEnvironmentDrawsForALightBackground() throws {
        let scratch = try initializedForQR()
        let result = try Tool.external(
            "env", ["NO_COLOR=1", Tool.admin.path, "mint"] + camille + ["--format", "qr"], in: scratch.url)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(!result.stdout.contains("\u{1B}"))
        let page = try #require(
            result.stdout.split(separator: "\n").first { $0.hasPrefix("https://") }.map(String.init))
        #expect(try decoded(result.stdout, theme: .light, scratch: scratch) == page)
    }

    @Test func colourOptionsGoWithTheTerminalFormatOnly() throws {
        let scratch = try initializedForQR()
        let result = try Tool.admin(["mint"] + camille + ["--invert"], in: scratch.url)
        #expect(result.status == 64)
        #expect(result.stderr.contains("--format qr"), "\(result.stderr)")
    }
}

private func initializedForQR() throws -> Scratch {
    let scratch = try Scratch()
    let result = try Tool.admin(["init", "--base-url", "https://attestation.example.org"], in: scratch.url)
    try #require(result.status == 0, "init failed: \(result.stderr)")
    return scratch
}
