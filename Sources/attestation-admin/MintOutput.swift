import Foundation
import Rendering

/// The minted links in the chosen format. The codes people scan open their personal page
/// (`/?t=…`); the URL output and the sheet's direct link are the PDF, for bookmarks, Shortcuts
/// and scripts.
struct MintOutput {
    let links: [MintedLink]
    let format: Mint.Format
    let terminalStyle: TerminalQR.Style

    var text: String {
        get throws {
            switch format {
            case .url:
                return links.map { $0.url + "\n" }.joined()
            case .json:
                return try prettyJSON(links) + "\n"
            case .qr:
                return try links.map { link in
                    let code = TerminalQR(try Self.qr(link.pageURL)).text(style: terminalStyle)
                    return "\(link.name) : scannez avec son téléphone pour ouvrir sa page\n\(code)\(link.pageURL)\n\n"
                }.joined()
            case .html:
                return try sheet()
            }
        }
    }

    private static func qr(_ text: String) throws -> QRCodeDrawing {
        do { return try QRCodeDrawing(text: text) } catch { throw AdminError.software(error.description) }
    }

    /// The template's `<!-- personne -->` section once per link, its `{{…}}` filled in: a
    /// self-contained page, no script, no request to any other site.
    private func sheet() throws -> String {
        let template = String(decoding: EmbeddedFiles.required("Resources/feuille-de-liens.html"), as: UTF8.self)
        guard let start = template.range(of: "<!-- personne -->\n"),
            let end = template.range(of: "<!-- /personne -->\n")
        else {
            throw AdminError.software("modèle de la feuille de liens sans section <!-- personne -->.")
        }
        let section = String(template[start.upperBound..<end.lowerBound])
        let people = try links.map { link in
            let values = [
                "nom": escape(link.name),
                "qr": try Self.qr(link.pageURL).svg(size: 220),
                "pdf": escape(link.url),
                "papier": escape(link.paperURL),
                "validite": escape(
                    link.contents.expiresAt.map { "Valable jusqu’au \(ShownDate.text($0, in: link.zone))." }
                        ?? "Sans date d’expiration."),
            ]
            return values.reduce(section) { $0.replacingOccurrences(of: "{{\($1.key)}}", with: $1.value) }
        }
        return String(template[..<start.lowerBound]) + people.joined() + String(template[end.upperBound...])
    }

    private func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }
}

/// A QR code for a terminal: two rows of modules per line of text with half blocks, a 2-module
/// quiet zone. Drawn here: libqrencode draws for terminals only in its `qrencode` program
/// (`-t ANSIUTF8`), not through its library.
struct TerminalQR {
    enum Style {
        /// Explicit colours, black modules on white (256-colour SGR: 16 and 231, which terminal
        /// themes leave alone), so the code reads the same on light and dark terminals.
        case colors
        /// No escape codes: dark modules drawn in the text colour, for a light background.
        case darkOnLight
        /// No escape codes: light modules drawn in the text colour, for a dark background.
        case lightOnDark
    }

    let code: QRCodeDrawing

    init(_ code: QRCodeDrawing) { self.code = code }

    static let colorsOn = "\u{1B}[38;5;16;48;5;231m"
    static let colorsOff = "\u{1B}[0m"

    func text(style: Style) -> String {
        let quiet = 2
        let side = code.modules + 2 * quiet
        func dark(_ row: Int, _ column: Int) -> Bool {
            let (r, c) = (row - quiet, column - quiet)
            return (0..<code.modules).contains(r) && (0..<code.modules).contains(c) && code.isDark(row: r, column: c)
        }
        // The glyph covers the halves drawn in the text colour: dark modules, or light ones.
        let drawn = style == .lightOnDark ? { (row: Int, column: Int) in !dark(row, column) } : dark
        var text = ""
        for row in stride(from: 0, to: side, by: 2) {
            if style == .colors { text += Self.colorsOn }
            for column in 0..<side {
                // Past the last row, the half is quiet zone: light.
                let bottom = row + 1 < side ? drawn(row + 1, column) : style == .lightOnDark
                switch (drawn(row, column), bottom) {
                case (true, true): text += "█"
                case (true, false): text += "▀"
                case (false, true): text += "▄"
                case (false, false): text += " "
                }
            }
            if style == .colors { text += Self.colorsOff }
            text += "\n"
        }
        return text
    }
}
